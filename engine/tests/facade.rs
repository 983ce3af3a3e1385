//! The facade's contract: errors leave the engine usable, one best move per search.

use std::sync::mpsc;
use std::time::Duration;
use tempo_core::{Move, Position, Square};
use tempo_engine::{Engine, EngineError, EngineOption, Event, Limits};

fn search(engine: &mut Engine, limits: Limits) -> Vec<Event> {
    let (tx, rx) = mpsc::channel();
    engine.go(limits, move |e| drop(tx.send(e))).unwrap();
    engine.wait();
    rx.try_iter().collect()
}

fn best(events: &[Event]) -> Option<Move> {
    let bests: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::BestMove { best, .. } => Some(*best),
            _ => None,
        })
        .collect();
    assert_eq!(bests.len(), 1, "exactly one best move");
    assert!(matches!(events.last(), Some(Event::BestMove { .. })), "the best move comes last");
    bests[0]
}

#[test]
fn illegal_moves_are_rejected_and_the_position_kept() {
    let mut engine = Engine::new();
    let e4 = Move::normal(Square::new(12).unwrap(), Square::new(28).unwrap());
    engine.set_position(Position::startpos(), &[e4]).unwrap();
    let before = *engine.position();
    let err = engine.set_position(Position::startpos(), &[e4, e4]).unwrap_err();
    assert_eq!(err, EngineError::IllegalMove { mv: e4, index: 1 });
    assert_eq!(*engine.position(), before);
}

#[test]
fn debug_shows_the_position_and_whether_it_searches() {
    let mut engine = Engine::new();
    let e4 = Move::normal(Square::E2, Square::E4);
    engine.set_position(Position::startpos(), &[e4]).unwrap();
    let shown = format!("{engine:?}");
    assert!(
        shown.starts_with("Engine { position: Position(rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1)"),
        "{shown}"
    );
    assert!(shown.contains("moves_before: 1,") && shown.contains("searching: false,"), "{shown}");
}

#[test]
fn searchmoves_restrict_the_root() {
    let mut engine = Engine::new();
    let a3 = Move::normal(Square::new(8).unwrap(), Square::new(16).unwrap());
    let events = search(&mut engine, Limits { depth: Some(4), searchmoves: vec![a3], ..Limits::default() });
    assert_eq!(best(&events), Some(a3));
    let bad = Move::normal(Square::new(0).unwrap(), Square::new(63).unwrap());
    let err = engine.go(Limits { searchmoves: vec![bad], ..Limits::default() }, |_| {}).unwrap_err();
    assert_eq!(err, EngineError::IllegalSearchMove(bad));
}

#[test]
fn busy_while_searching_then_usable() {
    let mut engine = Engine::new();
    let (tx, rx) = mpsc::channel();
    engine.go(Limits { infinite: true, ..Limits::default() }, move |e| drop(tx.send(e))).unwrap();
    assert_eq!(engine.go(Limits::depth(1), |_| {}), Err(EngineError::Busy));
    assert_eq!(engine.set_option(EngineOption::Hash(2)), Err(EngineError::Busy));
    std::thread::sleep(Duration::from_millis(20));
    engine.stop();
    engine.wait();
    let events: Vec<Event> = rx.try_iter().collect();
    assert!(best(&events).is_some());
    engine.set_option(EngineOption::Hash(2)).unwrap();
    engine.set_option(EngineOption::Threads(2)).unwrap();
    engine.new_game().unwrap();
    assert!(best(&search(&mut engine, Limits::depth(6))).is_some());
}

#[test]
fn node_limit_is_exact_single_threaded() {
    let mut engine = Engine::new();
    let events = search(&mut engine, Limits::nodes(5000));
    let nodes = events
        .iter()
        .filter_map(|e| match e {
            Event::Info(i) => Some(i.nodes),
            _ => None,
        })
        .max()
        .unwrap();
    assert!(nodes <= 5000, "{nodes}");
}

fn info_scores(events: &[Event]) -> Vec<tempo_engine::Score> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Info(i) => Some(i.score),
            _ => None,
        })
        .collect()
}

#[test]
fn repetition_and_dead_positions_are_draws() {
    // After 1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1, Black's Ng8 repeats the start position.
    let mut engine = Engine::new();
    let start = Position::startpos();
    let mut pos = start;
    let mut moves = Vec::new();
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        let m = *pos.legal_moves().iter().find(|m| format!("{m:?}") == uci).unwrap();
        pos.play_unchecked(m);
        moves.push(m);
    }
    engine.set_position(start, &moves).unwrap();
    let back = *pos.legal_moves().iter().find(|m| format!("{m:?}") == "f6g8").unwrap();
    let events = search(&mut engine, Limits { depth: Some(6), searchmoves: vec![back], ..Limits::default() });
    assert!(info_scores(&events).iter().all(|s| *s == tempo_engine::Score::Cp(0)), "{events:?}");

    let pos: Position = "8/8/4k3/8/8/3NK3/8/8 w - - 0 1".parse().unwrap();
    engine.set_position(pos, &[]).unwrap();
    let events = search(&mut engine, Limits::depth(8));
    assert!(info_scores(&events).iter().all(|s| *s == tempo_engine::Score::Cp(0)), "{events:?}");
}

#[test]
fn the_next_command_may_follow_the_best_move_at_once() {
    // A GUI answers the best move immediately; the search thread may still be exiting then
    // and must not make the next `position`/`go` fail as busy.
    let mut engine = Engine::new();
    for _ in 0..50 {
        let (tx, rx) = mpsc::channel();
        engine.go(Limits::depth(1), move |e| drop(tx.send(e))).unwrap();
        while !matches!(rx.recv().unwrap(), Event::BestMove { .. }) {}
        engine.set_position(Position::startpos(), &[]).unwrap();
    }
}

/// `Engine::search` on a thread with the stack it asks for.
fn search_here(engine: Engine, limits: Limits) -> (Engine, Result<Vec<Event>, EngineError>) {
    std::thread::Builder::new()
        .stack_size(tempo_engine::SEARCH_STACK_SIZE)
        .spawn(move || {
            let mut engine = engine;
            let mut events = Vec::new();
            let result = engine.search(limits, |e| events.push(e)).map(|()| events);
            (engine, result)
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn a_search_on_the_calling_thread_reports_as_one_in_the_background() {
    // Single-threaded node-limited searches are deterministic: both ways give the same
    // events, best move last and once.
    let limits = Limits::nodes(20_000);
    let mut engine = Engine::new();
    let background = search(&mut engine, limits.clone());
    let mut engine = Engine::new();
    engine.set_position(Position::startpos(), &[]).unwrap();
    let (engine, here) = search_here(engine, limits);
    let here = here.unwrap();
    assert_eq!(best(&here), best(&background));
    let pvs = |events: &[Event]| -> Vec<Vec<Move>> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Info(i) => Some(i.pv.clone()),
                _ => None,
            })
            .collect()
    };
    assert_eq!(pvs(&here), pvs(&background));
    assert!(!engine.is_searching());

    // The errors of `go`, and the engine stays usable.
    let bad = Move::normal(Square::new(0).unwrap(), Square::new(63).unwrap());
    let (engine, err) = search_here(engine, Limits { searchmoves: vec![bad], ..Limits::default() });
    assert_eq!(err.unwrap_err(), EngineError::IllegalSearchMove(bad));
    let (engine, infinite) = search_here(engine, Limits { infinite: true, ..Limits::default() });
    assert_eq!(infinite.unwrap_err(), EngineError::NeedsStop);
    let (_, again) = search_here(engine, Limits::depth(3));
    assert!(best(&again.unwrap()).is_some());
}
