//! # tempo-notation: chess text
//!
//! Moves in SAN ([`parse_san`], [`san`]) and UCI long algebraic ([`parse_uci_move`],
//! [`uci_move`]), either as the user chooses ([`MoveNotation`], and the perft
//! [`divide_lines`]) or as people type them ([`parse_move`], with the [`refusal`] of an
//! illegal one); PGN games read as a stream ([`PgnReader`], with a [`Visitor`] or as
//! [`PgnGame`] trees) and written in export format ([`write_pgn`] to text, [`write_pgn_io`]
//! to a file or any `io::Write`); EPD records ([`Epd`]); text diagrams ([`diagram`]); games as
//! compact binary training data ([`PackedGame`] in viriformat, read by [`ViriReader`]).
//! Readers are lenient where the world is, and every error is typed and names its input.
//!
//! A game's end is `tempo-core`'s [`Outcome`](tempo_core::Outcome) (its score and the rule
//! that ended it); PGN adds two vocabularies of its own: [`PgnResult`], the movetext's
//! termination marker (a score, or `*` for a game without one), and [`PgnTermination`], the
//! values of the `Termination` tag (`normal`, `time forfeit`, `adjudication`...), which
//! [`termination_tag`] derives from a game's termination.
//!
//! A first program, FEN to PGN file, is `examples/first_program.rs`; `examples/pgn_games.rs`
//! reads a PGN file game by game and says how each game ends on the board.
//!
//! ```
//! use tempo_core::Position;
//! use tempo_notation::{parse_san, pgn_string, san, uci_move, PgnReader};
//!
//! let pos = Position::startpos();
//! let m = parse_san(&pos, "Nf3")?;
//! assert_eq!(uci_move(&pos, m), "g1f3");
//! assert_eq!(san(&pos, m), "Nf3");
//!
//! let pgn = "[Event \"?\"]\n\n1.e4 e5 2.Qh5?! Nc6 3.Bc4 Nf6?? 4.Qxf7# 1-0";
//! let game = PgnReader::new(pgn.as_bytes()).games().next().unwrap()?;
//! assert!(game.final_position().is_checkmate());
//! assert!(pgn_string(&game).ends_with("2. Qh5 $6 Nc6 3. Bc4 Nf6 $4 4. Qxf7# 1-0\n\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

// The README's example is compiled and run with the doctests, so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod diagram;
mod divide;
mod epd;
mod move_notation;
mod pgn;
mod san;
mod typed;
mod uci;
mod viriformat;

pub use diagram::{diagram, piece_symbol, DiagramStyle};
pub use divide::divide_lines;
pub use epd::{Epd, EpdError, EpdOperand, EpdOperation};
pub use move_notation::{MoveNotation, ParseMoveNotationError};
pub use pgn::{
    commands, format_clock, parse_clock, pgn_date_time, pgn_string, termination_comment, termination_tag, write_pgn,
    write_pgn_io, Annotations, Games, ParsePgnResultError, PgnError, PgnErrorKind, PgnGame, PgnNode, PgnReader,
    PgnResult, PgnTermination, UnknownTermination, Visitor, LINE_WIDTH, MAX_VARIATION_DEPTH,
};
pub use san::{parse_san, parse_san_in, san, san_line, write_san, SanError, SanMove};
pub use typed::{parse_move, read_typed_move, refusal, shown_input, IllegalReason, TypedMoveError};
pub use uci::{parse_uci_move, uci_move, UciMove, UciMoveError};
pub use viriformat::{
    decode_move as decode_viri_move, encode_move as encode_viri_move, mate_score, IllegalMoveError, PackedGame,
    ScoredMove, TrainingFilter, ViriError, ViriReader, MATE_SCORE_BOUND, MAX_PLIES, PACKED_BOARD_SIZE,
};
