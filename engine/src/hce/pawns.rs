//! A per-thread cache of the pawn-only terms (pawn structure, passed pawns by rank): they
//! depend on nothing but where the pawns stand, which changes in few of the moves a search
//! makes, so most evaluations find them here instead of walking every pawn again.
//!
//! Entries hold both pawn sets, so a hit is exact: the cache can never return the terms of
//! another position, and it never needs clearing (the weights are compile-time constants).

use super::S;
use tempo_core::Bitboard;

/// The pawn-only terms of one pawn placement, per colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct PawnInfo {
    /// Doubled, isolated, backward and connected pawns.
    pub structure: [S; 2],
    /// Passed pawns by rank (the king-distance part depends on the kings and is not here).
    pub passed: [S; 2],
    /// The passed pawns.
    pub passers: [Bitboard; 2],
}

#[derive(Clone, Copy, Default)]
struct Slot {
    filled: bool,
    white: Bitboard,
    black: Bitboard,
    info: PawnInfo,
}

/// Number of slots: 8192 of 72 bytes, small enough to stay in the second-level cache.
const SLOTS: usize = 1 << 13;

/// A direct-mapped cache of `PawnInfo` by pawn placement.
pub struct PawnTable {
    slots: Box<[Slot]>,
}

impl Default for PawnTable {
    fn default() -> PawnTable {
        PawnTable::new()
    }
}

impl PawnTable {
    /// An empty table.
    pub fn new() -> PawnTable {
        PawnTable { slots: vec![Slot::default(); SLOTS].into_boxed_slice() }
    }

    #[inline]
    fn index(white: Bitboard, black: Bitboard) -> usize {
        let h = (white.0 ^ black.0.rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> (64 - SLOTS.trailing_zeros())) as usize
    }

    #[inline]
    pub(super) fn probe(&self, white: Bitboard, black: Bitboard) -> Option<PawnInfo> {
        let slot = &self.slots[Self::index(white, black)];
        (slot.filled && slot.white == white && slot.black == black).then_some(slot.info)
    }

    #[inline]
    pub(super) fn store(&mut self, white: Bitboard, black: Bitboard, info: PawnInfo) {
        self.slots[Self::index(white, black)] = Slot { filled: true, white, black, info };
    }
}
