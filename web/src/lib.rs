//! # tempo-web: Tempo in the browser
//!
//! WebAssembly bindings, with `wasm-bindgen`, over core, notation and engine, for the static
//! page in `web/www/` (`cargo xtask web` builds the site, `cargo xtask web --serve` serves it).
//! Two types cross into JavaScript:
//! - [`WebGame`], on the page's thread: the game on the board (legal moves, a move in SAN or
//!   UCI, FEN and PGN in and out with the terminal program's error messages, the clock, every
//!   ending with its reason, draw offers, resignation, undo, Chess960, perft);
//! - [`WebEngine`], in a Web Worker: searches (levels as in `tempo`, MultiPV, Chess960), the
//!   network's evaluation and the engine's bench.
//!
//! Every method is plain Rust too (the crate is also an `rlib`): the native tests call the
//! code the page runs, and the browser test compares the page's answers with them.
//! Errors are [`WebError`]s, which reach JavaScript as `Error`s with the message.

mod engine;
mod error;
mod game;

pub use engine::{level_elo, WebEngine, MAX_LEVEL};
pub use error::WebError;
pub use game::{chess960_position, parse_fen, parse_pgn, WebGame};

/// JSON text of a value the crate built (its types serialise without fail).
fn json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":{:?}}}", e.to_string()))
}
