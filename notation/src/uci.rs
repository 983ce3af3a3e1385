//! UCI long algebraic notation: `e2e4`, `e7e8q`, `0000`.
//!
//! Castling is written king-to-destination (`e1g1`) in standard mode and king-takes-rook
//! (`e1h1`) in Chess960 mode, as the UCI protocol specifies; parsing accepts both forms in
//! either mode when unambiguous.

use tempo_core::{CastlingMode, Move, Position, Role, Square};

/// A UCI move string that is malformed or not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciMoveError {
    /// The text (carried) is neither `0000` nor two squares followed by an optional lower-case
    /// promotion letter (`n`, `b`, `r`, `q`).
    #[error("malformed uci move {0:?}")]
    Syntax(String),
    /// The move (carried, as UCI text) is well formed but matches no legal move of the position.
    #[error("illegal uci move {0:?}")]
    Illegal(String),
}

/// A move as UCI text knows it: squares and a promotion, read and written without a
/// position (`Display` and `FromStr`). [`UciMove::from_move`] writes castling in the
/// position's castling mode; [`UciMove::to_move`] finds the legal move it names.
///
/// ```
/// use tempo_core::{CastlingMode, Position};
/// use tempo_notation::UciMove;
///
/// let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse()?;
/// let castle = "e1g1".parse::<UciMove>()?.to_move(&pos)?;
/// assert!(castle.is_castle());
/// assert_eq!(UciMove::from_move(castle, CastlingMode::Standard).to_string(), "e1g1");
/// assert_eq!(UciMove::from_move(castle, CastlingMode::Chess960).to_string(), "e1h1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// A move from one square to another, with the piece a pawn promotes to.
    Normal {
        /// The square the piece leaves.
        from: Square,
        /// The square it moves to; for castling, the king's destination (`e1g1`) or its
        /// rook's square (`e1h1`).
        to: Square,
        /// The role a pawn promotes to; `None` for any other move.
        promotion: Option<Role>,
    },
    /// `0000`, the null move.
    Null,
}

impl UciMove {
    /// The UCI form of `m`: castling as king-to-destination (`e1g1`) in `Standard` mode and
    /// king-takes-rook (`e1h1`) in `Chess960` mode, as the protocol specifies.
    pub fn from_move(m: Move, mode: CastlingMode) -> UciMove {
        if m.is_null() {
            return UciMove::Null;
        }
        let to = if m.is_castle() && mode == CastlingMode::Standard { m.castling_king_to() } else { m.to() };
        UciMove::Normal { from: m.from(), to, promotion: m.promotion_role() }
    }

    /// The legal move of `pos` this names ([`Position::find_move`]): castling is recognised
    /// in both forms, whatever the position's mode (a king stepping onto its own rook
    /// castles; where a king step and castling land on the same square, in Chess960, the
    /// text names the step). `0000` gives [`Move::NULL`].
    ///
    /// # Errors
    /// [`UciMoveError::Illegal`] if no legal move of `pos` matches.
    pub fn to_move(self, pos: &Position) -> Result<Move, UciMoveError> {
        let UciMove::Normal { from, to, promotion } = self else { return Ok(Move::NULL) };
        pos.find_move(from, to, promotion).map_err(|_| UciMoveError::Illegal(self.to_string()))
    }
}

