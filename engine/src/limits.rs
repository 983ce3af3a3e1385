//! What a search is asked to do: the UCI `go` parameters, typed.

use std::time::Duration;
use tempo_core::Move;

/// The limits of one search. Every field is optional; with none set the search runs until
/// stopped (like `infinite`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's remaining clock time.
    pub wtime: Option<Duration>,
    /// Black's remaining clock time.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search exactly this long.
    pub movetime: Option<Duration>,
    /// Search to this depth (plies).
    pub depth: Option<u32>,
    /// Search about this many nodes (exact when single-threaded).
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are searched (the search may go past it
    /// to finish the iteration in progress, up to `nodes` if set).
    pub soft_nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Search in pondering mode: no time limit until `ponderhit`, no best move before `stop`
    /// or the end of the search after `ponderhit`.
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Limits that search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Limits that search a fixed number of nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// Limits that stop at the end of the iteration in which `soft` nodes are reached, or at
    /// `hard` nodes whatever happens.
    pub fn soft_nodes(soft: u64, hard: u64) -> Limits {
        Limits { soft_nodes: Some(soft), nodes: Some(hard), ..Limits::default() }
    }

    /// Limits that search for a fixed time.
    pub fn movetime(time: Duration) -> Limits {
        Limits { movetime: Some(time), ..Limits::default() }
    }

    /// `true` if the clock (not the caller) decides when to stop.
    pub fn uses_clock(&self) -> bool {
        self.movetime.is_some() || self.wtime.is_some() || self.btime.is_some()
    }
}
