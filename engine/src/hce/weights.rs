//! Every weight of the evaluation in one flat vector, [`WEIGHTS`], and its layout.
//!
//! The evaluation is linear in these weights: each term multiplies a weight by how often a
//! feature occurs (a piece on a square, a knight with five safe squares, a doubled pawn), so
//! the tuner can fit all of them together from labelled positions (see
//! [`linear_eval`](super::linear_eval)). The values live in `tuned_weights.rs`, which
//! `tempo-tools tune --write` rewrites; this module names the sections of the vector.
//!
//! Where the values came from: material and piece-square tables start as Ronald Friederich's
//! PeSTO tables (chessprogramming.org, "PeSTO's Evaluation Function", themselves Texel-tuned);
//! the other terms started as conventional hand-set values in the ranges published for
//! classical evaluations (Stockfish 11, the chessprogramming.org articles on each term).
//! `tuned_weights.rs` records the tuning run that produced the current values.

use super::S;
use tempo_core::{Color, Role, Square};

/// A named, contiguous group of weights in [`WEIGHTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeightSection {
    /// The section's name, as the generated source labels it.
    pub name: &'static str,
    /// Index of its first weight.
    pub start: usize,
    /// Number of weights.
    pub len: usize,
    /// Weights per row when written out (8 for per-square and per-rank tables).
    pub row: usize,
}

/// Material value by role (pawn to king; the king's is 0 as both sides always have one).
pub const MATERIAL: usize = 0;
/// Piece-square tables, `[role][square]`, White's view with a8 first, added to material.
pub const PSQT: usize = MATERIAL + 6;
/// Knight mobility by number of safe reachable squares (0..=8).
pub const MOBILITY_KNIGHT: usize = PSQT + 6 * 64;
/// Bishop mobility (0..=13 squares).
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
/// Rook mobility (0..=14 squares).
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
/// Queen mobility (0..=27 squares).
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
/// A pawn with another of its colour in front on the same file.
pub const PAWN_DOUBLED: usize = MOBILITY_QUEEN + 28;
/// A pawn with no pawn of its colour on a neighbouring file.
pub const PAWN_ISOLATED: usize = PAWN_DOUBLED + 1;
/// A pawn no neighbour can support whose stop square an enemy pawn controls.
pub const PAWN_BACKWARD: usize = PAWN_ISOLATED + 1;
/// A pawn defended by a pawn or beside one (phalanx), by relative rank.
pub const PAWN_CONNECTED: usize = PAWN_BACKWARD + 1;
/// A passed pawn by relative rank.
pub const PASSED: usize = PAWN_CONNECTED + 8;
/// Per square of the enemy king's distance to a passer's stop square, times the passer's
/// advancement (relative rank - 2).
pub const PASSED_THEIR_KING: usize = PASSED + 8;
/// The same for our own king's distance.
pub const PASSED_OUR_KING: usize = PASSED_THEIR_KING + 1;
/// Two bishops.
pub const BISHOP_PAIR: usize = PASSED_OUR_KING + 1;
/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
/// A rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
/// A piece attacked by an enemy pawn, by role (knight to queen use entries 1..=4).
pub const THREAT_BY_PAWN: usize = ROOK_SEMI_OPEN_FILE + 1;
/// A king-shelter file whose pawn is on the second rank.
pub const SHELTER_RANK2: usize = THREAT_BY_PAWN + 6;
/// A king-shelter file whose pawn is on the third rank.
pub const SHELTER_RANK3: usize = SHELTER_RANK2 + 1;
/// A king-shelter file with no pawn of ours in front of the king.
pub const SHELTER_MISSING: usize = SHELTER_RANK3 + 1;
/// A king-shelter file with no pawns at all.
pub const SHELTER_OPEN_FILE: usize = SHELTER_MISSING + 1;
/// King danger by attack units against the king zone (capped at the last entry).
pub const KING_DANGER: usize = SHELTER_OPEN_FILE + 1;
/// The number of king-danger entries (attack units beyond the last share its weight).
pub const KING_DANGER_UNITS: usize = 46;
/// The side to move's initiative.
pub const TEMPO: usize = KING_DANGER + KING_DANGER_UNITS;
/// An enemy piece attacked by our knight or bishop, by its role (pawns only when they are
/// not defended by a pawn; pieces only when weak or defended by a pawn at most).
pub const THREAT_BY_MINOR: usize = TEMPO + 1;
/// A weak enemy piece (not strongly defended) attacked by our rook, by its role.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 6;
/// A weak enemy piece attacked by our king.
pub const THREAT_BY_KING: usize = THREAT_BY_ROOK + 6;
/// A weak enemy piece that is undefended, or a piece attacked twice and defended once.
pub const HANGING: usize = THREAT_BY_KING + 1;
/// An enemy piece a safe pawn push would attack.
pub const THREAT_BY_PAWN_PUSH: usize = HANGING + 1;
/// Pieces of a role (knight to queen use entries 1..=4) that can give a safe check.
pub const SAFE_CHECK: usize = THREAT_BY_PAWN_PUSH + 1;
/// A passed pawn whose stop square is occupied, by relative rank.
pub const PASSED_BLOCKED: usize = SAFE_CHECK + 6;
/// A passed pawn whose stop square is empty and not attacked by the enemy, by relative rank.
pub const PASSED_FREE: usize = PASSED_BLOCKED + 8;
/// A knight (entry 0) or bishop (entry 1) on an outpost: ranks 4 to 6, defended by a pawn,
/// out of reach of enemy pawns.
pub const OUTPOST: usize = PASSED_FREE + 8;
/// Per bishop, each pawn of ours on squares of the bishop's colour.
pub const BISHOP_PAWNS: usize = OUTPOST + 2;
/// A knight or bishop right behind a pawn.
pub const MINOR_BEHIND_PAWN: usize = BISHOP_PAWNS + 1;
/// The number of weights.
pub const WEIGHT_COUNT: usize = MINOR_BEHIND_PAWN + 1;

