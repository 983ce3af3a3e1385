//! The search's accumulators: one pair per ply, each the previous ply's changed by the move
//! between them.
//!
//! The search plays moves copy-make, so the position at ply `n + 1` is always the position
//! at ply `n` after the move the search is trying there. When it makes a move, the search
//! records the move's [`Delta`] in the entry of the next ply ([`AccumulatorStack::push_move`])
//! and nothing else: the accumulators are brought up to date only when an evaluation is
//! asked for, from the nearest ply below that is up to date. Many nodes never evaluate (a
//! transposition-table cut, a draw, a stored static evaluation, a position in check), and
//! those then cost nothing here. Only the root is computed from scratch; a null move changes
//! no piece, so its entry is a copy of the previous one.
//!
//! Debug builds check every evaluated accumulator against one computed from scratch.

use super::accumulator::Accumulator;
use super::features::Delta;
use super::network::Network;
use super::simd::Simd;
use crate::score::{Value, MATE_BOUND, MAX_PLY};
use std::sync::Arc;
use tempo_core::{Move, Position};

#[derive(Clone, Copy)]
struct Entry {
    accumulator: Accumulator,
    /// The pieces the move from the previous ply changed.
    delta: Delta,
    /// `accumulator` is this ply's position's (otherwise `delta` waits to be applied).
    computed: bool,
}

/// The per-ply accumulators of one search thread and the network they belong to.
pub(crate) struct AccumulatorStack {
    network: Arc<Network>,
    simd: Simd,
    /// Indexed by ply; entry 0 (the root) is always computed.
    entries: Box<[Entry]>,
}

impl AccumulatorStack {
    /// A stack for searches evaluating with `network`.
    pub(crate) fn new(network: Arc<Network>) -> AccumulatorStack {
        let empty = Entry { accumulator: Accumulator::ZERO, delta: Delta::default(), computed: false };
        AccumulatorStack { network, simd: Simd::detect(), entries: vec![empty; MAX_PLY + 1].into_boxed_slice() }
    }

    /// The network evaluating.
    pub(crate) fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// Starts a search of `root`: its accumulators are computed from scratch.
    pub(crate) fn set_root(&mut self, root: &Position) {
        let entry = &mut self.entries[0];
        entry.accumulator = Accumulator::refresh(&self.network, root, self.simd);
        entry.computed = true;
    }

    /// The search plays `m` in `pos`, the position at `ply`: the position at `ply + 1` is
    /// `pos` after `m`.
    #[inline]
    pub(crate) fn push_move(&mut self, ply: usize, pos: &Position, m: Move) {
        let entry = &mut self.entries[ply + 1];
        entry.delta = Delta::of_move(pos, m);
        entry.computed = false;
    }

    /// The search passes at `ply` (null move): the pieces at `ply + 1` are those at `ply`.
    #[inline]
    pub(crate) fn push_null(&mut self, ply: usize) {
        let entry = &mut self.entries[ply + 1];
        entry.delta = Delta::default();
        entry.computed = false;
    }

    /// The network's evaluation of `pos`, the position at `ply`, for the side to move,
    /// bounded to the non-mate range of search values.
    ///
    /// Never inlined, so that the search's call site stays small and the hand-crafted path
    /// beside it compiles as it did before NNUE existed.
    #[inline(never)]
    pub(crate) fn evaluate(&mut self, ply: usize, pos: &Position) -> Value {
        let mut first = ply;
        while !self.entries[first].computed {
            first -= 1;
        }
        for n in first + 1..=ply {
            let (below, from_n) = self.entries.split_at_mut(n);
            let entry = &mut from_n[0];
            entry.accumulator.update_from(&below[n - 1].accumulator, &entry.delta, &self.network, self.simd);
            entry.computed = true;
        }
        let accumulator = &self.entries[ply].accumulator;
        debug_assert_eq!(
            *accumulator,
            Accumulator::refresh(&self.network, pos, self.simd),
            "incremental accumulator diverged at ply {ply} in {}",
            pos.fen()
        );
        accumulator.evaluate(&self.network, pos.turn(), self.simd).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The accumulators at `ply` as they stand (for tests).
    #[cfg(test)]
    pub(crate) fn accumulator(&self, ply: usize) -> &Accumulator {
        &self.entries[ply].accumulator
    }
}
