//! perft: the number of leaf nodes of the legal move tree, the standard test of a move
//! generator. `perft` counts the last ply in bulk; `perft_plain` plays every move.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Leaf count at `depth`, counting the last ply without playing it (bulk counting).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            let mut moves = MoveList::new();
            pos.legal_moves_into(&mut moves);
            for &m in &moves {
                let mut child = *pos;
                child.play_unchecked(m);
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}

/// Leaf count at `depth`, playing every move including the last ply.
pub fn perft_plain(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for &m in &pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(m);
        nodes += perft_plain(&child, depth - 1);
    }
    nodes
}

/// The leaf count below each legal root move (`depth >= 1`), in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
