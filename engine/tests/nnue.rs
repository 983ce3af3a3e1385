//! Searching with a network: through the facade, with `UseNNUE` and `Engine::set_network`.
//! (Debug builds also check every incremental accumulator against a from-scratch one.)

use std::sync::mpsc;
use std::sync::Arc;
use tempo_core::{CastlingMode, Move, Position};
use tempo_engine::nnue::format::INPUTS;
use tempo_engine::{
    hce, nnue_evaluate, Engine, EngineOption, Evaluator, Event, InputMapping, Limits, Network, QuantisedNet, Score,
    HIDDEN,
};

/// A network of one output bucket: `w1(feature, neuron)`, `b1(neuron)`, `w2(index)` and
/// `b2`.
fn network(
    w1: impl Fn(usize, usize) -> i16,
    b1: impl Fn(usize) -> i16,
    w2: impl Fn(usize) -> i16,
    b2: i32,
) -> Arc<Network> {
    let net = QuantisedNet {
        hidden: HIDDEN,
        mapping: InputMapping::Plain,
        w1: (0..INPUTS * HIDDEN).map(|k| w1(k / HIDDEN, k % HIDDEN)).collect(),
        b1: (0..HIDDEN).map(b1).collect(),
        w2: (0..2 * HIDDEN).map(w2).collect(),
        b2: vec![b2],
        qb: vec![64],
    };
    Arc::new(Network::from_quantised(&net).unwrap())
}

