//! `Bitboard`: a set of squares in one `u64`, bit `n` standing for square `n` (a1 = 0).

use crate::types::{Color, File, Rank, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The light squares.
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The dark squares.
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    /// Ranks 1 and 8, where pawns never stand.
    pub const BACK_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

    /// The set holding only `square`.
    #[inline]
    pub const fn from_square(square: Square) -> Bitboard {
        Bitboard(1 << square.index())
    }

    /// Every square on a file.
    #[inline]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file.index())
    }

    /// Every square on a rank.
    #[inline]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank.index()))
    }

    /// Every square on a rank counted from `color`'s side.
    #[inline]
    pub const fn relative_rank(color: Color, rank: Rank) -> Bitboard {
        Bitboard::rank(rank.relative_to(color))
    }

    /// `true` if no square is set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `true` if at least one square is set.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// `true` if more than one square is set.
    #[inline]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// `true` if `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square.index()) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros()))
        }
    }

    /// The highest square, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(63 - self.0.leading_zeros()))
        }
    }

    /// The only square of a one-square set.
    #[inline]
    pub const fn single_square(self) -> Option<Square> {
        if self.0 != 0 && !self.has_more_than_one() {
            self.first()
        } else {
            None
        }
    }

    /// The lowest square of a set the caller knows is non-empty.
    #[inline]
    pub(crate) fn lsb(self) -> Square {
        debug_assert!(self.any());
        Square::new_unchecked(self.0.trailing_zeros())
    }

    /// The set with `square` added.
    #[inline]
    #[must_use]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | 1 << square.index())
    }

    /// The set with `square` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << square.index()))
    }

    /// Toggles `square`.
    #[inline]
    pub fn toggle(&mut self, square: Square) {
        self.0 ^= 1 << square.index();
    }

    /// The set shifted one rank towards `color`'s opponent (up for White).
    #[inline]
    #[must_use]
    pub const fn shift_forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// The set mirrored top to bottom.
    #[inline]
    #[must_use]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let square = Square::new_unchecked(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(square)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(square: Square) -> Bitboard {
        Bitboard::from_square(square)
    }
}

macro_rules! binop {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl<T: Into<Bitboard>> $trait<T> for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: T) -> Bitboard {
                Bitboard(self.0 $op rhs.into().0)
            }
        }
        impl<T: Into<Bitboard>> $assign_trait<T> for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: T) {
                self.0 = self.0 $op rhs.into().0;
            }
        }
    };
}

binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<T: Into<Bitboard>> Sub<T> for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: T) -> Bitboard {
        Bitboard(self.0 & !rhs.into().0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Eight lines, rank 8 first, `1` for a member square and `.` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = if self.contains(Square::from_coords(file, *rank)) { '1' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_and_count() {
        let bb = Bitboard::from_square(Square::A1) | Square::H8 | Square::E1;
        assert_eq!(bb.count(), 3);
        assert_eq!(bb.collect::<Vec<_>>(), vec![Square::A1, Square::E1, Square::H8]);
        assert_eq!(bb.first(), Some(Square::A1));
        assert_eq!(bb.last(), Some(Square::H8));
        assert!(bb.has_more_than_one());
        assert_eq!(Bitboard::from_square(Square::E1).single_square(), Some(Square::E1));
        assert_eq!(bb.single_square(), None);
        assert_eq!((bb - Square::A1).count(), 2);
    }

    #[test]
    fn colour_masks_partition_the_board() {
        assert_eq!(Bitboard::LIGHT_SQUARES | Bitboard::DARK_SQUARES, Bitboard::FULL);
        assert!((Bitboard::LIGHT_SQUARES & Bitboard::DARK_SQUARES).is_empty());
        for sq in Square::all() {
            assert_eq!(Bitboard::LIGHT_SQUARES.contains(sq), sq.is_light());
        }
    }
}
