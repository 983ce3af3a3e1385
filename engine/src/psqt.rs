//! Material and piece-square tables: Ronald Friederich's PeSTO values.
//!
//! Source: "PeSTO's Evaluation Function", chessprogramming.org (the tapered tables of the
//! engine PeSTO / RofChade, tuned by Texel's method). Tables are written from White's point
//! of view with a8 first, as published; [`psqt`] does the flipping. These are starting values:
//! the tuning tools of the tools issue retune them together with the other terms.

use crate::eval::S;
use tempo_core::{Color, Role, Square};

/// Middlegame and endgame material values, pawn to king (PeSTO).
pub const MATERIAL: [S; 6] = [S(82, 94), S(337, 281), S(365, 297), S(477, 512), S(1025, 936), S(0, 0)];

/// Game phase weight of each role (knight and bishop 1, rook 2, queen 4; 24 at the start).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the starting material.
pub const MAX_PHASE: i32 = 24;

// MG and EG: the piece-square tables, rewritten by `tempo-tools tune --write`.
include!("psqt_tables.rs");

/// Material plus piece-square value of a `color` `role` on `square`, from White's table.
#[inline]
pub fn psqt(color: Color, role: Role, square: Square) -> S {
    // The tables list a8 first: a White piece on square index i reads entry i ^ 56, a Black
    // piece reads the mirrored square, which is its own index.
    let index = match color {
        Color::White => square.index() ^ 56,
        Color::Black => square.index(),
    };
    let m = MATERIAL[role.index()];
    S(m.0 + MG[role.index()][index], m.1 + EG[role.index()][index])
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::Position;

    #[test]
    fn start_position_is_symmetric() {
        let pos = Position::startpos();
        let mut total = S(0, 0);
        for sq in pos.occupied() {
            let piece = pos.piece_at(sq).unwrap();
            let v = psqt(piece.color, piece.role, sq);
            total = if piece.color == Color::White { total + v } else { total - v };
        }
        assert_eq!(total, S(0, 0));
    }
}