/// Deterministic pseudo-random weights in the trainer's range; output weights within
/// `-max_output..=max_output` on the first 128 neurons of each half and zero on the rest, so
/// that the evaluations (and the searches below) do not change with the engine's width.
fn random_network(seed: u64, max_output: i16) -> Arc<Network> {
    let hash = |a: usize, b: usize| -> u64 {
        let mut z =
            seed ^ (a as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (b as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    network(
        |f, j| (hash(f, j) % 161) as i16 - 80,
        |j| (hash(1000, j) % 301) as i16 - 50,
        |k| {
            let (half, j) = (k / HIDDEN, k % HIDDEN);
            let span = 2 * max_output as u64 + 1;
            if j < 128 {
                (hash(2000, half * 128 + j) % span) as i16 - max_output
            } else {
                0
            }
        },
        (hash(3000, 0) % 10_001) as i32 - 5000,
    )
}

/// A network that wants the side to move to have as few pieces as possible: one neuron,
/// bias 255, -20 per own piece, weighted only in the side to move's accumulator. With a
/// king and a queen the side to move scores 284 cp, with a lone king 339 cp.
fn fewer_pieces_network() -> Arc<Network> {
    network(
        |f, j| if j == 0 && f < 6 * 64 { -20 } else { 0 },
        |j| if j == 0 { 255 } else { 0 },
        |k| if k == 0 { 64 } else { 0 },
        0,
    )
}

fn nnue_engine(network: Arc<Network>) -> Engine {
    let mut engine = Engine::new();
    engine.set_network(network);
    engine.set_option(EngineOption::UseNnue(true)).unwrap();
    engine
}

/// Searches and returns the best move and the last reported score.
fn search(engine: &mut Engine, pos: Position, depth: u32) -> (Option<Move>, Option<Score>) {
    engine.set_position(pos, &[]).unwrap();
    let (tx, rx) = mpsc::channel();
    engine.go(Limits::depth(depth), move |e| drop(tx.send(e))).unwrap();
    engine.wait();
    let events: Vec<Event> = rx.try_iter().collect();
    let score = events.iter().rev().find_map(|e| match e {
        Event::Info(info) => Some(info.score),
        _ => None,
    });
    let best = events.iter().find_map(|e| match e {
        Event::BestMove { best, .. } => Some(*best),
        _ => None,
    });
    (best.flatten(), score)
}

#[test]
fn the_search_finds_mates_with_a_network() {
    let mates: &[(&str, i32, &[&str])] = &[
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, &["d1d8"]),
        ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, &["h5f7"]),
        ("r5rk/6pp/7N/8/8/8/1Q4PP/6K1 w - - 0 1", 1, &["h6f7"]),
        ("r6k/6pp/7N/8/8/1Q6/6PP/6K1 w - - 0 1", 2, &["b3g8"]),
        ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", 1, &["d8h4"]),
        ("6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2, &["a2a7", "b1b7"]),
    ];
    // Output weights of at most 3 keep the evaluations within about a pawn. (A network of
    // wild evaluations, claiming twenty pawns for a lone king, misleads the pruning the way
    // any such evaluation would: reverse futility then believes the mated side is winning.)
    let mut engine = nnue_engine(random_network(1, 3));
    for &(fen, n, accepted) in mates {
        let (best, score) = search(&mut engine, fen.parse().unwrap(), 2 * n as u32 + 3);
        let best = format!("{:?}", best.unwrap());
        assert!(accepted.contains(&best.as_str()), "{fen}: {best}");
        assert_eq!(score, Some(Score::Mate(n)), "{fen}");
    }
}

#[test]
fn the_network_decides_the_search() {
    // White can win Black's queen. By hand-crafted terms that is the move; the network that
    // wants the side to move to keep few pieces sees Black left with a lone king (339 cp for
    // Black) as worse for White than anything that keeps Black's queen on the board.
    let pos: Position = "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1".parse().unwrap();
    let network = fewer_pieces_network();
    assert_eq!(nnue_evaluate(&network, &pos), 284);
    let network_again = Arc::clone(&network);
    let capture = "d2d5";
    let mut hce = Engine::new();
    hce.set_option(EngineOption::UseNnue(false)).unwrap();
    let (hce_best, _) = search(&mut hce, pos, 4);
    assert_eq!(format!("{:?}", hce_best.unwrap()), capture);
    let mut engine = nnue_engine(network_again);
    let (nnue_best, _) = search(&mut engine, pos, 4);
    let nnue_best = nnue_best.unwrap();
    assert_ne!(format!("{nnue_best:?}"), capture);
    assert!(pos.is_legal(nnue_best));
    assert_eq!(engine.evaluate(), 284);
    // UseNNUE off: the network stays loaded but the hand-crafted evaluation is back.
    engine.set_option(EngineOption::UseNnue(false)).unwrap();
    assert!(matches!(engine.evaluator(), Evaluator::HandCrafted));
    assert_eq!(engine.evaluate(), hce::evaluate(&pos));
    assert!(Arc::ptr_eq(engine.network(), &network));
    let (best, _) = search(&mut engine, pos, 4);
    assert_eq!(format!("{:?}", best.unwrap()), capture);
}

#[test]
fn searches_with_a_network_play_legal_moves() {
    let fens = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
        ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", CastlingMode::Standard),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", CastlingMode::Standard),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", CastlingMode::Standard),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960),
        ("r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1", CastlingMode::Chess960),
    ];
    for threads in [1, 2] {
        let mut engine = nnue_engine(random_network(2, 127));
        engine.set_option(EngineOption::Threads(threads)).unwrap();
        for (fen, mode) in fens {
            let pos = Position::from_fen(fen, mode).unwrap();
            let (best, score) = search(&mut engine, pos, 7);
            let best = best.unwrap_or_else(|| panic!("{fen}: no move"));
            assert!(pos.is_legal(best), "{fen}: {best:?}");
            assert!(score.is_some(), "{fen}");
        }
    }
}

#[test]
fn the_built_in_network_is_the_default_and_comes_back() {
    let mut engine = Engine::new();
    assert!(engine.options().use_nnue);
    assert!(engine.network_is_embedded());
    let pos: Position = "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1".parse().unwrap();
    engine.set_position(pos, &[]).unwrap();
    assert_eq!(engine.evaluate(), nnue_evaluate(engine.network(), &pos));
    // The built-in network wins Black's queen, as the hand-crafted evaluation does.
    let (best, _) = search(&mut engine, pos, 4);
    assert_eq!(format!("{:?}", best.unwrap()), "d2d5");
    engine.set_network(fewer_pieces_network());
    assert!(!engine.network_is_embedded());
    engine.use_embedded_network();
    assert!(engine.network_is_embedded());
}
