//! `Move`: a compact 16-bit move, and `MoveList`, a fixed-capacity list of moves.

use crate::castling::CastlingMode;
use crate::types::{Role, Square};
use std::fmt;
use std::mem::MaybeUninit;

/// What kind of move a [`Move`] is, beyond its from and to squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A quiet move or an ordinary capture (the board says which).
    Normal,
    /// A pawn capturing en passant; `to` is the empty square it moves to.
    EnPassant,
    /// Castling, encoded as the king moving onto its own castling rook (`to` is the rook's
    /// square), which covers standard chess and Chess960 alike.
    Castle,
    /// A pawn reaching the last rank and becoming this role.
    Promotion(Role),
}

/// A move in 16 bits: from (6), to (6), kind (4).
///
/// Castling is "king takes own rook" (see [`MoveKind::Castle`]); use [`Move::castling_king_to`]
/// and [`Move::castling_rook_to`] for the squares the pieces end on. `Move::NULL` (`0000` in
/// UCI) is the null move: it is never legal, but search and PGN use it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_EN_PASSANT: u16 = 1;
const KIND_CASTLE: u16 = 2;
const KIND_PROMOTION: u16 = 3; // 3..=6: knight, bishop, rook, queen

impl Move {
    /// The null move (a1a1).
    pub const NULL: Move = Move(0);

    #[inline]
    const fn pack(from: Square, to: Square, kind: u16) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind << 12)
    }

    /// A normal move or capture.
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_NORMAL)
    }

    /// An en passant capture landing on `to`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_EN_PASSANT)
    }

    /// Castling: the king on `king` with the rook on `rook`.
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, KIND_CASTLE)
    }

    /// A promotion to `role`.
    ///
    /// # Panics
    /// In debug builds, if `role` is a pawn or king.
    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        debug_assert!(!matches!(role, Role::Pawn | Role::King));
        Move::pack(from, to, KIND_PROMOTION + role as u16 - 1)
    }

    /// The square the moving piece starts on.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new_unchecked((self.0 & 63) as u32)
    }

    /// The target square (the castling rook's square for castling).
    #[inline]
    pub const fn to(self) -> Square {
        Square::new_unchecked(((self.0 >> 6) & 63) as u32)
    }

    /// The kind of move.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_NORMAL => MoveKind::Normal,
            KIND_EN_PASSANT => MoveKind::EnPassant,
            KIND_CASTLE => MoveKind::Castle,
            k => MoveKind::Promotion(Role::from_index((k - KIND_PROMOTION + 1) as usize)),
        }
    }

    /// The promotion role, if this is a promotion.
    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(role) => Some(role),
            _ => None,
        }
    }

    /// `true` for castling.
    #[inline]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == KIND_CASTLE
    }

    /// `true` for an en passant capture.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == KIND_EN_PASSANT
    }

    /// `true` for a promotion.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 >> 12 >= KIND_PROMOTION
    }

    /// `true` for the null move.
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// `true` if castling is towards the h-file (O-O), for a castling move.
    #[inline]
    pub const fn is_kingside_castle(self) -> bool {
        self.to().index() > self.from().index()
    }

    /// For castling, the square the king ends on (g- or c-file); otherwise `to()`.
    #[inline]
    pub const fn castling_king_to(self) -> Square {
        if !self.is_castle() {
            return self.to();
        }
        let file = if self.is_kingside_castle() { 6 } else { 2 };
        Square::new_unchecked((self.from().index() & !7) as u32 + file)
    }

    /// For castling, the square the rook ends on (f- or d-file).
    #[inline]
    pub const fn castling_rook_to(self) -> Square {
        let file = if self.is_kingside_castle() { 5 } else { 3 };
        Square::new_unchecked((self.from().index() & !7) as u32 + file)
    }

    /// The raw 16-bit encoding (stable: used by transposition tables and books).
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`Move::to_u16`]; `None` if the kind bits are out of range.
    #[inline]
    pub const fn from_u16(raw: u16) -> Option<Move> {
        if raw >> 12 <= KIND_PROMOTION + 3 {
            Some(Move(raw))
        } else {
            None
        }
    }
}

