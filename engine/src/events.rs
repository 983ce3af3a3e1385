//! What a running search tells its caller.

use crate::score::Wdl;
use crate::tt::Bound;
use std::time::Duration;
use tempo_core::Move;
use tempo_core::Score;

/// A progress report for one principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nominal depth in plies.
    pub depth: u32,
    /// Selective depth (longest line searched) in plies.
    pub seldepth: u32,
    /// Which principal variation, from 1.
    pub multipv: u32,
    /// The score.
    pub score: Score,
    /// `Some(Lower)` / `Some(Upper)` when the score is only a bound (aspiration failure).
    pub bound: Option<Bound>,
    /// Win/draw/loss estimate, when `UCI_ShowWDL` is on.
    pub wdl: Option<Wdl>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table fill in permille.
    pub hashfull: u32,
    /// Successful Syzygy tablebase probes of this search.
    pub tbhits: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// A search event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Progress of one principal variation.
    Info(SearchInfo),
    /// The root move being searched (on long searches only).
    CurrMove {
        /// Nominal depth.
        depth: u32,
        /// The move.
        mv: Move,
        /// Its number in the root move list, from 1.
        number: u32,
    },
    /// A probe of the Syzygy tables failed (a table missing from an incomplete set, an
    /// unreadable or corrupt file): the search went on without that answer. Sent at most
    /// once per `go`, before [`Event::BestMove`].
    TablebaseError(tempo_syzygy::ProbeError),
    /// The search is over: always sent exactly once per `go`, last.
    BestMove {
        /// The move to play; `None` when the position has no legal move.
        best: Option<Move>,
        /// The expected reply, to ponder on.
        ponder: Option<Move>,
    },
}
