//! # tempo-notation: chess text
//!
//! Moves in UCI long algebraic notation, for now; SAN, PGN, EPD and diagrams follow.
//!
//! ```
//! use tempo_core::Position;
//! use tempo_notation::{parse_uci_move, uci_move};
//!
//! let pos = Position::startpos();
//! let m = parse_uci_move(&pos, "g1f3")?;
//! assert_eq!(uci_move(&pos, m), "g1f3");
//! # Ok::<(), tempo_notation::UciMoveError>(())
//! ```

mod pgn;
mod san;
mod uci;

pub use pgn::{
    commands, format_clock, parse_clock, pgn_string, write_pgn, Annotations, Eval, Games, ParsePgnResultError,
    PgnError, PgnErrorKind, PgnGame, PgnNode, PgnReader, PgnResult, Visitor, LINE_WIDTH, MAX_VARIATION_DEPTH,
};
pub use san::{parse_san, parse_san_in, san, san_line, write_san, SanError, SanMove};
pub use uci::{parse_uci_move, uci_move, UciMoveError};
