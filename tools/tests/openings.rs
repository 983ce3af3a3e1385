//! The opening sets in `data/openings/` that matches and SPRTs play from: every line a legal
//! position with moves to play, no position twice within or across the sets (a fixed-node
//! game from a repeated opening repeats move for move, and adds nothing to a test).

use std::collections::HashSet;
use tempo_core::{CastlingMode, Position};

fn openings(name: &str) -> Vec<String> {
    let path = format!("{}/../data/openings/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines().map(str::to_owned).collect()
}

/// Board, side to move, castling and en passant: the fields that make two openings the same.
fn identity(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

#[test]
fn every_opening_is_a_legal_undecided_position_and_none_repeats() {
    let mut seen = HashSet::new();
    for (name, expected) in [("openings.epd", 800), ("varied.epd", 1418), ("varied2.epd", 1429)] {
        let lines = openings(name);
        assert_eq!(lines.len(), expected, "{name}");
        for fen in &lines {
            let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{name}: {fen}: {e}"));
            assert!(pos.outcome().is_none(), "{name}: {fen} is already decided");
            assert!(seen.insert(identity(fen)), "{name}: {fen} appears twice");
        }
    }
}
