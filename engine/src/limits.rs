//! What a search is asked to do: the UCI `go` parameters, typed.

use std::time::Duration;
use tempo_core::clock::Clock;
use tempo_core::{Color, Move};

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

    /// Limits that play on `clock`: both sides' remaining times and next increments, and the
    /// moves the side whose clock runs must make before its next time control. The one place
    /// a game clock becomes search limits, so that the CLI, the match runner and the built-in
    /// engine all read a clock the same way. Meant for period and increment controls; a
    /// fixed time per move is [`Limits::movetime`].
    pub fn from_clock(clock: &Clock) -> Limits {
        Limits {
            wtime: Some(clock.remaining(Color::White)),
            btime: Some(clock.remaining(Color::Black)),
            winc: Some(clock.increment(Color::White)),
            binc: Some(clock.increment(Color::Black)),
            movestogo: clock.moves_to_go(clock.turn()),
            ..Limits::default()
        }
    }

    /// `true` if the clock (not the caller) decides when to stop.
    pub fn uses_clock(&self) -> bool {
        self.movetime.is_some() || self.wtime.is_some() || self.btime.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::clock::TimeControl;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn from_clock_reads_times_and_increments() {
        let tc: TimeControl = "300+3".parse().unwrap();
        let mut clock = Clock::new(tc, Color::White);
        clock.press(secs(10));
        let limits = Limits::from_clock(&clock);
        assert_eq!(limits.wtime, Some(secs(293)));
        assert_eq!(limits.btime, Some(secs(300)));
        assert_eq!(limits.winc, Some(secs(3)));
        assert_eq!(limits.binc, Some(secs(3)));
        assert_eq!(limits.movestogo, None);
        assert!(limits.uses_clock());
        assert_eq!(limits.depth, None);
    }

    #[test]
    fn from_clock_counts_moves_to_go_for_the_side_to_move() {
        // Two moves in a minute with one second added, then 30 s with five added.
        let tc: TimeControl = "2/60+1:30+5".parse().unwrap();
        let mut clock = Clock::new(tc, Color::White);
        let limits = Limits::from_clock(&clock);
        assert_eq!(limits.movestogo, Some(2));
        assert_eq!((limits.winc, limits.binc), (Some(secs(1)), Some(secs(1))));
        clock.press(Duration::ZERO);
        let limits = Limits::from_clock(&clock);
        assert_eq!(limits.movestogo, Some(2), "Black has not moved yet");
        for _ in 0..3 {
            clock.press(Duration::ZERO);
        }
        // Both sides made their two moves: the second period.
        let limits = Limits::from_clock(&clock);
        assert_eq!(limits.movestogo, None);
        assert_eq!((limits.winc, limits.binc), (Some(secs(5)), Some(secs(5))));
    }
}
