//! Typed errors of the engine facade.

use tempo_core::Move;

/// An option value the engine cannot accept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No option has this name.
    #[error("unknown option {0:?}")]
    Unknown(String),
    /// A spin option got something that is not an integer in range.
    #[error("option {name:?} takes an integer from {min} to {max}, got {value:?}")]
    OutOfRange {
        /// The option's name.
        name: String,
        /// The rejected value text.
        value: String,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// A check option got something other than `true` or `false`.
    #[error("option {name:?} takes true or false, got {value:?}")]
    NotBoolean {
        /// The option's name.
        name: String,
        /// The rejected value text.
        value: String,
    },
}

/// An error of the engine facade. The engine's state is unchanged after any of them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The request needs an idle engine but a search is running.
    #[error("a search is running; stop it first")]
    Busy,
    /// A move in the position's move list is illegal.
    #[error("illegal move {mv:?} at index {index} of the move list")]
    IllegalMove {
        /// The offending move.
        mv: Move,
        /// Its index in the move list.
        index: usize,
    },
    /// A `searchmoves` entry is not a legal move of the root position.
    #[error("searchmoves contains {0:?}, which is not legal in the root position")]
    IllegalSearchMove(Move),
    /// [`Engine::search`](crate::Engine::search) was asked for an `infinite` or `ponder`
    /// search, which only [`Engine::stop`](crate::Engine::stop) or a `ponderhit` would end,
    /// and nothing can call them while the calling thread searches.
    #[error("a search on the calling thread cannot be infinite or pondering: nothing could stop it")]
    NeedsStop,
    /// The hash table could not be allocated at the requested size (in MiB).
    #[error("cannot allocate a {0} MiB hash table")]
    HashAllocation(usize),
    /// The operating system would not start the search's thread (its message).
    #[error("cannot start the search thread: {0}")]
    ThreadStart(String),
    /// A bad option value.
    #[error(transparent)]
    Option(#[from] OptionError),
}
