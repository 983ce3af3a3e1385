//! perft: the number of leaf nodes of the legal move tree, the standard test of a move
//! generator. `perft` counts the last ply in bulk; `perft_plain` plays every move;
//! `perft_within` is `perft` that gives up as soon as the count exceeds a limit.
//!
//! The positions played inside perft never leave it, so they are made without updating
//! their Zobrist keys (`Position::play_unhashed`), which perft does not read.

use crate::bitboard::Bitboard;
use crate::movegen::{BlackToMove, Side, Sink, WhiteToMove};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, Role, Square};
use std::marker::PhantomData;

/// Leaf count at `depth`, counting the last ply without playing it (bulk counting).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match pos.turn() {
        Color::White => perft_for::<WhiteToMove>(pos, depth),
        Color::Black => perft_for::<BlackToMove>(pos, depth),
    }
}

/// [`perft`] with the side to move `C` known at compile time: generation and moves are
/// compiled for each side, and the plies alternate between the two versions.
fn perft_for<C: Side>(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves_for::<C>(),
        _ => {
            let mut below = PlayEach::<C> { pos, depth: depth - 1, nodes: 0, side: PhantomData };
            pos.legal_moves_to_sink_for::<C, _>(&mut below);
            below.nodes
        }
    }
}

/// perft's sink: plays each generated move on a copy of the position and counts the leaves
/// `depth` plies below it. No move list, and the make is told the moving piece's role, which
/// the generator knows (+5-8% over collecting the moves and looking the role up on make).
struct PlayEach<'a, C: Side> {
    pos: &'a Position,
    depth: u32,
    nodes: u64,
    side: PhantomData<C>,
}

impl<C: Side> PlayEach<'_, C> {
    #[inline(always)]
    fn play(&mut self, m: Move, role: Role) {
        let mut child = *self.pos;
        child.play_unhashed::<C>(m, role);
        self.nodes += perft_for::<C::Them>(&child, self.depth);
    }
}

impl<C: Side> Sink for PlayEach<'_, C> {
    #[inline(always)]
    fn piece_moves(&mut self, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.play(Move::normal(from, to), role);
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            self.play(Move::normal(Square::new_unchecked((to.index() as i32 - delta) as u32), to), Role::Pawn);
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::new_unchecked((to.index() as i32 - delta) as u32);
            for role in Role::PROMOTIONS {
                self.play(Move::promotion(from, to, role), Role::Pawn);
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        let role = if m.is_castle() { Role::King } else { Role::Pawn };
        self.play(m, role);
    }
}

/// Leaf count at `depth` if it is at most `limit`, else `None`, found without counting
/// further: the search stops as soon as the leaves counted so far exceed `limit`.
///
/// For checking an expected count that may be wrong (a perft suite's `;D300 5`): the work is
/// bounded by the limit, not by the size of the tree. Bulk counting as in [`perft`], with one
/// comparison per subtree on top, kept out of `perft` itself so that `perft` pays nothing.
/// Like `perft`, it recurses once per ply (under a kilobyte of stack each): callers reading
/// depths from untrusted input bound them.
///
/// ```
/// use tempo_core::perft::perft_within;
/// use tempo_core::Position;
///
/// let start = Position::startpos();
/// assert_eq!(perft_within(&start, 3, 8_902), Some(8_902));
/// assert_eq!(perft_within(&start, 3, 8_901), None);
/// // Returns at once, where `perft(&start, 300)` would never end.
/// assert_eq!(perft_within(&start, 300, 5), None);
/// ```
pub fn perft_within(pos: &Position, depth: u32, limit: u64) -> Option<u64> {
    match pos.turn() {
        Color::White => perft_within_for::<WhiteToMove>(pos, depth, limit),
        Color::Black => perft_within_for::<BlackToMove>(pos, depth, limit),
    }
}

/// [`perft_within`] with the side to move `C` known at compile time (as [`perft_for`]).
fn perft_within_for<C: Side>(pos: &Position, depth: u32, limit: u64) -> Option<u64> {
    let count = match depth {
        0 => 1,
        1 => pos.count_legal_moves_for::<C>(),
        _ => {
            let mut nodes = 0;
            let mut moves = MoveList::new();
            pos.legal_moves_to_sink_for::<C, _>(&mut moves);
            for &m in &moves {
                let mut child = *pos;
                child.play_unhashed::<C>(m, pos.role_at(m.from()).expect("a legal move's piece"));
                // What is left of the limit bounds each subtree, so `nodes <= limit` holds
                // throughout (no overflow, whatever the depth).
                nodes += perft_within_for::<C::Them>(&child, depth - 1, limit - nodes)?;
            }
            nodes
        }
    };
    (count <= limit).then_some(count)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingMode;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn within_agrees_with_perft_at_and_above_the_count() {
        let pos = Position::from_fen(KIWIPETE, CastlingMode::Standard).unwrap();
        for depth in 0..=3 {
            let n = perft(&pos, depth);
            assert_eq!(perft_within(&pos, depth, n), Some(n), "depth {depth}");
            assert_eq!(perft_within(&pos, depth, u64::MAX), Some(n), "depth {depth}");
            assert_eq!(perft_within(&pos, depth, n - 1), None, "depth {depth}");
        }
    }

    #[test]
    fn within_ends_on_absurd_depths() {
        let pos = Position::startpos();
        assert_eq!(perft_within(&pos, 300, 1_000), None);
        assert_eq!(perft_within(&pos, 2, 0), None);
        // No legal move: every depth has no leaf, and the answer is immediate.
        let mate = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", CastlingMode::Standard).unwrap();
        assert_eq!(perft_within(&mate, 1_000_000, 0), Some(0));
    }
}
