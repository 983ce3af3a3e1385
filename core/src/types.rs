//! The vocabulary of the board: colours, piece kinds, pieces, files, ranks and squares.

use std::fmt;
use std::ops::Not;

/// A side: White or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The side that moves first (index 0, FEN `w`).
    White = 0,
    /// The side that moves second (index 1, FEN `b`).
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// `0` for White, `1` for Black: the index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Picks `white` or `black` by colour.
    #[inline]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// The rank on which this side's pieces start (1 for White, 8 for Black).
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }

    /// The FEN letter: `w` or `b`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Parses `w` or `b`.
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.fold("white", "black"))
    }
}

/// A kind of piece, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// Pushes forward, captures diagonally and promotes on the last rank (index 0, `P`/`p`).
    Pawn = 0,
    /// Jumps two squares one way and one square the other (index 1, `N`/`n`).
    Knight = 1,
    /// Slides along diagonals (index 2, `B`/`b`).
    Bishop = 2,
    /// Slides along ranks and files, and castles with the king (index 3, `R`/`r`).
    Rook = 3,
    /// Slides along ranks, files and diagonals (index 4, `Q`/`q`).
    Queen = 4,
    /// Steps to any neighbouring square and must not be left in check (index 5, `K`/`k`).
    King = 5,
}

impl Role {
    /// Every role, pawn to king.
    pub const ALL: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// `0` for pawn up to `5` for king.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role with this index (`0..6`).
    ///
    /// # Panics
    /// If `index >= 6`.
    #[inline]
    pub const fn from_index(index: usize) -> Role {
        Role::ALL[index]
    }

    /// The lower-case letter used by FEN for Black and by UCI for promotions.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The upper-case letter used by SAN and by FEN for White.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Parses a piece letter in either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        })
    }
}

/// A piece: a role of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The side the piece belongs to.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// Creates a piece.
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Parses a FEN piece letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece::new(if c.is_ascii_uppercase() { Color::White } else { Color::Black }, role)),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A file (column), `a` to `h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    /// `a` (index 0): the queen-side edge, where the queen's rooks start in standard chess.
    A = 0,
    /// `b` (index 1), where the queen's knights start in standard chess.
    B,
    /// `c` (index 2), where the queen's bishops start in standard chess and the king lands
    /// when castling queen side.
    C,
    /// `d` (index 3), where the queens start in standard chess and the rook lands when castling
    /// queen side.
    D,
    /// `e` (index 4), where the kings start in standard chess.
    E,
    /// `f` (index 5), where the king's bishops start in standard chess and the rook lands when
    /// castling king side.
    F,
    /// `g` (index 6), where the king's knights start in standard chess and the king lands when
    /// castling king side.
    G,
    /// `h` (index 7): the king-side edge, where the king's rooks start in standard chess.
    H,
}

impl File {
    /// Every file, `a` to `h`.
    pub const ALL: [File; 8] = [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    /// `0` for `a` up to `7` for `h`.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file with this index, if `index < 8`.
    #[inline]
    pub const fn new(index: u32) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// Lower-case letter.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parses `a`..`h`.
    pub const fn from_char(c: char) -> Option<File> {
        if c >= 'a' && c <= 'h' {
            File::new(c as u32 - 'a' as u32)
        } else {
            None
        }
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A rank (row), `1` to `8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    /// `1` (index 0): White's back rank, where White's pieces start and Black's pawns promote.
    First = 0,
    /// `2` (index 1), where White's pawns start.
    Second,
    /// `3` (index 2), the en passant square's rank after a White pawn's double step.
    Third,
    /// `4` (index 3), where a White pawn lands after a double step.
    Fourth,
    /// `5` (index 4), where a Black pawn lands after a double step.
    Fifth,
    /// `6` (index 5), the en passant square's rank after a Black pawn's double step.
    Sixth,
    /// `7` (index 6), where Black's pawns start.
    Seventh,
    /// `8` (index 7): Black's back rank, where Black's pieces start and White's pawns promote.
    Eighth,
}

impl Rank {
    /// Every rank, first to eighth.
    pub const ALL: [Rank; 8] =
        [Rank::First, Rank::Second, Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth, Rank::Seventh, Rank::Eighth];

