//! Castling rights for standard chess and Chess960.
//!
//! A right is identified by its rook's square, which covers Chess960 (king and rooks on any
//! start files) with the same code as standard chess. Each right is filed as kingside (the
//! rook is on the h-file side of its king) or queenside when the position is validated.

use crate::bitboard::Bitboard;
use crate::types::{Color, File, Square};
use crate::zobrist;

/// How castling is written and which start squares are allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// Standard chess: king on e1/e8, rooks in the corners; FEN `KQkq`; UCI `e1g1`.
    #[default]
    Standard,
    /// Fischer random: king between its rooks on any files; FEN Shredder (`HAha`) or X-FEN;
    /// UCI castling written as the king taking its own rook (`e1h1`).
    Chess960,
}

/// The two directions of castling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// O-O: the king ends on the g-file, the rook on the f-file.
    KingSide,
    /// O-O-O: the king ends on the c-file, the rook on the d-file.
    QueenSide,
}

impl CastlingSide {
    /// Both sides, kingside first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The file the king ends on.
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook ends on.
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }
}

/// The rooks that may still castle, filed by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights {
    king_side: Bitboard,
    queen_side: Bitboard,
}

impl CastlingRights {
    /// No rights at all.
    pub const NONE: CastlingRights = CastlingRights { king_side: Bitboard::EMPTY, queen_side: Bitboard::EMPTY };

    /// Files the rights given as a set of rook squares, keeping those the board backs.
    ///
    /// `kings` are the kings' squares (by [`Color::index`]), `rooks` each colour's rooks.
    /// Returns the rights and the requested squares that were refused: a square that does
    /// not hold a rook of the colour whose back rank it is on, with that colour's king on
    /// the same rank; a second right on one side of a king; or (in `Standard` mode) a king
    /// or rook off e1/e8 and the corners.
    pub(crate) fn from_rooks(
        requested: Bitboard,
        kings: [Square; 2],
        rooks: [Bitboard; 2],
        mode: CastlingMode,
    ) -> (CastlingRights, Bitboard) {
        let mut rights = CastlingRights::NONE;
        let mut refused = Bitboard::EMPTY;
        for rook in requested {
            let color = if rook.rank() == Color::White.back_rank() {
                Color::White
            } else if rook.rank() == Color::Black.back_rank() {
                Color::Black
            } else {
                refused = refused.with(rook);
                continue;
            };
            let king = kings[color.index()];
            let backed = rooks[color.index()].contains(rook)
                && king.rank() == rook.rank()
                && (mode == CastlingMode::Chess960
                    || (king.file() == File::E && matches!(rook.file(), File::A | File::H)));
            let side = if rook.file() > king.file() { &mut rights.king_side } else { &mut rights.queen_side };
            if !backed || (*side & Bitboard::rank(rook.rank())).any() {
                refused = refused.with(rook);
                continue;
            }
            *side = side.with(rook);
        }
        (rights, refused)
    }

    /// Every rook square with a right.
    #[inline]
    pub fn rooks(self) -> Bitboard {
        self.king_side | self.queen_side
    }

    /// `true` if no right is left.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.rooks().is_empty()
    }

    /// The rook of `color` that may castle towards `side`, if any.
    #[inline]
    pub fn rook(self, color: Color, side: CastlingSide) -> Option<Square> {
        let set = match side {
            CastlingSide::KingSide => self.king_side,
            CastlingSide::QueenSide => self.queen_side,
        };
        (set & Bitboard::rank(color.back_rank())).first()
    }

    /// `true` if `color` may still castle towards `side`.
    #[inline]
    pub fn has(self, color: Color, side: CastlingSide) -> bool {
        self.rook(color, side).is_some()
    }

    /// Removes any right tied to `square` (a rook moved or was captured there).
    #[inline]
    pub(crate) fn discard_square(&mut self, square: Square) {
        self.king_side = self.king_side.without(square);
        self.queen_side = self.queen_side.without(square);
    }

    /// Removes both rights of `color` (its king moved).
    #[inline]
    pub(crate) fn discard_color(&mut self, color: Color) {
        let rank = Bitboard::rank(color.back_rank());
        self.king_side = self.king_side - rank;
        self.queen_side = self.queen_side - rank;
    }

    /// The Polyglot key component of these rights.
    pub(crate) fn zobrist(self) -> u64 {
        let mut key = 0;
        for (i, (color, side)) in [
            (Color::White, CastlingSide::KingSide),
            (Color::White, CastlingSide::QueenSide),
            (Color::Black, CastlingSide::KingSide),
            (Color::Black, CastlingSide::QueenSide),
        ]
        .into_iter()
        .enumerate()
        {
            if self.has(color, side) {
                key ^= zobrist::castling_key(i);
            }
        }
        key
    }
}