impl Move {
    /// The move in UCI long algebraic notation for `mode`: castling as the king's move to
    /// its destination (`e1g1`) in [`CastlingMode::Standard`] and as king takes own rook
    /// (`e1h1`) in [`CastlingMode::Chess960`], as the UCI protocol specifies; `0000` for the
    /// null move. Pass the position's [`castling_mode`](crate::Position::castling_mode) to
    /// write a move as the position it was played in expects. `Display` is the standard form.
    ///
    /// ```
    /// use tempo_core::{CastlingMode, Move, Square};
    ///
    /// let castle = Move::castle(Square::E1, Square::H1);
    /// assert_eq!(castle.to_string(), "e1g1");
    /// assert_eq!(castle.to_uci(CastlingMode::Chess960), "e1h1");
    /// ```
    pub fn to_uci(self, mode: CastlingMode) -> String {
        let mut text = String::with_capacity(5);
        // Writing to a String cannot fail.
        let _ = self.write_uci(&mut text, mode);
        text
    }

    fn write_uci(self, out: &mut impl fmt::Write, mode: CastlingMode) -> fmt::Result {
        if self.is_null() {
            return out.write_str("0000");
        }
        let to = if self.is_castle() && mode == CastlingMode::Standard { self.castling_king_to() } else { self.to() };
        write!(out, "{}{}", self.from(), to)?;
        if let Some(role) = self.promotion_role() {
            out.write_char(role.char())?;
        }
        Ok(())
    }
}

impl fmt::Display for Move {
    /// UCI long algebraic notation, castling in standard chess's form (`e2e4`, `e7e8q`,
    /// `e1g1`); [`Move::to_uci`] writes Chess960's king-takes-rook form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_uci(f, CastlingMode::Standard)
    }
}

impl fmt::Debug for Move {
    /// The encoding, with what a special move is: `e2e4`, `e7e8q`, `e5d6 (en passant)`,
    /// `e1h1 (castling: king to g1, rook to f1)`, `0000`. Castling shows the king-takes-rook
    /// encoding, which is what `Move::castle` and the legal move list hold.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_uci(f, CastlingMode::Chess960)?;
        match self.kind() {
            MoveKind::EnPassant => f.write_str(" (en passant)"),
            MoveKind::Castle => {
                write!(f, " (castling: king to {}, rook to {})", self.castling_king_to(), self.castling_rook_to())
            }
            MoveKind::Normal | MoveKind::Promotion(_) => Ok(()),
        }
    }
}

/// Capacity of a [`MoveList`]; no legal position has more than 218 moves.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves, stored inline (no heap allocation).
///
/// It derefs to a slice of moves (`len`, indexing, `iter`, sorting), and a `for` loop takes
/// the moves either by value from the list itself or by reference from `&list`:
///
/// ```
/// use tempo_core::{Move, Position, Square};
///
/// let pos = Position::startpos();
/// let mut knight_moves = Vec::new();
/// for m in pos.legal_moves() {
///     if m.from() == Square::G1 {
///         knight_moves.push(m);
///     }
/// }
/// assert_eq!(knight_moves, [Move::normal(Square::G1, Square::F3), Move::normal(Square::G1, Square::H3)]);
/// let moves = pos.legal_moves();
/// assert_eq!((&moves).into_iter().count(), 20);
/// assert_eq!(moves.into_iter().rev().len(), 20);
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList { moves: [MaybeUninit::uninit(); MAX_MOVES], len: 0 }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list is full (more than [`MAX_MOVES`] moves: impossible for legal positions).
    #[inline]
    pub fn push(&mut self, m: Move) {
        assert!(self.len < MAX_MOVES, "move list overflow");
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` if there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut write = 0;
        for read in 0..self.len {
            let m = self[read];
            if keep(m) {
                self.moves[write] = MaybeUninit::new(m);
                write += 1;
            }
        }
        self.len = write;
    }

    /// `true` if `m` is in the list.
    #[inline]
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` elements are initialised.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: the first `len` elements are initialised.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    fn into_iter(self) -> MoveListIntoIter {
        let back = self.len;
        MoveListIntoIter { list: self, front: 0, back }
    }
}

