//! `Position::is_legal` decides one move without generating the others; it must agree
//! exactly with the legal move list, for every move a 16-bit encoding can name (a hash
//! table hands the engine arbitrary ones after a key collision).

use proptest::prelude::*;
use std::path::Path;
use tempo_core::{CastlingMode, Move, Position};

/// Every move the encoding can name: all from/to pairs of every kind.
fn every_encodable_move() -> impl Iterator<Item = Move> {
    (0..=u16::MAX).filter_map(Move::from_u16)
}

fn assert_agrees_on_every_move(pos: &Position) -> Result<(), TestCaseError> {
    let legal = pos.legal_moves();
    for m in every_encodable_move() {
        prop_assert_eq!(pos.is_legal(m), legal.contains(m), "{} {:?} ({:?})", pos.fen(), m, m.kind());
    }
    Ok(())
}

/// The positions of a perft suite, in the suite's castling mode (unreadable ones skipped:
/// `unreachable.epd` holds positions the parser rightly rejects).
fn suite(name: &str) -> Vec<Position> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/perft").join(name);
    let text = std::fs::read_to_string(path).expect("perft suite readable");
    let mode = if text.lines().take_while(|l| l.starts_with('#')).any(|l| l.contains("CHESS960")) {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| Position::from_fen(l.split(';').next().unwrap().trim(), mode).ok())
        .collect()
}

#[test]
fn agrees_with_the_move_list_on_the_perft_positions() {
    // Checks, pins, en passant traps, promotions and Chess960 castling all appear here.
    let mut positions = 0;
    for name in ["standard.epd", "tricky.epd", "talkchess.epd", "cpw.epd", "tricky960.epd", "unreachable.epd"] {
        for pos in suite(name) {
            assert_agrees_on_every_move(&pos).unwrap();
            positions += 1;
        }
    }
    // Chess960 starting positions, one in eight.
    for pos in suite("fischer.epd").into_iter().step_by(8) {
        assert_agrees_on_every_move(&pos).unwrap();
        positions += 1;
    }
    assert!(positions > 300, "{positions}");
}

#[test]
fn the_null_move_and_moves_of_the_side_not_to_move_are_illegal() {
    let pos = Position::startpos();
    assert!(!pos.is_legal(Move::NULL));
    assert!(!pos.is_legal(Move::normal("e7".parse().unwrap(), "e5".parse().unwrap())));
    assert!(pos.is_legal(Move::normal("e2".parse().unwrap(), "e4".parse().unwrap())));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Along random games, every encodable move at every position.
    #[test]
    fn agrees_with_the_move_list_along_random_games(
        start in 0usize..960,
        choices in prop::collection::vec(any::<usize>(), 1..60),
    ) {
        // Standard chess from the start, or a Chess960 start.
        let fischer = suite("fischer.epd");
        let mut pos = if start % 2 == 0 { Position::startpos() } else { fischer[start % fischer.len()] };
        for choice in choices {
            assert_agrees_on_every_move(&pos)?;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[choice % moves.len()]);
        }
    }
}
