//! Typed errors of the rules core. Messages are lower-case and name the offending input.

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// One way in which a [`Setup`](crate::Setup) breaks the rules.
///
/// Some defects are fixable ([`Defect::is_fixable`]): dropping what cannot stand (a castling
/// right without its king and rook, an en passant square no double step can have produced)
/// or accepting a check no last move can have given (the position still plays) leaves a
/// legal position, which the [`PositionError`] carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Defect {
    /// The given side has no king on the board.
    #[error("{0} has no king")]
    MissingKing(Color),
    /// The given side has two kings or more.
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    /// The given side has more than the 16 pieces it starts with.
    #[error("{0} has more than 16 pieces")]
    TooManyPieces(Color),
    /// The given side has more than the 8 pawns it starts with.
    #[error("{0} has more than 8 pawns")]
    TooManyPawns(Color),
    /// A pawn of either side stands on the given square of rank 1 or 8, where no pawn can be
    /// (one defect per such pawn).
    #[error("pawn on the first or last rank ({0})")]
    PawnOnBackRank(Square),
    /// The side not to move is in check: the side to move could capture its king.
    #[error("the side not to move is in check")]
    OpponentInCheck,
    /// The side to move is in check from three pieces or more, which no move can give.
    #[error("more than two pieces give check")]
    TooManyCheckers,
    /// The fullmove number is 0; it counts moves from 1.
    #[error("fullmove number must be at least 1")]
    FullmoveNumberZero,
    /// Fixable: the repaired position has no such right.
    #[error("castling right for {0} is not backed by king and rook on their start squares")]
    InvalidCastling(Square),
    /// Fixable: the repaired position has no en passant square.
    #[error("en passant square {0} cannot follow a double pawn step")]
    InvalidEnPassant(Square),
    /// Fixable: the repaired position is the same position, which plays by the rules
    /// (python-chess's `STATUS_IMPOSSIBLE_CHECK`; perft suites use such positions).
    #[error("no last move can have given this check")]
    ImpossibleCheck,
}

impl Defect {
    /// `true` if a legal position remains once this defect is dropped or accepted.
    pub fn is_fixable(self) -> bool {
        matches!(self, Defect::InvalidCastling(_) | Defect::InvalidEnPassant(_) | Defect::ImpossibleCheck)
    }
}

/// Why a [`Setup`](crate::Setup) is not a legal position: every [`Defect`] found, and, when
/// all of them are fixable, the best legal position (the setup without the castling rights
/// and en passant square it cannot back).
///
/// Strict readers report the error; lenient ones (PGN files from other programs, playing
/// perft suites that contain impossible checks) take the repaired position:
///
/// ```
/// use tempo_core::{CastlingMode, Color, Defect, Piece, Position, Role, Setup, Square};
///
/// // White may castle with a rook that is not there.
/// let mut setup = Setup::empty();
/// setup.board[Square::E1.index()] = Some(Piece::new(Color::White, Role::King));
/// setup.board[Square::E8.index()] = Some(Piece::new(Color::Black, Role::King));
/// setup.castling_rooks = Square::H1.into();
/// let error = Position::from_setup(setup, CastlingMode::Standard).unwrap_err();
/// assert_eq!(error.defects(), [Defect::InvalidCastling(Square::H1)]);
/// let repaired = error.into_repaired()?;
/// assert!(repaired.castling_rights().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    defects: Vec<Defect>,
    repaired: Option<Box<Position>>,
}

impl PositionError {
    pub(crate) fn fatal(defects: Vec<Defect>) -> PositionError {
        debug_assert!(!defects.is_empty());
        PositionError { defects, repaired: None }
    }

    pub(crate) fn fixable(defects: Vec<Defect>, repaired: Position) -> PositionError {
        debug_assert!(!defects.is_empty() && defects.iter().all(|d| d.is_fixable()));
        PositionError { defects, repaired: Some(Box::new(repaired)) }
    }

    /// Every defect found, in the order of the rules checked. Never empty.
    pub fn defects(&self) -> &[Defect] {
        &self.defects
    }

    /// The best legal position, if every defect is fixable: castling rights and an en
    /// passant square the setup cannot back are dropped, an impossible check is accepted.
    pub fn repaired(&self) -> Option<&Position> {
        self.repaired.as_deref()
    }

    /// The best legal position (see [`PositionError::repaired`]).
    ///
    /// # Errors
    /// `self`, if a defect cannot be fixed (no king, a pawn on the back rank, ...).
    pub fn into_repaired(self) -> Result<Position, PositionError> {
        match self.repaired {
            Some(pos) => Ok(*pos),
            None => Err(self),
        }
    }

    /// The position, if its only defect is a check no last move can have given: such a
    /// position plays by the rules, so move generation, perft and play accept it, while
    /// strict validators such as `fen check` do not.
    ///
    /// # Errors
    /// `self`, if it has any other defect.
    pub fn ignore_impossible_check(self) -> Result<Position, PositionError> {
        if self.defects == [Defect::ImpossibleCheck] {
            self.into_repaired()
        } else {
            Err(self)
        }
    }
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, defect) in self.defects.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{defect}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionError {}