/// The moves of a [`MoveList`] by value, in order: what `for m in pos.legal_moves()` walks.
#[derive(Clone, Debug)]
pub struct MoveListIntoIter {
    list: MoveList,
    /// The next move from the front; `front..back` are the moves not yet taken.
    front: usize,
    back: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.list[self.front - 1]
        })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.back - self.front;
        (left, Some(left))
    }
}

impl DoubleEndedIterator for MoveListIntoIter {
    #[inline]
    fn next_back(&mut self) -> Option<Move> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.list[self.back]
        })
    }
}

impl ExactSizeIterator for MoveListIntoIter {}

impl std::iter::FusedIterator for MoveListIntoIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_list_iterates_by_value_from_both_ends() {
        let mut list = MoveList::new();
        let moves =
            [Move::normal(sq("e2"), sq("e4")), Move::normal(sq("d2"), sq("d4")), Move::normal(sq("c2"), sq("c4"))];
        for m in moves {
            list.push(m);
        }
        let mut it = list.clone().into_iter();
        assert_eq!(it.len(), 3);
        assert_eq!((it.next(), it.next_back()), (Some(moves[0]), Some(moves[2])));
        assert_eq!(it.len(), 1);
        assert_eq!((it.next(), it.next(), it.next_back()), (Some(moves[1]), None, None));
        assert_eq!(list.into_iter().collect::<Vec<_>>(), moves);
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn encoding_round_trips() {
        let m = Move::promotion(sq("e7"), sq("d8"), Role::Knight);
        assert_eq!(m.from(), sq("e7"));
        assert_eq!(m.to(), sq("d8"));
        assert_eq!(m.kind(), MoveKind::Promotion(Role::Knight));
        assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        for role in Role::PROMOTIONS {
            assert_eq!(Move::promotion(sq("a7"), sq("a8"), role).promotion_role(), Some(role));
        }
        assert_eq!(Move::from_u16(0xf000), None);
    }

    #[test]
    fn castling_destinations() {
        let short = Move::castle(sq("e1"), sq("h1"));
        assert_eq!(short.castling_king_to(), sq("g1"));
        assert_eq!(short.castling_rook_to(), sq("f1"));
        let long = Move::castle(sq("b8"), sq("a8"));
        assert_eq!(long.castling_king_to(), sq("c8"));
        assert_eq!(long.castling_rook_to(), sq("d8"));
    }

    #[test]
    fn display_is_uci_with_standard_castling_and_debug_names_special_moves() {
        let castle = Move::castle(sq("e1"), sq("h1"));
        assert_eq!(castle.to_string(), "e1g1");
        assert_eq!(castle.to_uci(CastlingMode::Chess960), "e1h1");
        assert_eq!(format!("{castle:?}"), "e1h1 (castling: king to g1, rook to f1)");
        let long = Move::castle(sq("b8"), sq("a8"));
        assert_eq!(long.to_string(), "b8c8");
        assert_eq!(long.to_uci(CastlingMode::Chess960), "b8a8");
        let ep = Move::en_passant(sq("e5"), sq("d6"));
        assert_eq!(ep.to_string(), "e5d6");
        assert_eq!(format!("{ep:?}"), "e5d6 (en passant)");
        let promotion = Move::promotion(sq("e7"), sq("e8"), Role::Queen);
        assert_eq!(promotion.to_string(), "e7e8q");
        assert_eq!(format!("{promotion:?}"), "e7e8q");
        assert_eq!(Move::normal(sq("g1"), sq("f3")).to_uci(CastlingMode::Chess960), "g1f3");
        assert_eq!(Move::NULL.to_string(), "0000");
        assert_eq!(format!("{:?}", Move::NULL), "0000");
    }

    #[test]
    fn list_retain() {
        let mut list = MoveList::new();
        for to in ["a3", "a4", "b3"] {
            list.push(Move::normal(sq("a2"), sq(to)));
        }
        list.retain(|m| m.to().file() == crate::File::A);
        assert_eq!(list.len(), 2);
    }
}