impl std::fmt::Display for UciMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UciMove::Null => f.write_str("0000"),
            UciMove::Normal { from, to, promotion } => {
                write!(f, "{from}{to}")?;
                match promotion {
                    Some(role) => write!(f, "{}", role.char()),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::str::FromStr for UciMove {
    type Err = UciMoveError;

    fn from_str(text: &str) -> Result<UciMove, UciMoveError> {
        if text == "0000" {
            return Ok(UciMove::Null);
        }
        let syntax = || UciMoveError::Syntax(text.to_owned());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        let from: Square = text[0..2].parse().map_err(|_| syntax())?;
        let to: Square = text[2..4].parse().map_err(|_| syntax())?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(c) => match Role::from_char(c) {
                Some(role @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) if c.is_ascii_lowercase() => {
                    Some(role)
                }
                _ => return Err(syntax()),
            },
        };
        Ok(UciMove::Normal { from, to, promotion })
    }
}

/// The UCI text of `m` as played in `pos` (in the position's castling mode): shorthand for
/// [`Move::to_uci`] with the position's mode, the same text as [`UciMove::from_move`] and
/// `to_string`.
pub fn uci_move(pos: &Position, m: Move) -> String {
    m.to_uci(pos.castling_mode())
}

/// Parses a UCI move and checks that it is legal in `pos`: shorthand for parsing a
/// [`UciMove`] and [`UciMove::to_move`]. `0000` gives [`Move::NULL`].
///
/// # Errors
/// [`UciMoveError::Syntax`] for text that is not a UCI move, [`UciMoveError::Illegal`] for
/// a well-formed move that is not legal here.
pub fn parse_uci_move(pos: &Position, text: &str) -> Result<Move, UciMoveError> {
    text.parse::<UciMove>()?.to_move(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_both_forms() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
        let m = parse_uci_move(&pos, "e1g1").unwrap();
        assert!(m.is_castle());
        assert_eq!(parse_uci_move(&pos, "e1h1").unwrap(), m);
        assert_eq!(uci_move(&pos, m), "e1g1");
        let pos960 = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", CastlingMode::Chess960).unwrap();
        assert_eq!(uci_move(&pos960, m), "e1h1");
    }

    #[test]
    fn a_chess960_king_step_where_castling_lands_is_the_step() {
        // King b1 and rook a1: castling (b1a1) puts the king on c1, as the step b1c1 does.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/RK6 w A - 0 1", CastlingMode::Chess960).unwrap();
        assert_eq!(parse_uci_move(&pos, "b1c1"), Ok(Move::normal(Square::B1, Square::C1)));
        assert_eq!(parse_uci_move(&pos, "b1a1"), Ok(Move::castle(Square::B1, Square::A1)));
    }

    #[test]
    fn errors() {
        let pos = Position::startpos();
        assert_eq!(parse_uci_move(&pos, "e2e5"), Err(UciMoveError::Illegal("e2e5".into())));
        assert_eq!(parse_uci_move(&pos, "e2"), Err(UciMoveError::Syntax("e2".into())));
        assert_eq!(parse_uci_move(&pos, "e2e4x"), Err(UciMoveError::Syntax("e2e4x".into())));
        assert_eq!(parse_uci_move(&pos, "0000"), Ok(Move::NULL));
        assert!(parse_uci_move(&pos, "é2e4").is_err());
    }

    #[test]
    fn promotions() {
        let pos = Position::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1", CastlingMode::Standard).unwrap();
        let m = parse_uci_move(&pos, "a7a8n").unwrap();
        assert_eq!(m.promotion_role(), Some(Role::Knight));
        assert_eq!(uci_move(&pos, m), "a7a8n");
        assert!(parse_uci_move(&pos, "a7a8").is_err());
        assert!(parse_uci_move(&pos, "a7a8k").is_err());
    }

    #[test]
    fn text_round_trips_without_a_position() {
        for text in ["e2e4", "a7a8q", "h2h1n", "e1h1", "0000"] {
            let m: UciMove = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
        assert_eq!(
            "e7e8r".parse(),
            Ok(UciMove::Normal { from: "e7".parse().unwrap(), to: Square::E8, promotion: Some(Role::Rook) })
        );
        for bad in ["", "e2", "e2e4Q", "e2e4p", "i2e4", "e2e4qq", "0000 ", "e9e4"] {
            assert_eq!(bad.parse::<UciMove>(), Err(UciMoveError::Syntax(bad.to_owned())), "{bad:?}");
        }
    }

    #[test]
    fn every_legal_move_round_trips_in_both_castling_modes() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap();
            for &m in &pos.legal_moves() {
                for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
                    let text = UciMove::from_move(m, mode).to_string();
                    assert_eq!(text, m.to_uci(mode), "{fen}: core and notation write {m:?} alike");
                    assert_eq!(parse_uci_move(&pos, &text), Ok(m), "{fen}: {text}");
                }
            }
        }
    }
}
