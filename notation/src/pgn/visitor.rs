//! The visitor interface of the PGN reader.

use super::PgnResult;
use tempo_core::{Move, Position};

/// Receives the parts of one game as the reader goes through it.
///
/// Every method but [`Visitor::end_game`] has an empty default, so a visitor implements only
/// what it needs (a validator implements none). Moves arrive already resolved against the
/// position, variations included: the reader keeps the positions.
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
