//! A move as people type it, in either notation: SAN read leniently (piece letters in either
//! case), UCI coordinates (`e2e4`, `e7e8q`, castling as `e1g1` or king takes rook), and why
//! it cannot be played. `tempo`'s move prompt and `tempo-tools game --moves` read moves so.

use crate::san::{parse_san, san, SanError, SanMove};
use crate::uci::{parse_uci_move, UciMove};
use std::fmt;
use tempo_core::{Move, Position, Refusal};

/// Typed text as a message repeats it: control characters (a stray escape sequence, a NUL)
/// made visible as `\u{..}` escapes, and a long line cut to its first 40 characters, so that
/// pasted garbage cannot flood or scramble the player's screen.
///
/// ```
/// assert_eq!(tempo_notation::shown_input("e4\u{1b}[2J"), "e4\\u{1b}[2J");
/// ```
pub fn shown_input(text: &str) -> String {
    const LONGEST: usize = 40;
    let mut out = String::new();
    for c in text.chars().take(LONGEST) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if text.chars().count() > LONGEST {
        out.push_str("...");
    }
    out
}

/// Why a move a player typed cannot be played, in words for that player: `Display` is the
/// sentence `tempo`'s move prompt and the browser page show, so both say the same thing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TypedMoveError {
    /// The text is no move in either notation.
    #[error("\"{}\" is not a move: try e4, Nf3, O-O or e2e4", shown_input(text))]
    NotAMove {
        /// The text as typed.
        text: String,
    },
    /// The text is a move, but not a legal one here.
    #[error("Illegal move {}: {reason}", shown_input(text))]
    Illegal {
        /// The text as typed.
        text: String,
        /// Why it cannot be played.
        reason: IllegalReason,
    },
    /// Several legal moves fit the text.
    #[error("Ambiguous move {}: it could be {}", shown_input(text), join_or(candidates))]
    Ambiguous {
        /// The text as typed.
        text: String,
        /// The SAN of each legal move it could mean.
        candidates: Vec<String>,
    },
}

/// Why a move that reads as one cannot be played: the most specific reason known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The piece it names cannot go there, or the way is blocked ([`refusal`]).
    Refused(Refusal),
    /// The side to move is in check and the move does not answer it.
    CheckUnanswered,
    /// The move would leave or put the mover's king in check.
    SelfCheck,
    /// No piece of the side to move can make it.
    NoPiece,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::Refused(why) => write!(f, "{why}"),
            IllegalReason::CheckUnanswered => f.write_str("it does not get your king out of check"),
            IllegalReason::SelfCheck => f.write_str("it would leave your king in check"),
            IllegalReason::NoPiece => f.write_str("no piece of yours can make it"),
        }
    }
}

/// "a, b or c".
fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Reads a move a player typed, as [`parse_move`] does, and says why it cannot be played
/// when it cannot.
///
/// ```
/// use tempo_core::Position;
/// use tempo_notation::read_typed_move;
///
/// let start = Position::startpos();
/// let why = read_typed_move(&start, "Bc4").unwrap_err();
/// assert_eq!(why.to_string(), "Illegal move Bc4: the bishop on f1 is blocked by the pawn on e2");
/// ```
///
/// # Errors
/// A [`TypedMoveError`]: no move at all, an illegal one with its reason, or an ambiguous
/// one with the moves it could be.
pub fn read_typed_move(pos: &Position, text: &str) -> Result<Move, TypedMoveError> {
    parse_move(pos, text).map_err(|error| {
        let text = text.to_owned();
        match error {
            SanError::Syntax(_) | SanError::NullInCheck(_) => TypedMoveError::NotAMove { text },
            SanError::Ambiguous { candidates, .. } => TypedMoveError::Ambiguous { text, candidates },
            SanError::NoSuchMove(_) | SanError::Illegal(_) => {
                let reason = match refusal(pos, &text) {
                    Some(why) => IllegalReason::Refused(why),
                    None if pos.is_check() => IllegalReason::CheckUnanswered,
                    None if matches!(error, SanError::Illegal(_)) => IllegalReason::SelfCheck,
                    None => IllegalReason::NoPiece,
                };
                TypedMoveError::Illegal { text, reason }
            }
        }
    })
}

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
        // `bb4` reads as a pawn from the b-file; typed by a person it may as well be the
        // bishop's move, `Bb4`: when both are legal, the text names neither. (`bxc5` is the
        // pawn's capture in SAN, and `b4` no bishop's move.)
        Ok(m) if text.len() > 2 && text.starts_with('b') && !text.starts_with("bx") && !is_coordinates(text) => {
            let bishop: String = std::iter::once('B').chain(text.chars().skip(1)).collect();
            return match parse_san(pos, &bishop) {
                Ok(other) if other != m => {
                    Err(SanError::Ambiguous { san: text.to_owned(), candidates: vec![san(pos, m), san(pos, other)] })
                }
                _ => Ok(m),
            };
        }
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
    fn typed_moves_are_refused_in_words() {
        let start = Position::startpos();
        let why = |pos: &Position, text: &str| read_typed_move(pos, text).unwrap_err().to_string();
        assert_eq!(why(&start, "banana"), "\"banana\" is not a move: try e4, Nf3, O-O or e2e4");
        assert_eq!(why(&start, "e2e5"), "Illegal move e2e5: the pawn on e2 cannot move to e5");
        assert_eq!(why(&start, "Qh5"), "Illegal move Qh5: the queen on d1 is blocked by the pawn on e2");
        // Two knights can reach d2 (from b1 and f3): the player is told which moves fit.
        let knights: Position = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1".parse().unwrap();
        assert_eq!(why(&knights, "Nd2"), "Ambiguous move Nd2: it could be Nbd2 or Nfd2");
        // In check, a move that does not answer it, and a piece the side does not have.
        let check: Position = "4k3/8/8/8/8/8/3PPP2/r3K3 w - - 0 1".parse().unwrap();
        assert_eq!(
            why(&check, "d3"),
            "Illegal move d3: the king is in check from the rook on a1, and this move does not answer it"
        );
        assert_eq!(why(&check, "Nf3"), "Illegal move Nf3: White has no knight");
        assert!(read_typed_move(&start, "nf3").is_ok());
    }

    #[test]
    fn typed_garbage_is_repeated_short_and_visible() {
        let start = Position::startpos();
        let why = read_typed_move(&start, "\u{1b}[2J\0x").unwrap_err().to_string();
        assert_eq!(why, "\"\\u{1b}[2J\\u{0}x\" is not a move: try e4, Nf3, O-O or e2e4");
        let long = "z".repeat(100_000);
        let why = read_typed_move(&start, &long).unwrap_err().to_string();
        assert!(why.len() < 100 && why.contains(&format!("{}...", "z".repeat(40))), "{why}");
    }

    #[test]
    fn a_lower_case_b_that_fits_both_a_pawn_and_a_bishop_is_ambiguous() {
        // The b3 pawn and the c5 bishop can both go to b4.
        let pos: Position = "rbbqk3/8/5n2/ppBpp2p/3P4/RPN1P3/5P1P/3Q1K1R w - - 0 42".parse().unwrap();
        assert_eq!(read_typed_move(&pos, "bb4").unwrap_err().to_string(), "Ambiguous move bb4: it could be b4 or Bb4");
        for (typed, expected) in [("b4", "b4"), ("Bb4", "Bb4"), ("bd6", "Bd6")] {
            assert_eq!(parse_move(&pos, typed).map(|m| san(&pos, m)).as_deref(), Ok(expected), "{typed}");
        }
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
