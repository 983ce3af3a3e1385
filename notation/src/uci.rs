//! UCI long algebraic notation: `e2e4`, `e7e8q`, `0000`.
//!
//! Castling is written king-to-destination (`e1g1`) in standard mode and king-takes-rook
//! (`e1h1`) in Chess960 mode, as the UCI protocol specifies; parsing accepts both forms in
//! either mode when unambiguous.

use tempo_core::{CastlingMode, Move, Position, Role, Square};

/// A UCI move string that is malformed or not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciMoveError {
    #[error("malformed uci move {0:?}")]
    Syntax(String),
    #[error("illegal uci move {0:?}")]
    Illegal(String),
}

/// The UCI text of `m` as played in `pos`.
pub fn uci_move(pos: &Position, m: Move) -> String {
    if m.is_null() {
        return "0000".to_owned();
    }
    let to = if m.is_castle() && pos.castling_mode() == CastlingMode::Standard { m.castling_king_to() } else { m.to() };
    let mut out = format!("{}{}", m.from(), to);
    if let Some(role) = m.promotion_role() {
        out.push(role.char());
    }
    out
}

/// Parses a UCI move and checks that it is legal in `pos`. `0000` gives [`Move::NULL`].
///
/// # Errors
/// [`UciMoveError::Syntax`] for text that is not a UCI move, [`UciMoveError::Illegal`] for
/// a well-formed move that is not legal here.
pub fn parse_uci_move(pos: &Position, text: &str) -> Result<Move, UciMoveError> {
    if text == "0000" {
        return Ok(Move::NULL);
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
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| {
            m.from() == from
                && m.promotion_role() == promotion
                && (m.to() == to
                    || (m.is_castle() && m.castling_king_to() == to && pos.role_at(to) != Some(Role::Rook)))
        })
        .ok_or_else(|| UciMoveError::Illegal(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_both_forms() {
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let m = parse_uci_move(&pos, "e1g1").unwrap();
        assert!(m.is_castle());
        assert_eq!(parse_uci_move(&pos, "e1h1").unwrap(), m);
        assert_eq!(uci_move(&pos, m), "e1g1");
        let pos960 = Position::from_fen_960("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").unwrap();
        assert_eq!(uci_move(&pos960, m), "e1h1");
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
        let pos = Position::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let m = parse_uci_move(&pos, "a7a8n").unwrap();
        assert_eq!(m.promotion_role(), Some(Role::Knight));
        assert_eq!(uci_move(&pos, m), "a7a8n");
        assert!(parse_uci_move(&pos, "a7a8").is_err());
        assert!(parse_uci_move(&pos, "a7a8k").is_err());
    }
}