    /// `0` for rank 1 up to `7` for rank 8.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank with this index, if `index < 8`.
    #[inline]
    pub const fn new(index: u32) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// The same rank seen from Black's side when `color` is Black.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::ALL[7 - self as usize],
        }
    }

    /// The digit `1`..`8`.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parses `1`..`8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        if c >= '1' && c <= '8' {
            Rank::new(c as u32 - '1' as u32)
        } else {
            None
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A square of the board, `a1` = 0 up to `h8` = 63 (little-endian rank-file mapping), with
/// a constant for each: `Square::E2`. `Debug` and `Display` both write its name (`e2`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Declares the 64 square constants, `A1` = 0 up to `H8` = 63, from one table of names.
macro_rules! square_constants {
    ($($rank:literal: $($name:ident)*;)*) => {
        impl Square {
            $(square_constants!(@rank $rank, 0, $($name)*);)*
        }
    };
    (@rank $rank:literal, $file:expr, $name:ident $($rest:ident)*) => {
        #[doc = concat!("The square ", stringify!($name), ".")]
        pub const $name: Square = Square($rank * 8 + $file);
        square_constants!(@rank $rank, $file + 1, $($rest)*);
    };
    (@rank $rank:literal, $file:expr,) => {};
}

square_constants! {
    0: A1 B1 C1 D1 E1 F1 G1 H1;
    1: A2 B2 C2 D2 E2 F2 G2 H2;
    2: A3 B3 C3 D3 E3 F3 G3 H3;
    3: A4 B4 C4 D4 E4 F4 G4 H4;
    4: A5 B5 C5 D5 E5 F5 G5 H5;
    5: A6 B6 C6 D6 E6 F6 G6 H6;
    6: A7 B7 C7 D7 E7 F7 G7 H7;
    7: A8 B8 C8 D8 E8 F8 G8 H8;
}

impl Square {
    /// The square with this index, if `index < 64`.
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with this index, which the caller guarantees is below 64.
    #[inline]
    pub(crate) const fn new_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index as u8)
    }

    /// The square at a file and rank.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    /// `0..64`.
    #[inline]
    pub const fn index(self) -> usize {
        // The mask changes nothing (a square is below 64) but tells the compiler so: the
        // bounds checks of every 64-entry table lookup disappear from move generation.
        (self.0 & 63) as usize
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        File::ALL[(self.0 & 7) as usize]
    }

    /// The square's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 >> 3) as usize]
    }

    /// The square mirrored top to bottom (a1 <-> a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square seen from `color`'s side (mirrored for Black).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The square `delta` indices away, if on the board (no wrap-around check on files).
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let index = self.0 as i32 + delta;
        if index >= 0 && index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// `true` for light squares (h1 is light).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.0 / 8 + self.0 % 8) % 2 == 1
    }

    /// Every square, a1 to h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(|i| Square(i as u8))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    /// The name, as `Display` writes it: an index would make every assertion about squares
    /// a puzzle.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error for a string that is not a square name like `e4`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square: {0:?}")]
pub struct ParseSquareError(pub String);

impl std::str::FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next().and_then(File::from_char), chars.next().and_then(Rank::from_char), chars.next()) {
            (Some(file), Some(rank), None) => Ok(Square::from_coords(file, rank)),
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }

    #[test]
    fn square_constants_name_their_squares() {
        #[rustfmt::skip]
        let constants = [
            Square::A1, Square::B1, Square::C1, Square::D1, Square::E1, Square::F1, Square::G1, Square::H1,
            Square::A2, Square::B2, Square::C2, Square::D2, Square::E2, Square::F2, Square::G2, Square::H2,
            Square::A3, Square::B3, Square::C3, Square::D3, Square::E3, Square::F3, Square::G3, Square::H3,
            Square::A4, Square::B4, Square::C4, Square::D4, Square::E4, Square::F4, Square::G4, Square::H4,
            Square::A5, Square::B5, Square::C5, Square::D5, Square::E5, Square::F5, Square::G5, Square::H5,
            Square::A6, Square::B6, Square::C6, Square::D6, Square::E6, Square::F6, Square::G6, Square::H6,
            Square::A7, Square::B7, Square::C7, Square::D7, Square::E7, Square::F7, Square::G7, Square::H7,
            Square::A8, Square::B8, Square::C8, Square::D8, Square::E8, Square::F8, Square::G8, Square::H8,
        ];
        assert_eq!(constants.to_vec(), Square::all().collect::<Vec<_>>());
        assert_eq!(Square::E2.to_string(), "e2");
        assert_eq!(format!("{:?}", Square::E2), "e2");
    }

    #[test]
    fn square_colours() {
        assert!(!Square::A1.is_light());
        assert!(Square::H1.is_light());
        assert!(Square::A8.is_light());
        assert!(!Square::H8.is_light());
    }

    #[test]
    fn piece_letters() {
        assert_eq!(Piece::from_char('N'), Some(Piece::new(Color::White, Role::Knight)));
        assert_eq!(Piece::from_char('q'), Some(Piece::new(Color::Black, Role::Queen)));
        assert_eq!(Piece::from_char('x'), None);
        for role in Role::ALL {
            for color in Color::ALL {
                let p = Piece::new(color, role);
                assert_eq!(Piece::from_char(p.char()), Some(p));
            }
        }
    }
}