/// Which field of a FEN is wrong, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The FEN does not have the fields it needs: six for the strict reader
    /// ([`Setup::from_fen_strict`](crate::Setup::from_fen_strict)); six, or four without the
    /// move counters, for the lenient one ([`Setup::from_fen`](crate::Setup::from_fen)).
    #[error(
        "fen must have 6 space-separated fields{}, found {found} in {fen:?}",
        if *.strict { "" } else { " (or 4, without the move counters)" }
    )]
    FieldCount {
        /// How many fields there were.
        found: usize,
        /// The FEN as given.
        fen: String,
        /// Whether the strict reader, which takes six fields only, refused it.
        strict: bool,
    },
    /// Strict reading only: the fields are not separated by single spaces, or whitespace
    /// comes before or after them (a trailing newline, say), which the lenient reader
    /// ([`Setup::from_fen`](crate::Setup::from_fen)) takes.
    #[error("fen fields must be separated by single spaces, with nothing before or after, in {0:?}")]
    Spacing(String),
    /// The piece placement field (the first) is malformed: it does not describe eight ranks of
    /// eight squares each, or holds a character that is neither a piece letter nor a digit from
    /// 1 to 8, or two digits in a row.
    #[error("piece placement {placement:?}: {reason}")]
    Placement {
        /// The piece placement field as given.
        placement: String,
        /// What is wrong, naming the rank (`rank 3 describes 7 squares, not 8`).
        reason: String,
    },
    /// The side-to-move field (the second, carried) is neither `w` nor `b`.
    #[error("side to move must be 'w' or 'b', found {0:?}")]
    Turn(String),
    /// The castling field (the third, carried) is malformed: empty, or in `Standard` mode
    /// neither `-` nor a subsequence of `KQkq`; in `Chess960` mode a letter other than
    /// `K`, `Q`, `k`, `q` and the file letters, or two letters for one rook.
    #[error("castling field {0:?} is malformed")]
    Castling(String),
    /// The en passant field (the fourth, carried) is neither `-` nor a square on the rank that
    /// a double pawn step of the side not to move passes over (rank 6 with White to move,
    /// rank 3 with Black to move).
    #[error(
        "en passant field {0:?} must be '-' or a square on rank 6 with white to move, on rank 3 with black to move"
    )]
    EnPassant(String),
    /// The halfmove clock field (the fifth, carried) is not a decimal integer that fits in a
    /// `u32`.
    #[error("halfmove clock {0:?} must be an integer from 0 to 4294967295")]
    HalfmoveClock(String),
    /// The fullmove number field (the sixth, carried) is not a decimal integer from 1 to
    /// `u32::MAX`.
    #[error("fullmove number {0:?} must be an integer from 1 to 4294967295")]
    FullmoveNumber(String),
    /// The fields are well formed but the position is illegal. Not a `#[source]`: the
    /// message already contains the cause, and error reporters would print it twice.
    #[error("illegal position: {0}")]
    Position(PositionError),
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// A move that cannot be played, or squares that name no legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The move is not legal in the position it was played in, which is left unchanged.
    #[error("illegal move {mv:?} in {fen}{}", LegalHint(*.mv, *.legal))]
    Illegal {
        /// The refused move.
        mv: Move,
        /// The FEN of the position that refused it.
        fen: String,
        /// The legal move its squares name, when the refused move is castling or en
        /// passant written as another kind of move (`Move::normal(e1, g1)` for castling,
        /// which is king takes rook: `Move::castle(e1, h1)`): what
        /// [`Position::find_move`](crate::Position::find_move) gives for its squares.
        legal: Option<Move>,
    },
    /// No legal move of the position goes from `from` to `to` with this promotion (the
    /// answer of [`Position::find_move`](crate::Position::find_move)).
    #[error("no legal move from {from} to {to}{} in {fen}", PromotionWords(*.promotion))]
    NoSuchMove {
        /// The square the move was to start on.
        from: Square,
        /// The square it was to reach.
        to: Square,
        /// The piece a pawn was to promote to.
        promotion: Option<Role>,
        /// The FEN of the position searched.
        fen: String,
    },
}

/// The end of an illegal-move message: the legal move its squares name, if any.
struct LegalHint(Move, Option<Move>);

impl std::fmt::Display for LegalHint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.1 {
            Some(legal) => write!(
                f,
                "; the legal move from {} to {} is {legal:?}, which Position::find_move gives for these squares",
                self.0.from(),
                self.0.to()
            ),
            None => Ok(()),
        }
    }
}

/// The promotion of a move that was not found, in words.
struct PromotionWords(Option<Role>);

impl std::fmt::Display for PromotionWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(role) => write!(f, " promoting to a {role}"),
            None => Ok(()),
        }
    }
}
