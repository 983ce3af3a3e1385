//! Zobrist keys with the Polyglot key set, so that every position key is also the key of
//! the position in a Polyglot opening book (the start position hashes to 0x463b96181691fc9c).

use crate::types::{Color, File, Piece, Square};

include!("polyglot_keys.rs");

/// The key component of `piece` standing on `square`.
#[inline]
pub(crate) fn piece_key(piece: Piece, square: Square) -> u64 {
    // Polyglot orders pieces black pawn, white pawn, black knight, ... white king.
    let kind = 2 * piece.role.index() + usize::from(piece.color == Color::White);
    RANDOM64[64 * kind + square.index()]
}

/// Castling component; `index` is 0 white short, 1 white long, 2 black short, 3 black long.
#[inline]
pub(crate) fn castling_key(index: usize) -> u64 {
    RANDOM64[768 + index]
}

/// En passant component, hashed only when a pawn of the side to move stands beside the
/// pawn that just made a double step (the Polyglot rule).
#[inline]
pub(crate) fn en_passant_key(file: File) -> u64 {
    RANDOM64[772 + file.index()]
}

/// Hashed in when White is to move.
pub(crate) const WHITE_TO_MOVE: u64 = RANDOM64[780];