/// The sections of [`WEIGHTS`], in order.
pub const WEIGHT_SECTIONS: [WeightSection; 34] = {
    const fn section(name: &'static str, start: usize, end: usize, row: usize) -> WeightSection {
        WeightSection { name, start, len: end - start, row }
    }
    [
        section("material", MATERIAL, PSQT, 6),
        section("psqt", PSQT, MOBILITY_KNIGHT, 8),
        section("mobility_knight", MOBILITY_KNIGHT, MOBILITY_BISHOP, 8),
        section("mobility_bishop", MOBILITY_BISHOP, MOBILITY_ROOK, 8),
        section("mobility_rook", MOBILITY_ROOK, MOBILITY_QUEEN, 8),
        section("mobility_queen", MOBILITY_QUEEN, PAWN_DOUBLED, 8),
        section("pawn_doubled", PAWN_DOUBLED, PAWN_ISOLATED, 8),
        section("pawn_isolated", PAWN_ISOLATED, PAWN_BACKWARD, 8),
        section("pawn_backward", PAWN_BACKWARD, PAWN_CONNECTED, 8),
        section("pawn_connected", PAWN_CONNECTED, PASSED, 8),
        section("passed", PASSED, PASSED_THEIR_KING, 8),
        section("passed_their_king", PASSED_THEIR_KING, PASSED_OUR_KING, 8),
        section("passed_our_king", PASSED_OUR_KING, BISHOP_PAIR, 8),
        section("bishop_pair", BISHOP_PAIR, ROOK_OPEN_FILE, 8),
        section("rook_open_file", ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE, 8),
        section("rook_semi_open_file", ROOK_SEMI_OPEN_FILE, THREAT_BY_PAWN, 8),
        section("threat_by_pawn", THREAT_BY_PAWN, SHELTER_RANK2, 6),
        section("shelter_rank2", SHELTER_RANK2, SHELTER_RANK3, 8),
        section("shelter_rank3", SHELTER_RANK3, SHELTER_MISSING, 8),
        section("shelter_missing", SHELTER_MISSING, SHELTER_OPEN_FILE, 8),
        section("shelter_open_file", SHELTER_OPEN_FILE, KING_DANGER, 8),
        section("king_danger", KING_DANGER, TEMPO, 8),
        section("tempo", TEMPO, THREAT_BY_MINOR, 8),
        section("threat_by_minor", THREAT_BY_MINOR, THREAT_BY_ROOK, 6),
        section("threat_by_rook", THREAT_BY_ROOK, THREAT_BY_KING, 6),
        section("threat_by_king", THREAT_BY_KING, HANGING, 8),
        section("hanging", HANGING, THREAT_BY_PAWN_PUSH, 8),
        section("threat_by_pawn_push", THREAT_BY_PAWN_PUSH, SAFE_CHECK, 8),
        section("safe_check", SAFE_CHECK, PASSED_BLOCKED, 6),
        section("passed_blocked", PASSED_BLOCKED, PASSED_FREE, 8),
        section("passed_free", PASSED_FREE, OUTPOST, 8),
        section("outpost", OUTPOST, BISHOP_PAWNS, 8),
        section("bishop_pawns", BISHOP_PAWNS, MINOR_BEHIND_PAWN, 8),
        section("minor_behind_pawn", MINOR_BEHIND_PAWN, WEIGHT_COUNT, 8),
    ]
};

