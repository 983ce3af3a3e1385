//! The search's accumulators: one pair per ply, each the previous ply's changed by the move
//! between them.
//!
//! The search plays moves copy-make, so the position at ply `n + 1` is always the position
//! at ply `n` after the move the search is trying there. When it makes a move, the search
//! calls [`AccumulatorStack::push_move`], which computes the next ply's accumulators from
//! this ply's and the move's [`Delta`] (one to four weight rows added or subtracted per
//! perspective). Only the root is computed from scratch, and, in a network with mirrored
//! inputs, the accumulator of a side whose king crosses between files d and e (or, with
//! king buckets, changes bucket), which starts from the last accumulator of its new view
//! (`cache`); a null move
//! changes no piece, so its entry is a copy of the previous one.
//!
//! Eager, not deferred until an evaluation asks: updating right after the move overlaps with
//! the position's own update and the table prefetch, and measured faster on the bench than
//! a lazy update on the evaluation's critical path (`engine/nets/README.md`, "Inference").
//!
//! Debug builds check every evaluated accumulator against one computed from scratch.

use super::accumulator::Accumulator;
use super::cache::RefreshCache;
use super::features::Delta;
use super::network::Network;
use super::simd::Simd;
use crate::score::{Value, MATE_BOUND, MAX_PLY};
use std::sync::Arc;
use tempo_core::{Move, Position};

/// The per-ply accumulators of one search thread and the network they belong to.
pub(crate) struct AccumulatorStack {
    network: Arc<Network>,
    simd: Simd,
    /// Indexed by ply: entry `n` belongs to the position the search is at on ply `n`.
    entries: Box<[Accumulator]>,
    /// Each view's last accumulator, for the king moves that change a side's view.
    cache: RefreshCache,
}

impl AccumulatorStack {
    /// A stack for searches evaluating with `network`.
    pub(crate) fn new(network: Arc<Network>) -> AccumulatorStack {
        AccumulatorStack {
            network,
            simd: Simd::detect(),
            entries: vec![Accumulator::ZERO; MAX_PLY + 1].into_boxed_slice(),
            cache: RefreshCache::new(),
        }
    }

    /// The network evaluating.
    pub(crate) fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// Starts a search of `root`: its accumulators are computed from scratch.
    pub(crate) fn set_root(&mut self, root: &Position) {
        self.entries[0] = Accumulator::refresh(&self.network, root, self.simd);
    }

    /// The search plays `m` in `pos`, the position at `ply`, giving `child`, the position at
    /// `ply + 1`.
    #[inline]
    pub(crate) fn push_move(&mut self, ply: usize, pos: &Position, m: Move, child: &Position) {
        let delta = Delta::of_move(pos, m);
        let (below, above) = self.entries.split_at_mut(ply + 1);
        above[0].update_from(&below[ply], &delta, child, &self.network, self.simd, &mut self.cache);
    }

    /// The search passes at `ply` (null move): the pieces at `ply + 1` are those at `ply`.
    #[inline]
    pub(crate) fn push_null(&mut self, ply: usize) {
        self.entries[ply + 1] = self.entries[ply];
    }

    /// The network's evaluation of `pos`, the position at `ply`, for the side to move,
    /// bounded to the non-mate range of search values.
    ///
    /// Never inlined, so that the search's call site stays small and the hand-crafted path
    /// beside it compiles as it did before NNUE existed.
    #[inline(never)]
    pub(crate) fn evaluate(&self, ply: usize, pos: &Position) -> Value {
        let accumulator = &self.entries[ply];
        debug_assert_eq!(
            *accumulator,
            Accumulator::refresh(&self.network, pos, self.simd),
            "incremental accumulator diverged at ply {ply} in {}",
            pos.fen()
        );
        accumulator.evaluate(&self.network, pos, self.simd).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The accumulators at `ply` as they stand (for tests).
    #[cfg(test)]
    pub(crate) fn accumulator(&self, ply: usize) -> &Accumulator {
        &self.entries[ply]
    }
}
