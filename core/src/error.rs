//! Typed errors of the rules core. Messages are lower-case and name the offending input.

use crate::moves::Move;
use crate::types::{Color, Square};

/// Why a set of parts is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{0} has no king")]
    MissingKing(Color),
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    #[error("{0} has more than 16 pieces")]
    TooManyPieces(Color),
    #[error("{0} has more than 8 pawns")]
    TooManyPawns(Color),
    #[error("pawn on the first or last rank ({0})")]
    PawnOnBackRank(Square),
    #[error("the side not to move is in check")]
    OpponentInCheck,
    #[error("more than two pieces give check")]
    TooManyCheckers,
    #[error("no last move can have given this check")]
    ImpossibleCheck,
    #[error("castling right for {0} is not backed by king and rook on their start squares")]
    InvalidCastling(Square),
    #[error("en passant square {0} cannot follow a double pawn step")]
    InvalidEnPassant(Square),
    #[error("fullmove number must be at least 1")]
    FullmoveNumberZero,
}

/// Which field of a FEN is wrong, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("fen must have 6 space-separated fields, found {found} in {fen:?}")]
    FieldCount { found: usize, fen: String },
    #[error("piece placement {placement:?}: {reason}")]
    Placement { placement: String, reason: String },
    #[error("side to move must be 'w' or 'b', found {0:?}")]
    Turn(String),
    #[error("castling field {0:?} is malformed")]
    Castling(String),
    #[error(
        "en passant field {0:?} must be '-' or a square on rank 6 with white to move, on rank 3 with black to move"
    )]
    EnPassant(String),
    #[error("halfmove clock {0:?} must be an integer from 0 to 4294967295")]
    HalfmoveClock(String),
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

/// A move that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("illegal move {mv:?} in {fen}")]
    Illegal { mv: Move, fen: String },
}
