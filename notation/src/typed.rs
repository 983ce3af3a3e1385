//! A move as people type it, in either notation: SAN read leniently (piece letters in either
//! case), UCI coordinates (`e2e4`, `e7e8q`, castling as `e1g1` or king takes rook), and why
//! it cannot be played. `tempo`'s move prompt and `tempo-tools game --moves` read moves so.

use crate::san::{parse_san, SanError, SanMove};
use crate::uci::{parse_uci_move, UciMove};
use tempo_core::{Move, Position, Refusal};

/// Reads a move typed in SAN or UCI coordinates and finds it among the legal moves of `pos`.
/// Coordinates are taken in either case (`E2E4`), and a lower-case piece letter as the piece
/// when the pawn reading fails (`nf3`, `bc4`).
///
/// ```
/// use tempo_core::Position;
/// use tempo_notation::{parse_move, san};
///
/// let start = Position::startpos();
/// for typed in ["Nf3", "nf3", "g1f3", "G1F3", "Ng1-f3"] {
///     assert_eq!(san(&start, parse_move(&start, typed)?), "Nf3");
/// }
/// # Ok::<(), tempo_notation::SanError>(())
/// ```
///
/// # Errors
/// The [`SanError`] of the SAN reading, which tells a text that is no move from a move that
/// no piece can make, an ambiguous one and an illegal one; [`refusal`] says why an illegal
/// move cannot be played.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, SanError> {
    let san_error = match parse_san(pos, text) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    // Coordinates the SAN reader does not take (Chess960 king-takes-rook castling, say).
    if let Ok(m) = parse_uci_move(pos, &text.to_ascii_lowercase()) {
        if !m.is_null() {
            return Ok(m);
        }
    }
    // Coordinates name their squares: `b8g7` is the piece on b8, never a bishop from rank 8.
    if is_coordinates(text) {
        return Err(san_error);
    }
    // People type piece letters in either case: retry with an upper-case piece letter.
    let mut chars = text.chars();
    if let Some(first @ ('n' | 'b' | 'r' | 'q' | 'k')) = chars.next() {
        let upper: String = std::iter::once(first.to_ascii_uppercase()).chain(chars).collect();
        if let Ok(m) = parse_san(pos, &upper) {
            return Ok(m);
        }
    }
    Err(san_error)
}

/// Why the move `text` (read as [`parse_move`] reads it) cannot be played in `pos`, when it
/// names one piece or a castle ([`SanMove::refusal`]): "the pawn on e2 cannot move to e5".
/// A lower-case `b` is a pawn's file first and a bishop otherwise, as the reader takes it:
/// the bishop's reason is given when it has one. `None` for a legal move, a text that is no
/// move, or one that several pieces could mean.
pub fn refusal(pos: &Position, text: &str) -> Option<Refusal> {
    let as_typed = SanMove::parse(text).ok().and_then(|m| m.refusal(pos));
    if is_coordinates(text) {
        return as_typed;
    }
    let bishop = text
        .strip_prefix('b')
        .filter(|rest| !rest.is_empty())
        .and_then(|rest| SanMove::parse(&format!("B{rest}")).ok())
        .and_then(|m| m.refusal(pos));
    bishop.or(as_typed)
}

/// `true` for a move written as two squares (`e2e4`, `e7e8q`, `E2E4`), which names the
/// piece by its square.
fn is_coordinates(text: &str) -> bool {
    text.to_ascii_lowercase().parse::<UciMove>().is_ok_and(|m| m != UciMove::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::san;

    #[test]
    fn either_notation_in_either_case() {
        let pos: Position = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        for (typed, expected) in
            [("0-0", "O-O"), ("o-o-o", "O-O-O"), ("e1h1", "O-O"), ("E1G1", "O-O"), ("b8Q", "b8=Q+"), ("b7b8q", "b8=Q+")]
        {
            assert_eq!(parse_move(&pos, typed).map(|m| san(&pos, m)).as_deref(), Ok(expected), "{typed}");
        }
        assert!(matches!(parse_move(&pos, "banana"), Err(SanError::Syntax(_))));
        // Coordinates name the piece on their square, never a bishop from a rank: after
        // 1. Nf3 g6, b8g7 is the knight's impossible move, not Bg7.
        let pos: Position = "rnbqkbnr/pppppp1p/6p1/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2".parse().unwrap();
        let pos = {
            let mut p = pos;
            p.play_unchecked(parse_move(&pos, "e3").unwrap());
            p
        };
        assert!(parse_move(&pos, "Bg7").is_ok());
        assert!(matches!(parse_move(&pos, "b8g7"), Err(SanError::NoSuchMove(_))));
        assert_eq!(refusal(&pos, "b8g7").map(|r| r.to_string()).as_deref(), Some("the knight on b8 cannot move to g7"));
    }

    #[test]
    fn refusals_read_a_lower_case_b_as_the_reader_does() {
        let start = Position::startpos();
        let why = |text: &str| refusal(&start, text).map(|r| r.to_string());
        assert_eq!(why("bc4").as_deref(), Some("the bishop on f1 is blocked by the pawn on e2"));
        assert_eq!(why("b5").as_deref(), Some("the pawn on b2 cannot move to b5"));
        assert_eq!(why("e2e5").as_deref(), Some("the pawn on e2 cannot move to e5"));
        assert_eq!(why("e4"), None);
        assert_eq!(why("banana"), None);
    }
}
