//! A small mate-in-N suite: the engine must find the mate and announce it exactly.

mod common;

use common::{bestmoves, transcript};

/// (FEN, mate in N moves, accepted first moves)
const MATES: &[(&str, i32, &[&str])] = &[
    // Back-rank mate.
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, &["d1d8"]),
    // Scholar's mate.
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, &["h5f7"]),
    // Smothered mate.
    ("r5rk/6pp/7N/8/8/8/1Q4PP/6K1 w - - 0 1", 1, &["h6f7"]),
    // KQ vs K along the back rank.
    ("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1", 1, &["g1g8"]),
    // Philidor's smothered mate: Qg8+ Rxg8 Nf7#.
    ("r6k/6pp/7N/8/8/1Q6/6PP/6K1 w - - 0 1", 2, &["b3g8"]),
    // Black mates: Fool's mate.
    ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", 1, &["d8h4"]),
    // Rook roller: Ra7 then Rb8 mates.
    ("6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2, &["a2a7", "b1b7"]),
];

#[test]
fn finds_the_mates() {
    for &(fen, n, accepted) in MATES {
        // A node budget, not a depth: how soon a mate is seen depends on the evaluation
        // (the built-in network reaches the rook roller at depth 12, a few thousand nodes).
        let text = transcript(&[&format!("position fen {fen}"), "go nodes 50000"]);
        let best = bestmoves(&text);
        assert_eq!(best.len(), 1);
        let mv = best[0].split(' ').nth(1).unwrap();
        assert!(accepted.contains(&mv), "{fen}: played {mv}\n{text}");
        let last_info = text.lines().rfind(|l| l.starts_with("info depth")).unwrap();
        assert!(last_info.contains(&format!("score mate {n} ")), "{fen}: {last_info}");
    }
}

#[test]
fn go_mate_stops_when_the_mate_is_proven() {
    let text = transcript(&["position fen 6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", "go mate 2"]);
    assert!(text.lines().any(|l| l.contains("score mate 2 ")), "{text}");
    assert_eq!(bestmoves(&text).len(), 1);
}

#[test]
fn getting_mated_is_announced_negative() {
    // After 1. Qg7 Black's only move Kb8 allows Qb7 mate: announced as mate -1.
    let text = transcript(&["position fen k7/8/1K6/8/8/8/8/6Q1 w - - 0 1 moves g1g7", "go depth 4"]);
    assert_eq!(bestmoves(&text).len(), 1, "{text}");
    let last_info = text.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(last_info.contains("score mate -1 "), "{last_info}");
}
