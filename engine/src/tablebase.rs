//! Syzygy tablebases in the search: WDL probes after captures and pawn moves, and the
//! tables' choice of moves at the root. Without tables (`Engine::set_tablebase(None)`, the
//! default) nothing here runs, so searches, and the bench, are unchanged.

use crate::options::Options;
use crate::score::{Value, MATE_BOUND, MAX_PLY};
use crate::tt::Bound;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use tempo_core::{Move, Position};
use tempo_syzygy::{ProbeError, Tablebase, Wdl};

/// A tablebase win at the root: above every evaluation, below every mate score.
pub const TB_WIN: Value = MATE_BOUND - MAX_PLY as Value - 1;

/// The tables as one search uses them.
pub struct Probing<'a> {
    tables: &'a Tablebase,
    /// The most men probed: the smaller of `SyzygyProbeLimit` and the largest table.
    men: u32,
    /// The least remaining depth at which positions with `men` men are probed.
    depth: i32,
    fifty_move_rule: bool,
    hits: AtomicU64,
    /// The first probe that failed (an unreadable or corrupt file): the search goes on as
    /// without that answer, and the facade reports it once the search is over.
    failure: OnceLock<ProbeError>,
}

impl<'a> Probing<'a> {
    /// Probing with these options, or `None` when no position can be probed.
    pub fn new(tables: &'a Tablebase, options: &Options) -> Option<Probing<'a>> {
        let men = options.syzygy_probe_limit.min(tables.max_pieces());
        (men >= 3).then(|| Probing {
            tables,
            men,
            depth: options.syzygy_probe_depth as i32,
            fifty_move_rule: options.syzygy_50_move_rule,
            hits: AtomicU64::new(0),
            failure: OnceLock::new(),
        })
    }

    /// Successful probes so far (UCI `tbhits`).
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// The first probe that failed during this search, if any.
    pub fn failure(&self) -> Option<&ProbeError> {
        self.failure.get()
    }

    /// The tables' value of a position just after a capture or pawn move, `ply` from the
    /// root, with the bound it is (a win is at least its value: a faster mate may exist),
    /// or `None` when the position is out of reach or the probe fails (the search then
    /// goes on as without tables; the first failure is kept for [`Probing::failure`]).
    pub fn probe(&self, pos: &Position, depth: i32, ply: usize) -> Option<(Value, Bound)> {
        if pos.halfmove_clock() != 0 || !pos.castling_rights().is_empty() {
            return None;
        }
        let men = pos.occupied().count();
        if men > self.men || (men == self.men && depth < self.depth) {
            return None;
        }
        let wdl = match self.tables.probe_wdl(pos) {
            Ok(wdl) => wdl,
            Err(error) => {
                let _ = self.failure.set(error);
                return None;
            }
        };
        self.hits.fetch_add(1, Ordering::Relaxed);
        let value = value(wdl, ply, self.fifty_move_rule);
        let bound = if value > 1 {
            Bound::Lower
        } else if value < -1 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        Some((value, bound))
    }
}

/// The search value of a table verdict `ply` from the root. Under the fifty-move rule a
/// cursed win is a draw by one point better than a plain draw (a blessed loss one worse),
/// so the search still prefers it if the opponent errs.
pub fn value(wdl: Wdl, ply: usize, fifty_move_rule: bool) -> Value {
    let win = TB_WIN - ply as Value;
    match wdl {
        Wdl::Win => win,
        Wdl::Loss => -win,
        Wdl::CursedWin if !fifty_move_rule => win,
        Wdl::BlessedLoss if !fifty_move_rule => -win,
        Wdl::CursedWin => 1,
        Wdl::BlessedLoss => -1,
        Wdl::Draw => 0,
    }
}

/// At the root: the moves the tables recommend among `moves` (wins by the fastest zeroing,
/// every drawing move, losses by the slowest) and the result they keep, when the root is in
/// the tables' reach and the probe succeeds.
///
/// # Errors
/// The probe's error, for the caller to report; `Ok(None)` when the root is out of reach.
pub fn root_moves(
    tables: &Tablebase,
    pos: &Position,
    moves: &[Move],
    options: &Options,
) -> Result<Option<(Vec<Move>, Wdl)>, tempo_syzygy::ProbeError> {
    let men = pos.occupied().count();
    if options.syzygy_probe_limit < 3
        || men > options.syzygy_probe_limit.min(tables.max_pieces())
        || !pos.castling_rights().is_empty()
    {
        return Ok(None);
    }
    let best = tables.best_moves(pos, options.syzygy_50_move_rule)?;
    let Some(first) = best.first() else { return Ok(None) };
    let kept: Vec<Move> = best.iter().map(|m| m.mv).filter(|m| moves.contains(m)).collect();
    Ok((!kept.is_empty()).then_some((kept, first.wdl)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::is_mate_score;

    #[test]
    fn table_values_rank_between_evaluations_and_mates() {
        assert!(!is_mate_score(TB_WIN) && TB_WIN - MAX_PLY as Value > 30_000);
        assert_eq!(value(Wdl::Win, 3, true), TB_WIN - 3);
        assert_eq!(value(Wdl::Loss, 3, true), -(TB_WIN - 3));
        assert_eq!(value(Wdl::Draw, 3, true), 0);
        // Under the fifty-move rule a cursed result is a draw, a point from an exact one.
        assert_eq!(value(Wdl::CursedWin, 3, true), 1);
        assert_eq!(value(Wdl::BlessedLoss, 3, true), -1);
        assert_eq!(value(Wdl::CursedWin, 3, false), TB_WIN - 3);
        assert_eq!(value(Wdl::BlessedLoss, 3, false), -(TB_WIN - 3));
    }

    #[test]
    fn without_tables_in_reach_nothing_is_probed() {
        let empty = Tablebase::new();
        assert!(Probing::new(&empty, &Options::default()).is_none());
        let pos: Position = "8/8/8/3k4/8/8/8/1R2K3 b - - 0 1".parse().unwrap();
        assert_eq!(root_moves(&empty, &pos, pos.legal_moves().as_slice(), &Options::default()), Ok(None));
    }
}
