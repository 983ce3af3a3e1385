//! The visitor interface of the PGN reader.

use super::PgnResult;
use tempo_core::{Move, Position};

/// Receives the parts of one game as the reader goes through it.
///
/// Every method but [`Visitor::end_game`] has an empty default, so a visitor implements only
/// what it needs (a validator implements none). Moves arrive already resolved against the
/// position, variations included: the reader keeps the positions.
///
/// ```
/// use tempo_core::{Move, Position};
/// use tempo_notation::{PgnReader, Visitor};
///
/// /// Counts captures in every game, variations included.
/// struct Captures(u32);
///
/// impl Visitor for Captures {
///     type Output = u32;
///     fn begin_game(&mut self) {
///         self.0 = 0;
///     }
///     fn play(&mut self, before: &Position, m: Move) {
///         self.0 += u32::from(!m.is_null() && before.is_capture(m));
///     }
///     fn end_game(&mut self) -> u32 {
///         self.0
///     }
/// }
///
/// let pgn = "1. e4 d5 2. exd5 (2. e5) Qxd5 *\n\n1. d4 *";
/// let mut reader = PgnReader::new(pgn.as_bytes());
/// let mut visitor = Captures(0);
/// assert_eq!(reader.read_game(&mut visitor), Some(Ok(2)));
/// assert_eq!(reader.read_game(&mut visitor), Some(Ok(0)));
/// assert_eq!(reader.read_game(&mut visitor), None);
/// ```
pub trait Visitor {
    /// What a game turns into.
    type Output;

    /// A new game starts (reset any per-game state here: after a broken game the previous
    /// `end_game` was never called).
    fn begin_game(&mut self) {}

    /// A tag pair, value unescaped, in file order.
    fn tag(&mut self, _name: &str, _value: &str) {}

    /// The tags are over; the movetext starts from `start` (from `[FEN]` if present).
    fn begin_movetext(&mut self, _start: &Position) {}

    /// A move, legal in `before` (`Move::NULL` for a null move).
    fn play(&mut self, _before: &Position, _m: Move) {}

    /// A numeric annotation glyph (`$n`, or a suffix annotation `!`=1, `?`=2, `!!`=3, `??`=4,
    /// `!?`=5, `?!`=6) for the last move.
    fn nag(&mut self, _nag: u8) {}

    /// A comment: a brace comment with line breaks turned into spaces, or a rest-of-line
    /// comment; leading and trailing whitespace removed.
    fn comment(&mut self, _text: &str) {}

    /// A variation opens: alternatives to the last move, from the position before it.
    fn begin_variation(&mut self) {}

    /// The innermost variation closes.
    fn end_variation(&mut self) {}

    /// The game termination marker (`None` if the game ended without one).
    fn result(&mut self, _result: Option<PgnResult>) {}

    /// The game is complete.
    fn end_game(&mut self) -> Self::Output;
}
