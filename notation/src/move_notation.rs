//! [`MoveNotation`]: the notation a program writes moves in when its user may choose, SAN
//! for people or UCI long algebraic for programs (`--notation san|uci`).

use std::fmt;
use std::str::FromStr;
use tempo_core::{Move, Position};

use crate::san::san;
use crate::uci::uci_move;

/// How to write a move: [`san`] (`Nf3`, `O-O`) or [`uci_move`] (`g1f3`, `e1g1`; the king
/// takes its rook in Chess960 mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveNotation {
    /// Standard Algebraic Notation, for people.
    San,
    /// UCI long algebraic notation, for programs and engine logs.
    Uci,
}

/// A notation name that is neither `san` nor `uci`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown move notation {0:?}: use san or uci")]
pub struct ParseMoveNotationError(pub String);

impl MoveNotation {
    /// `m`, a legal move of `pos`, in this notation.
    pub fn write(self, pos: &Position, m: Move) -> String {
        match self {
            MoveNotation::San => san(pos, m),
            MoveNotation::Uci => uci_move(pos, m),
        }
    }
}

impl FromStr for MoveNotation {
    type Err = ParseMoveNotationError;

    /// `san` or `uci`, in any case.
    ///
    /// # Errors
    /// [`ParseMoveNotationError`] for any other text.
    fn from_str(text: &str) -> Result<MoveNotation, ParseMoveNotationError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "san" => Ok(MoveNotation::San),
            "uci" => Ok(MoveNotation::Uci),
            _ => Err(ParseMoveNotationError(text.to_owned())),
        }
    }
}

impl fmt::Display for MoveNotation {
    /// `san` or `uci`: the name [`FromStr`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveNotation::San => "san",
            MoveNotation::Uci => "uci",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::CastlingMode;

    #[test]
    fn names_round_trip_and_others_are_refused() {
        for notation in [MoveNotation::San, MoveNotation::Uci] {
            assert_eq!(notation.to_string().parse(), Ok(notation));
        }
        assert_eq!("SAN".parse(), Ok(MoveNotation::San));
        assert_eq!(" uci ".parse(), Ok(MoveNotation::Uci));
        for bad in ["", "lan", "sa", "uci1", "long"] {
            assert_eq!(bad.parse::<MoveNotation>(), Err(ParseMoveNotationError(bad.to_owned())), "{bad:?}");
        }
        assert_eq!(
            "lan".parse::<MoveNotation>().unwrap_err().to_string(),
            "unknown move notation \"lan\": use san or uci"
        );
    }

    #[test]
    fn writes_a_move_in_either_notation() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
        let castle = pos.legal_moves().iter().copied().find(|&m| san(&pos, m) == "O-O").unwrap();
        assert_eq!(MoveNotation::San.write(&pos, castle), "O-O");
        assert_eq!(MoveNotation::Uci.write(&pos, castle), "e1g1");
    }

    proptest::proptest! {
        /// No text makes the name reader panic.
        #[test]
        fn reading_a_name_never_panics(text in "\\PC{0,12}") {
            let _ = text.parse::<MoveNotation>();
        }
    }
}
