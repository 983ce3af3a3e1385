//! Time management: turns the UCI clock limits into a soft limit (the time one move should
//! take, stretched or shrunk by how stable the search looks) and a hard limit (the search
//! is aborted there, whatever happens).
//!
//! Both always leave `Move Overhead` in reserve, and the hard limit never exceeds a fixed
//! share of the remaining clock, so that even at 1+0.01 the engine keeps a cushion for the
//! next moves instead of flagging.

use crate::limits::Limits;
use crate::parameters as param;
use std::time::Duration;
use tempo_core::Color;

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeBudget {
    /// Aim to finish the current iteration and stop after this long (scaled by stability).
    pub soft: Option<Duration>,
    /// Never search longer than this.
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// The budget for `limits` with `us` to move at game ply `ply` (half-moves since the
    /// start of the game, as the position's move counters say).
    pub fn new(limits: &Limits, us: Color, ply: u32, overhead: Duration) -> TimeBudget {
        if let Some(movetime) = limits.movetime {
            let t = movetime.saturating_sub(overhead).max(Duration::from_millis(1));
            return TimeBudget { soft: Some(t), hard: Some(t) };
        }
        let (time, inc) = match us {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        // A clock for the other side only still means the game is timed: our own time is
        // then taken as zero (move at once) rather than as unlimited, as Stockfish does.
        let Some(time) = time.or_else(|| (limits.wtime.is_some() || limits.btime.is_some()).then_some(Duration::ZERO))
        else {
            return TimeBudget::default();
        };
        let inc = inc.unwrap_or(Duration::ZERO);
        // What we may spend at all: the clock minus the overhead reserve, in microseconds.
        let available = time.saturating_sub(overhead).as_micros() as u64;
        let inc_us = inc.as_micros() as u64;
        let overhead_us = overhead.as_micros() as u64;
        // Moves the remaining time is assumed to last when the GUI gives no `movestogo`.
        let default_moves_to_go = param::tm_moves_to_go() as u32;
        let mtg = u64::from(limits.movestogo.unwrap_or(default_moves_to_go).clamp(1, default_moves_to_go));

        // The time pool of the next `mtg` moves: the clock plus the increments to come, minus
        // the overhead of every one of those moves. Charging the overhead per move (as
        // Stockfish does) is what keeps bullet games alive: when communication costs about
        // as much as the increment, the clock would otherwise drain move after move.
        let pool = (time.as_micros() as u64 + inc_us * (mtg - 1)).saturating_sub(overhead_us * (mtg + 2));
        let mut soft = pool / mtg;
        // Without `movestogo` the game's length is a guess; spend more of the clock as the
        // game goes on rather than keep a pool for moves it may never reach.
        if limits.movestogo.is_none() {
            let growth = 10_000 + u64::from(ply) * param::tm_ply_growth() as u64;
            let growth = growth.min(param::tm_ply_growth_cap() as u64 * 100);
            soft = soft * growth / 10_000;
        }
        // Below a reserve of some increments and overheads, spend progressively less than
        // the increment so that the clock climbs back instead of draining: on a loaded
        // machine a single scheduling hiccup can cost more than a bullet increment.
        let reserve = param::tm_reserve_incs() as u64 * inc_us + param::tm_reserve_overheads() as u64 * overhead_us;
        let time_us = time.as_micros() as u64;
        if time_us < reserve {
            soft = soft * time_us / reserve.max(1);
        }
        // Never more than a share of the clock; last move before the control: most of it.
        let (soft_cap, hard_cap) = if mtg == 1 {
            (available * 7 / 10, available * 8 / 10)
        } else {
            let thousandths = |v: i32| available * v as u64 / 1000;
            (thousandths(param::tm_soft_cap()), thousandths(param::tm_hard_cap()))
        };
        soft = soft.min(soft_cap);
        let hard = (soft * param::tm_hard_ratio() as u64 / 100).min(hard_cap).max(soft);
        let floor = 1_000; // 1 ms: always search at least something
        TimeBudget {
            soft: Some(Duration::from_micros(soft.max(floor))),
            hard: Some(Duration::from_micros(hard.max(floor))),
        }
    }
}

/// The soft limit's scale for a best move that took `best_nodes` of the search's `nodes`
/// (all iterations together): a move that needed most of the effort is rarely overturned by
/// another iteration, one that took little of it won a close race. `(tm_node_base - share) *
/// tm_node_scale`: 0.81 at a share of 90%, 1.35 at 50%.
pub(crate) fn effort_scale(best_nodes: u64, nodes: u64) -> f64 {
    let share = best_nodes as f64 / nodes.max(1) as f64;
    (f64::from(param::tm_node_base()) - 100.0 * share) * f64::from(param::tm_node_scale()) / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn a_clock_for_the_other_side_only_means_moving_at_once() {
        let limits = Limits { btime: Some(ms(60_000)), ..Limits::default() };
        let b = TimeBudget::new(&limits, Color::White, 0, ms(20));
        assert_eq!(b.hard, Some(ms(1)), "{b:?}");
        assert_eq!(TimeBudget::new(&Limits::default(), Color::White, 0, ms(20)), TimeBudget::default());
    }

    #[test]
    fn movetime_keeps_the_overhead() {
        let b = TimeBudget::new(&Limits::movetime(ms(1000)), Color::White, 0, ms(20));
        assert_eq!(b.hard, Some(ms(980)));
    }

    #[test]
    fn bullet_clock_leaves_a_cushion() {
        for (time, inc) in [(1000, 10), (50, 10), (10, 10), (0, 10), (10_000, 100), (200, 0)] {
            let limits = Limits { wtime: Some(ms(time)), winc: Some(ms(inc)), ..Limits::default() };
            let b = TimeBudget::new(&limits, Color::White, 0, ms(20));
            let hard = b.hard.unwrap();
            assert!(b.soft.unwrap() <= hard);
            assert!(hard <= ms(time).saturating_sub(ms(20)).max(ms(1)), "{time}+{inc}: {hard:?}");
        }
    }

    #[test]
    fn a_low_clock_spends_less_than_the_increment() {
        for (time, inc) in [(300, 50), (100, 10), (500, 100)] {
            let limits = Limits { wtime: Some(ms(time)), winc: Some(ms(inc)), ..Limits::default() };
            let b = TimeBudget::new(&limits, Color::White, 0, ms(20));
            assert!(b.soft.unwrap() < ms(inc) / 2, "{time}+{inc}: {b:?}");
            // However far the game has gone, the clock still climbs back.
            let late = TimeBudget::new(&limits, Color::White, 300, ms(20));
            assert!(late.soft.unwrap() < ms(inc), "{time}+{inc} at ply 300: {late:?}");
        }
    }

    #[test]
    fn without_movestogo_later_moves_get_more_of_the_clock() {
        let sudden_death = Limits { wtime: Some(ms(60_000)), winc: Some(ms(600)), ..Limits::default() };
        let soft = |limits: &Limits, ply| TimeBudget::new(limits, Color::White, ply, ms(20)).soft.unwrap();
        assert!(soft(&sudden_death, 0) < soft(&sudden_death, 40));
        assert!(soft(&sudden_death, 40) < soft(&sudden_death, 80));
        // The growth is capped: a long game does not end up spending its clock in a few moves.
        assert_eq!(soft(&sudden_death, 300), soft(&sudden_death, 3000));
        assert!(soft(&sudden_death, 3000) < ms(60_000) / 10);
        // With `movestogo` the GUI says how long the clock must last: no guess to correct.
        let repeating = Limits { movestogo: Some(20), ..sudden_death };
        assert_eq!(soft(&repeating, 0), soft(&repeating, 80));
    }

    #[test]
    fn the_less_of_the_effort_the_best_move_took_the_longer_the_search() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(effort_scale(90, 100), 0.81), "{}", effort_scale(90, 100));
        assert!(close(effort_scale(50, 100), 1.35), "{}", effort_scale(50, 100));
        assert!(effort_scale(100, 100) < effort_scale(30, 100));
        assert!(effort_scale(0, 0).is_finite());
    }

    #[test]
    fn no_clock_no_budget() {
        assert_eq!(TimeBudget::new(&Limits::depth(5), Color::White, 0, ms(20)), TimeBudget::default());
    }
}
