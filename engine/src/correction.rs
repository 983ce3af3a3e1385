//! Correction history: what the search has learnt about the static evaluation's error in
//! positions like this one.
//!
//! A network misjudges whole families of positions in the same direction (a pawn structure it
//! overrates, a piece setup it underrates). Wherever a search result proves the static
//! evaluation wrong, the difference is remembered under keys of the position's pawn structure
//! and of each side's other pieces; later static evaluations of positions with the same keys
//! are shifted by what was learnt. Pruning decisions that compare the static evaluation with
//! alpha and beta then err less often. Stockfish, Berserk and most strong engines do this.
//!
//! The keys are hashes of piece bitboards, computed when needed (a few multiplications, far
//! less than an evaluation), so the position needs no extra incremental keys.

use crate::parameters as param;
use crate::score::Value;
use tempo_core::{Color, Position, Role};

/// Entries per table and side to move (a power of two).
const SIZE: usize = 16_384;
/// Largest magnitude of an entry.
const LIMIT: i32 = 1024;
/// The divisor of an entry times its weight, giving centipawns: at the limit and weight 100
/// an entry moves the evaluation by 50 centipawns.
const SCALE: i32 = 2048;

/// A hash of a set of bitboards, reduced to a table index.
#[inline]
fn index(bitboards: impl IntoIterator<Item = u64>) -> usize {
    // Each bitboard gets its own odd multiplier so that equal boards of different piece
    // types do not cancel; the top bits of the final product are the well-mixed ones.
    const MULTIPLIERS: [u64; 6] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0xD6E8_FEB8_6659_FD93,
        0xFF51_AFD7_ED55_8CCD,
        0xC4CE_B9FE_1A85_EC53,
    ];
    let mut h: u64 = 0;
    for (bb, k) in bitboards.into_iter().zip(MULTIPLIERS) {
        h = (h ^ bb).wrapping_mul(k).rotate_left(23);
    }
    (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SIZE.trailing_zeros())) as usize
}

/// The keys of a position's entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    side: usize,
    pawns: usize,
    non_pawns: [usize; 2],
}

impl CorrectionKeys {
    /// The keys of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> CorrectionKeys {
        let pawns = index([pos.pieces(Color::White, Role::Pawn).0, pos.pieces(Color::Black, Role::Pawn).0]);
        let non_pawns = Color::ALL.map(|c| {
            index([Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King].map(|r| pos.pieces(c, r).0))
        });
        CorrectionKeys { side: pos.turn().index(), pawns, non_pawns }
    }
}

/// The correction tables of one search thread.
pub struct CorrectionHistory {
    pawns: Vec<i16>,
    non_pawns: [Vec<i16>; 2],
}

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory::new()
    }
}

#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let v = i32::from(*entry);
    *entry = (v + bonus - v * bonus.abs() / LIMIT) as i16;
}

impl CorrectionHistory {
    /// Empty tables: no correction anywhere.
    pub fn new() -> CorrectionHistory {
        CorrectionHistory { pawns: vec![0; 2 * SIZE], non_pawns: [vec![0; 2 * SIZE], vec![0; 2 * SIZE]] }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.pawns.fill(0);
        for table in &mut self.non_pawns {
            table.fill(0);
        }
    }

    /// The correction, in centipawns, to add to a static evaluation for the side to move of
    /// a position with keys `keys`.
    #[inline]
    pub fn correction(&self, keys: &CorrectionKeys) -> Value {
        let base = keys.side * SIZE;
        let pawns = i32::from(self.pawns[base + keys.pawns]) * param::corr_pawn_weight();
        let non_pawns = (i32::from(self.non_pawns[0][base + keys.non_pawns[0]])
            + i32::from(self.non_pawns[1][base + keys.non_pawns[1]]))
            * param::corr_non_pawn_weight();
        (pawns + non_pawns) / SCALE
    }

    /// Learns from a search at `depth` that found `error` = search result − (corrected)
    /// static evaluation, for the side to move.
    #[inline]
    pub fn update(&mut self, keys: &CorrectionKeys, error: Value, depth: i32) {
        let bonus = (error * depth / param::corr_bonus_depth_divisor()).clamp(-LIMIT / 4, LIMIT / 4);
        let base = keys.side * SIZE;
        gravity(&mut self.pawns[base + keys.pawns], bonus);
        for (table, &key) in self.non_pawns.iter_mut().zip(&keys.non_pawns) {
            gravity(&mut table[base + key], bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Position {
        fen.parse().expect("valid FEN")
    }

    #[test]
    fn keys_follow_the_pieces_and_the_side_to_move() {
        let start = CorrectionKeys::of(&Position::default());
        let e4 = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        let k = CorrectionKeys::of(&e4);
        assert_ne!(k.pawns, start.pawns);
        assert_eq!(k.non_pawns, start.non_pawns);
        assert_ne!(k.side, start.side);
        let nf3 = position("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        let k = CorrectionKeys::of(&nf3);
        assert_eq!(k.pawns, start.pawns);
        assert_eq!(k.non_pawns[1], start.non_pawns[1]);
        assert_ne!(k.non_pawns[0], start.non_pawns[0]);
    }

    #[test]
    fn learnt_errors_correct_the_evaluation_and_stay_bounded() {
        let mut corr = CorrectionHistory::new();
        let keys = CorrectionKeys::of(&Position::default());
        assert_eq!(corr.correction(&keys), 0);
        for _ in 0..10 {
            corr.update(&keys, 200, 10);
        }
        let up = corr.correction(&keys);
        assert!(up > 0, "{up}");
        let most = LIMIT * (param::corr_pawn_weight() + 2 * param::corr_non_pawn_weight()) / SCALE;
        for _ in 0..10_000 {
            corr.update(&keys, 5000, 20);
        }
        assert!(corr.correction(&keys) <= most);
        for _ in 0..100 {
            corr.update(&keys, -300, 10);
        }
        assert!(corr.correction(&keys) < 0);
        // The other side to move learnt nothing.
        let black = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(corr.correction(&CorrectionKeys::of(&black)), 0);
        corr.clear();
        assert_eq!(corr.correction(&keys), 0);
    }
}
