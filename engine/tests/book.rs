//! `OwnBook` with a Polyglot book: game moves come from the book while it has one; analysis
//! and positions outside the book are searched.

use std::sync::mpsc;
use std::time::Duration;
use tempo_core::{book::BookBuilder, Move, Position};
use tempo_engine::{Engine, EngineOption, Event, Limits};

fn best_move(engine: &mut Engine, limits: Limits) -> Option<Move> {
    let (tx, rx) = mpsc::channel();
    engine
        .go(limits, move |event| {
            let _ = tx.send(event);
        })
        .unwrap();
    engine.wait();
    let events: Vec<Event> = rx.iter().collect();
    // Exactly one best move, and it comes last.
    assert_eq!(events.iter().filter(|e| matches!(e, Event::BestMove { .. })).count(), 1);
    match events.last() {
        Some(Event::BestMove { best, .. }) => *best,
        other => panic!("last event {other:?}"),
    }
}

fn book_with_a3() -> (tempo_core::book::Book, Move) {
    // 1. a3 is never the engine's own choice, so finding it proves the book was used.
    let start = Position::startpos();
    let a3 = start.legal_moves().iter().copied().find(|m| format!("{m:?}") == "a2a3").unwrap();
    let mut builder = BookBuilder::new();
    builder.add(&start, a3, 10);
    (builder.build(1), a3)
}

#[test]
fn own_book_plays_book_moves_in_games_only() {
    let (book, a3) = book_with_a3();
    let mut engine = Engine::new();
    engine.set_book(Some(book));
    let clock = Limits { movetime: Some(Duration::from_millis(50)), ..Limits::default() };

    // Off by default.
    assert_ne!(best_move(&mut engine, clock.clone()), Some(a3));

    engine.set_option(EngineOption::OwnBook(true)).unwrap();
    assert_eq!(best_move(&mut engine, clock.clone()), Some(a3));
    // Analysis (a depth limit) searches instead.
    assert_ne!(best_move(&mut engine, Limits::depth(4)), Some(a3));

    // Out of the book: a normal search.
    let mut after = Position::startpos();
    after.play(a3).unwrap();
    engine.set_position(Position::startpos(), &[a3]).unwrap();
    let reply = best_move(&mut engine, clock.clone()).unwrap();
    assert!(after.is_legal(reply));

    // `searchmoves` that exclude the book move are respected.
    engine.set_position(Position::startpos(), &[]).unwrap();
    let e4 = Position::startpos().legal_moves().iter().copied().find(|m| format!("{m:?}") == "e2e4").unwrap();
    let only_e4 = Limits { searchmoves: vec![e4], ..clock.clone() };
    assert_eq!(best_move(&mut engine, only_e4), Some(e4));

    // Removing the book ends book play.
    engine.set_book(None);
    assert_ne!(best_move(&mut engine, clock), Some(a3));
}
