//! PGN: a streaming reader (iterator and visitor APIs), a game tree, the export-format
//! writer, and the commands embedded in comments.
//!
//! Decisions where PGN files in the wild disagree with the standard:
//! - movetext in UCI long algebraic (`g1f3 c7c5`, as some engine-match tools write) is read,
//!   because the SAN reader accepts long forms anyway and such files exist; it is written
//!   back as SAN. Castling is read in both UCI forms, king to its destination (`e1g1`) and
//!   king takes own rook (`e1h1`, Chess960's `c8b8`);
//! - null moves `--`, `Z0` and `0000` are read (not in check) and written as `--`;
//! - `e.p.` after an en passant capture is skipped;
//! - a `[FEN]` without its clock fields, or with castling rights or an en passant square the
//!   position cannot back, is repaired (missing clocks are `0 1`, unbacked rights dropped);
//! - a `[FEN]` whose castling rights are not standard ones (a king off the e-file or a rook
//!   off the a- and h-files, in Shredder-FEN `GBgb` or X-FEN) makes the game Chess960 even
//!   without a `[Variant]` tag, as python-chess infers it;
//! - a game that ends without a termination marker (end of input, or the next game's tags
//!   at the start of a line) is accepted with no result;
//! - text with neither tags, moves nor a result (a remark after the last game) is not a game;
//! - line breaks inside brace comments are read as spaces, so that writing a comment wrapped
//!   at 80 columns and reading it again gives the same text;
//! - inside a brace comment everything up to `}` is text, even a line that starts with a tag
//!   pair, except that such a line after a blank line starts the next game (the `}` is then
//!   reported missing): a comment left open must not swallow the games after it;
//! - a line ends at LF, CR LF or a lone CR (old Mac OS files), for line numbers and for
//!   everything tied to lines (tags, `;` comments, `%` escapes);
//! - `[Variant]` values for Chess960 (`Chess960`, `fischerandom`...) switch castling to
//!   Chess960; other variants (crazyhouse, atomic...) are reported as unsupported.

mod annotations;
mod date;
mod game;
mod reader;
mod source;
mod visitor;
mod writer;

pub use annotations::{commands, format_clock, parse_clock, Annotations};
pub use date::pgn_date_time;
pub(crate) use game::GameBuilder;
pub use game::{termination_comment, termination_tag, PgnGame, PgnNode, PgnTermination, UnknownTermination};
pub use reader::{Games, PgnError, PgnErrorKind, PgnReader, MAX_VARIATION_DEPTH};
pub use visitor::Visitor;
pub use writer::{pgn_string, write_pgn, write_pgn_io, LINE_WIDTH};

use std::fmt;
use tempo_core::GameResult;

/// A PGN game termination marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PgnResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: unfinished or unknown.
    Ongoing,
}

impl PgnResult {
    /// The marker text.
    pub fn as_str(self) -> &'static str {
        match self {
            PgnResult::WhiteWins => "1-0",
            PgnResult::BlackWins => "0-1",
            PgnResult::Draw => "1/2-1/2",
            PgnResult::Ongoing => "*",
        }
    }
}

impl From<Option<GameResult>> for PgnResult {
    fn from(result: Option<GameResult>) -> PgnResult {
        match result {
            Some(GameResult::WhiteWins) => PgnResult::WhiteWins,
            Some(GameResult::BlackWins) => PgnResult::BlackWins,
            Some(GameResult::Draw) => PgnResult::Draw,
            None => PgnResult::Ongoing,
        }
    }
}

impl fmt::Display for PgnResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A termination marker that is not one of the four.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid pgn result {0:?}")]
pub struct ParsePgnResultError(pub String);

impl std::str::FromStr for PgnResult {
    type Err = ParsePgnResultError;

    fn from_str(s: &str) -> Result<PgnResult, ParsePgnResultError> {
        match s.trim() {
            "1-0" => Ok(PgnResult::WhiteWins),
            "0-1" => Ok(PgnResult::BlackWins),
            "1/2-1/2" | "½-½" => Ok(PgnResult::Draw),
            "*" => Ok(PgnResult::Ongoing),
            other => Err(ParsePgnResultError(other.to_owned())),
        }
    }
}