/// Game phase weight of each role (knight and bishop 1, rook 2, queen 4; 24 at the start).
/// Not tuned: it defines the taper rather than a value.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the starting material.
pub const MAX_PHASE: i32 = 24;

// WEIGHTS: the values, rewritten by `tempo-tools tune --write`.
include!("tuned_weights.rs");

/// The table entry of `square` for `color`: White reads the tables mirrored (they list a8
/// first), Black reads its own square.
#[inline]
const fn table_square(color: Color, square: Square) -> usize {
    match color {
        Color::White => square.index() ^ 56,
        Color::Black => square.index(),
    }
}

/// Index in [`WEIGHTS`] of the piece-square weight of a `color` `role` on `square`.
#[inline]
pub const fn psqt_index(color: Color, role: Role, square: Square) -> usize {
    PSQT + role.index() * 64 + table_square(color, square)
}

/// Material plus piece-square value for each role and square (White's view, a8 first),
/// summed once at compile time because the evaluation reads it for every piece.
const PIECE_SQUARE: [[S; 64]; 6] = {
    let mut table = [[S(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let (m, p) = (WEIGHTS[MATERIAL + role], WEIGHTS[PSQT + role * 64 + sq]);
            table[role][sq] = S(m.0 + p.0, m.1 + p.1);
            sq += 1;
        }
        role += 1;
    }
    table
};

/// Material plus piece-square value of a `color` `role` on `square`, from that side's view.
#[inline]
pub fn piece_square(color: Color, role: Role, square: Square) -> S {
    PIECE_SQUARE[role.index()][table_square(color, square)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::Position;

    #[test]
    fn sections_tile_the_vector() {
        let mut next = 0;
        for section in WEIGHT_SECTIONS {
            assert_eq!(section.start, next, "{}", section.name);
            assert!(section.len > 0, "{}", section.name);
            next += section.len;
        }
        assert_eq!(next, WEIGHT_COUNT);
    }

    #[test]
    fn start_position_is_symmetric() {
        let pos = Position::startpos();
        let mut total = S(0, 0);
        for sq in pos.occupied() {
            let piece = pos.piece_at(sq).unwrap();
            let v = piece_square(piece.color, piece.role, sq);
            total = if piece.color == Color::White { total + v } else { total - v };
        }
        assert_eq!(total, S(0, 0));
    }
}
