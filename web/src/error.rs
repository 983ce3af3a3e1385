//! The one error type of the bindings: what the page shows, in the words the terminal program
//! uses for the same mistake.

use std::error::Error;
use std::fmt::Write;
use wasm_bindgen::JsValue;

/// Why the page's request was refused. Each variant carries the full message, the typed
/// error's chain of causes joined by `": "` as `tempo` prints it (`anyhow`'s `{:#}`), so the
/// browser and the terminal say the same thing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebError {
    /// A FEN that does not describe a legal position.
    #[error("{0}")]
    Fen(String),
    /// PGN text without a readable game.
    #[error("{0}")]
    Pgn(String),
    /// A move that cannot be played here.
    #[error("{0}")]
    Move(String),
    /// A request the game refuses (no move to take back, the game is over, ...).
    #[error("{0}")]
    Game(String),
    /// A time control that cannot be read.
    #[error("{0}")]
    TimeControl(String),
    /// An engine setting or search request that cannot be honoured.
    #[error("{0}")]
    Engine(String),
}

/// `context: cause: cause's cause ...`, as `anyhow` prints `{:#}` in the terminal program.
pub(crate) fn chain(context: &str, error: &dyn Error) -> String {
    let mut text = String::from(context);
    let mut next: Option<&dyn Error> = Some(error);
    while let Some(e) = next {
        let _ = write!(text, "{}{e}", if text.is_empty() { "" } else { ": " });
        next = e.source();
    }
    text
}

impl From<WebError> for JsValue {
    /// A JavaScript `Error` with the message: `catch (e) { e.message }` in the page.
    fn from(error: WebError) -> JsValue {
        js_sys::Error::new(&error.to_string()).into()
    }
}
