//! Time controls and a pure chess clock.
//!
//! [`TimeControl`] reads and writes the PGN `TimeControl` tag (PGN standard, section 9.6.1)
//! plus the fixed time per move used by engine matches. [`Clock`] does the arithmetic: it is
//! fed explicit elapsed durations (core never reads the wall clock), charges them to the side
//! to move, adds increments and period bonuses, reports flag fall, and keeps a snapshot per
//! move so that taking a move back restores both players' time exactly.

use crate::types::Color;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// One period of a time control: `moves` moves in `time`, plus `increment` after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stage {
    /// Moves to make in this period; `None` for sudden death (the rest of the game).
    pub moves: Option<u32>,
    /// Time added to the clock when the period starts.
    pub time: Duration,
    /// Fischer increment added after every move of this period.
    pub increment: Duration,
}

/// A time control, as the PGN `TimeControl` tag writes it.
///
/// | tag | meaning |
/// |---|---|
/// | `?` | unknown |
/// | `-` | no time control |
/// | `300` | sudden death, 300 s |
/// | `180+2` | 180 s, 2 s added after each move (Fischer) |
/// | `40/5400+30:1800+30` | 40 moves in 90 min, then 30 min for the rest, 30 s per move throughout |
/// | `40/7200` | 40 moves in 2 h, repeated (the last period with a move count repeats) |
/// | `*60` | sandclock (hourglass) of 60 s: time one player uses goes to the other |
/// | `1/30` | fixed time per move: each move within 30 s, unused time is not banked |
///
/// `1/N` alone is read as fixed move time rather than as a repeating one-move period, because
/// a one-move period that banks unused time is not a control anyone plays, while "N seconds per
/// move" is (engine matches, the seed rules' move time). Seconds may carry a decimal fraction
/// (`10+0.1`, as cutechess writes) with up to nanosecond precision.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `?`: the time control is not known.
    Unknown,
    /// `-`: no time limit.
    Unlimited,
    /// Periods played in order; see [`Stage`]. Never empty.
    Stages(Vec<Stage>),
    /// `*N`: sandclock with `N` seconds in total.
    Sandclock(Duration),
    /// `1/N`: each move must be made within this time.
    MoveTime(Duration),
}

/// A `TimeControl` tag value that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("empty time control")]
    Empty,
    #[error("malformed time control {text:?}: {reason}")]
    Malformed { text: String, reason: &'static str },
}

impl TimeControl {
    /// Sudden death with a Fischer increment (`base+inc`).
    pub fn fischer(base: Duration, increment: Duration) -> TimeControl {
        TimeControl::Stages(vec![Stage { moves: None, time: base, increment }])
    }

    /// `true` for controls that can make a flag fall.
    pub fn is_timed(&self) -> bool {
        matches!(self, TimeControl::Stages(_) | TimeControl::Sandclock(_) | TimeControl::MoveTime(_))
    }

    /// Time each player starts with (zero for untimed controls).
    pub fn initial_time(&self) -> Duration {
        match self {
            TimeControl::Unknown | TimeControl::Unlimited => Duration::ZERO,
            TimeControl::Stages(stages) => stages.first().map_or(Duration::ZERO, |s| s.time),
            TimeControl::Sandclock(t) | TimeControl::MoveTime(t) => *t,
        }
    }
}

/// Reads seconds with an optional decimal fraction (`30`, `0.05`), never overflowing.
fn parse_seconds(text: &str, whole: &str) -> Result<Duration, TimeControlError> {
    let bad = |reason| TimeControlError::Malformed { text: whole.to_owned(), reason };
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, f),
        None => (text, ""),
    };
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("seconds must be a non-negative number"));
    }
    if text.contains('.') && (frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit())) {
        return Err(bad("seconds must be a non-negative number"));
    }
    if frac.len() > 9 {
        return Err(bad("more than nine decimals"));
    }
    let secs: u64 = int.parse().map_err(|_| bad("seconds out of range"))?;
    let nanos: u32 =
        if frac.is_empty() { 0 } else { format!("{frac:0<9}").parse().map_err(|_| bad("bad fraction"))? };
    Ok(Duration::new(secs, nanos))
}

fn write_seconds(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    write!(f, "{}", d.as_secs())?;
    let nanos = d.subsec_nanos();
    if nanos != 0 {
        let frac = format!("{nanos:09}");
        write!(f, ".{}", frac.trim_end_matches('0'))?;
    }
    Ok(())
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Parses a `TimeControl` tag value (see the table on [`TimeControl`]).
    ///
    /// # Errors
    /// [`TimeControlError`] for an empty or malformed value, such as a sudden-death period
    /// followed by another period or a zero move count.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let text = text.trim();
        let bad = |reason| TimeControlError::Malformed { text: text.to_owned(), reason };
        match text {
            "" => return Err(TimeControlError::Empty),
            "?" => return Ok(TimeControl::Unknown),
            "-" => return Ok(TimeControl::Unlimited),
            _ => {}
        }
        if let Some(rest) = text.strip_prefix('*') {
            return Ok(TimeControl::Sandclock(parse_seconds(rest, text)?));
        }
        if let Some(rest) = text.strip_prefix("1/") {
            if !rest.contains([':', '+', '/']) {
                return Ok(TimeControl::MoveTime(parse_seconds(rest, text)?));
            }
        }
        let mut stages = Vec::new();
        let periods: Vec<&str> = text.split(':').collect();
        for (i, period) in periods.iter().enumerate() {
            let (moves, rest) = match period.split_once('/') {
                Some((m, r)) => {
                    if m.is_empty() || !m.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(bad("move count must be a positive integer"));
                    }
                    let moves: u32 = m.parse().map_err(|_| bad("move count out of range"))?;
                    if moves == 0 {
                        return Err(bad("move count must be positive"));
                    }
                    (Some(moves), r)
                }
                None => (None, *period),
            };
            if moves.is_none() && i + 1 != periods.len() {
                return Err(bad("a sudden-death period must be the last"));
            }
            let (time, increment) = match rest.split_once('+') {
                Some((t, inc)) => (parse_seconds(t, text)?, parse_seconds(inc, text)?),
                None => (parse_seconds(rest, text)?, Duration::ZERO),
            };
            stages.push(Stage { moves, time, increment });
        }
        Ok(TimeControl::Stages(stages))
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag value; parsing it gives back the same control.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Unknown => f.write_str("?"),
            TimeControl::Unlimited => f.write_str("-"),
            TimeControl::Sandclock(t) => {
                f.write_str("*")?;
                write_seconds(f, *t)
            }
            TimeControl::MoveTime(t) => {
                f.write_str("1/")?;
                write_seconds(f, *t)
            }
            TimeControl::Stages(stages) => {
                for (i, stage) in stages.iter().enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    if let Some(moves) = stage.moves {
                        write!(f, "{moves}/")?;
                    }
                    write_seconds(f, stage.time)?;
                    if !stage.increment.is_zero() {
                        f.write_str("+")?;
                        write_seconds(f, stage.increment)?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// Everything that changes when a move is completed: what undo must restore.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ClockState {
    remaining: [Duration; 2],
    /// Time already spent on the move in progress (fed by [`Clock::tick`]).
    pending: Duration,
    /// Moves completed by each side (selects the period).
    moves: [u32; 2],
    turn: Color,
    flagged: Option<Color>,
}

/// A chess clock for two players under one [`TimeControl`], driven by explicit durations.
///
/// The clock runs only for the side to move. [`Clock::tick`] charges time to the move in
/// progress (a display can call it as often as it likes); [`Clock::press`] completes the move:
/// it charges the last slice, adds the increment and any period bonus, and hands the move to
/// the opponent. Under untimed controls the clock only measures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    state: ClockState,
    history: Vec<ClockState>,
}

impl Clock {
    /// A clock at the start of a game, `first` to move.
    pub fn new(control: TimeControl, first: Color) -> Clock {
        let t = control.initial_time();
        let state =
            ClockState { remaining: [t, t], pending: Duration::ZERO, moves: [0, 0], turn: first, flagged: None };
        Clock { control, state, history: Vec::new() }
    }

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The side whose clock runs.
    pub fn turn(&self) -> Color {
        self.state.turn
    }

    /// Time left to `color`, the move in progress deducted (zero once its flag has fallen;
    /// for untimed controls, always zero).
    pub fn remaining(&self, color: Color) -> Duration {
        let r = self.state.remaining[color.index()];
        if color == self.state.turn && self.control.is_timed() {
            r.saturating_sub(self.charge())
        } else {
            r
        }
    }

    /// Time spent so far on the move in progress.
    pub fn pending(&self) -> Duration {
        self.state.pending
    }

    /// The player whose flag fell, if any.
    pub fn flagged(&self) -> Option<Color> {
        self.state.flagged
    }

    /// Moves completed by `color` on this clock.
    pub fn moves_made(&self, color: Color) -> u32 {
        self.state.moves[color.index()]
    }

    /// The time the mover had left right after completing move `index` (0-based, counting both
    /// players' moves on this clock), increments included: what PGN records as `[%clk]`.
    /// `None` if no such move was made.
    pub fn remaining_after(&self, index: usize) -> Option<Duration> {
        let before = self.history.get(index)?;
        let after = self.history.get(index + 1).unwrap_or(&self.state);
        Some(after.remaining[before.turn.index()])
    }

    /// Moves `color` still has to make before the next time bonus, under a period control.
    pub fn moves_to_go(&self, color: Color) -> Option<u32> {
        let TimeControl::Stages(stages) = &self.control else { return None };
        let made = self.state.moves[color.index()];
        let mut start = 0u32;
        let mut i = 0usize;
        loop {
            let stage = stages.get(i).or(stages.last())?;
            let moves = stage.moves?;
            if made < start + moves {
                return Some(start + moves - made);
            }
            start += moves;
            i += 1;
        }
    }

    /// The Fischer increment `color` receives after its next move (zero if none), as UCI's
    /// `winc`/`binc` report it.
    pub fn increment(&self, color: Color) -> Duration {
        self.stage_after(self.state.moves[color.index()]).map(|stage| stage.increment).unwrap_or_default()
    }

    /// The period a player is in after `made` moves (the last period with a move count repeats).
    fn stage_after(&self, made: u32) -> Option<Stage> {
        let TimeControl::Stages(stages) = &self.control else { return None };
        let mut start = 0u32;
        for (i, stage) in stages.iter().enumerate() {
            match stage.moves {
                None => return Some(*stage),
                Some(m) if made < start.saturating_add(m) => return Some(*stage),
                Some(m) => {
                    start = start.saturating_add(m);
                    if i + 1 == stages.len() {
                        return Some(*stage);
                    }
                }
            }
        }
        None
    }

    /// `true` if making move number `made + 1` completes a period (earning the next one's time).
    fn completes_period(&self, made: u32) -> Option<Stage> {
        let TimeControl::Stages(stages) = &self.control else { return None };
        let mut start = 0u32;
        let mut i = 0usize;
        loop {
            let stage = stages.get(i).or(stages.last())?;
            let moves = stage.moves?;
            let end = start.saturating_add(moves);
            if made + 1 == end {
                return Some(*stages.get(i + 1).unwrap_or(stage));
            }
            if made + 1 < end || end == u32::MAX {
                return None;
            }
            start = end;
            i += 1;
        }
    }

    /// The part of the pending time that counts against the mover's clock.
    fn charge(&self) -> Duration {
        self.state.pending
    }

    fn check_flag(&mut self) -> Option<Color> {
        if self.state.flagged.is_none() && self.control.is_timed() {
            let mover = self.state.turn;
            if self.charge() > self.state.remaining[mover.index()] {
                self.state.flagged = Some(mover);
            }
        }
        self.state.flagged
    }

    /// Charges `elapsed` to the move in progress without completing it; returns the player
    /// whose flag has fallen, if any. A flag falls only when time runs strictly below zero,
    /// so a move made with exactly no time left still counts.
    pub fn tick(&mut self, elapsed: Duration) -> Option<Color> {
        if self.state.flagged.is_none() {
            self.state.pending = self.state.pending.saturating_add(elapsed);
        }
        self.check_flag()
    }

    /// Completes the move of the side to move, which took `elapsed` beyond what [`Clock::tick`]
    /// already charged. Returns the player whose flag fell, in which case the move does not
    /// count and the clock stops until [`Clock::clear_flag`] or [`Clock::undo`].
    pub fn press(&mut self, elapsed: Duration) -> Option<Color> {
        if self.state.flagged.is_some() {
            return self.state.flagged;
        }
        let before = self.state;
        if let Some(flag) = self.tick(elapsed) {
            return Some(flag);
        }
        let mover = self.state.turn.index();
        let spent = self.state.pending;
        match &self.control {
            TimeControl::Unknown | TimeControl::Unlimited => {}
            TimeControl::MoveTime(limit) => {
                // Unused time is not banked: every move starts with the full allowance.
                self.state.remaining[mover] = *limit;
            }
            TimeControl::Sandclock(_) => {
                self.state.remaining[mover] -= spent;
                let other = 1 - mover;
                self.state.remaining[other] = self.state.remaining[other].saturating_add(spent);
            }
            TimeControl::Stages(_) => {
                let made = self.state.moves[mover];
                let stage = self.stage_after(made);
                let mut left = self.state.remaining[mover] - spent;
                if let Some(stage) = stage {
                    left = left.saturating_add(stage.increment);
                }
                if let Some(next) = self.completes_period(made) {
                    left = left.saturating_add(next.time);
                }
                self.state.remaining[mover] = left;
            }
        }
        self.state.moves[mover] += 1;
        self.state.pending = Duration::ZERO;
        self.state.turn = !self.state.turn;
        self.history.push(before);
        None
    }

    /// Takes back the last completed move: both players' time, the move counts and the side
    /// to move become what they were before it (time spent since on the following move is
    /// discarded, as when an arbiter restores a position). Returns `false` if no move was made.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(state) => {
                self.state = ClockState { pending: Duration::ZERO, flagged: None, ..state };
                true
            }
            None => false,
        }
    }

    /// Lifts a flag fall and discards the time of the move in progress (for an arbiter's
    /// correction or a take-back after a timeout).
    pub fn clear_flag(&mut self) {
        self.state.flagged = None;
        self.state.pending = Duration::ZERO;
    }

    /// Sets the time left to `color` (an arbiter's adjustment, or resuming a game from a PGN
    /// with `[%clk]` values).
    pub fn set_remaining(&mut self, color: Color, time: Duration) {
        self.state.remaining[color.index()] = time;
    }

    /// Declares `color`'s flag fallen (a display that reads the wall clock noticed it first).
    pub fn set_flagged(&mut self, color: Color) {
        self.state.flagged = Some(color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn parse_and_print_round_trip() {
        for text in ["?", "-", "300", "180+2", "40/5400+30:1800+30", "40/7200", "*60", "1/30", "10+0.1", "0.5+0.05"] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.to_string(), text, "{tc:?}");
        }
        assert_eq!("180+2".parse::<TimeControl>().unwrap(), TimeControl::fischer(secs(180), secs(2)));
        assert_eq!("1/30".parse::<TimeControl>().unwrap(), TimeControl::MoveTime(secs(30)));
        assert_eq!(
            "40/5400+30:1800+30".parse::<TimeControl>().unwrap(),
            TimeControl::Stages(vec![
                Stage { moves: Some(40), time: secs(5400), increment: secs(30) },
                Stage { moves: None, time: secs(1800), increment: secs(30) },
            ])
        );
    }

    #[test]
    fn parse_errors() {
        for text in
            ["", "abc", "300:40/100", "0/300", "+2", "180+", "1.", "-5", "40/", "3.1234567890", "99999999999999999999"]
        {
            assert!(text.parse::<TimeControl>().is_err(), "{text:?} should be rejected");
        }
    }

    #[test]
    fn fischer_increment_and_flag() {
        let mut clock = Clock::new("10+2".parse().unwrap(), Color::White);
        assert_eq!(clock.press(secs(3)), None);
        assert_eq!(clock.remaining(Color::White), secs(9));
        assert_eq!(clock.turn(), Color::Black);
        assert_eq!(clock.tick(secs(10)), None, "exactly zero left is not a flag fall");
        assert_eq!(clock.remaining(Color::Black), Duration::ZERO);
        assert_eq!(clock.tick(Duration::from_millis(1)), Some(Color::Black));
        assert_eq!(clock.press(secs(1)), Some(Color::Black));
        assert_eq!(clock.turn(), Color::Black, "a move after the flag does not count");
    }

    #[test]
    fn periods_add_time_and_repeat() {
        let mut clock = Clock::new("2/60:30".parse().unwrap(), Color::White);
        assert_eq!(clock.moves_to_go(Color::White), Some(2));
        clock.press(secs(10));
        clock.press(secs(1));
        assert_eq!(clock.moves_to_go(Color::White), Some(1));
        clock.press(secs(10)); // White's second move ends the period: +30 s
        assert_eq!(clock.remaining(Color::White), secs(70));
        assert_eq!(clock.moves_to_go(Color::White), None);

        let mut repeat = Clock::new("1/60:2/60".parse::<TimeControl>().unwrap(), Color::White);
        repeat.press(secs(50));
        assert_eq!(repeat.remaining(Color::White), secs(70));

        let mut classic = Clock::new("40/7200".parse().unwrap(), Color::White);
        for _ in 0..80 {
            classic.press(secs(1));
        }
        // 40 moves each: each side earned a second 2 h period.
        assert_eq!(classic.remaining(Color::White), secs(7200 * 2 - 40));
        assert_eq!(classic.moves_to_go(Color::Black), Some(40));
    }

    #[test]
    fn stages_with_increments() {
        // FIDE classical: 90 min for 40 moves, then 30 min, 30 s per move from move 1.
        let mut clock = Clock::new("40/5400+30:1800+30".parse().unwrap(), Color::White);
        assert_eq!(clock.remaining(Color::White), secs(5400));
        assert_eq!(clock.increment(Color::White), secs(30));
        for _ in 0..39 {
            clock.press(secs(100)); // White
            clock.press(secs(10)); // Black
        }
        assert_eq!(clock.remaining(Color::White), secs(5400 - 39 * 70));
        assert_eq!(clock.moves_to_go(Color::White), Some(1));
        clock.press(secs(100)); // White's 40th move: the increment and the second stage's time
        assert_eq!(clock.remaining(Color::White), secs(5400 - 40 * 70 + 1800));
        assert_eq!(clock.moves_to_go(Color::White), None);
        assert_eq!(clock.increment(Color::White), secs(30));
        clock.press(secs(10));
        assert_eq!(clock.remaining(Color::Black), secs(5400 + 40 * 20 + 1800));
        clock.press(secs(50)); // in the last stage, the increment goes on
        assert_eq!(clock.remaining(Color::White), secs(5400 - 40 * 70 + 1800 - 20));
        // Undo restores the time of before the stage change.
        assert!(clock.undo() && clock.undo() && clock.undo());
        assert_eq!(clock.remaining(Color::White), secs(5400 - 39 * 70));
        assert_eq!(clock.moves_to_go(Color::White), Some(1));
    }

    #[test]
    fn move_time_and_sandclock() {
        let mut clock = Clock::new("1/5".parse().unwrap(), Color::White);
        clock.press(secs(1));
        assert_eq!(clock.remaining(Color::White), secs(5), "unused move time is not banked");
        assert_eq!(clock.press(secs(6)), Some(Color::Black));

        let mut sand = Clock::new("*60".parse().unwrap(), Color::White);
        sand.press(secs(10));
        assert_eq!(sand.remaining(Color::White), secs(50));
        assert_eq!(sand.remaining(Color::Black), secs(70));
    }

    #[test]
    fn undo_restores_time() {
        let mut clock = Clock::new("60+1".parse().unwrap(), Color::White);
        clock.press(secs(5));
        let after_one = clock.clone();
        clock.press(secs(7));
        clock.tick(secs(3));
        assert!(clock.undo());
        assert_eq!(clock.remaining(Color::Black), secs(60));
        assert_eq!(clock.turn(), Color::Black);
        assert_eq!(clock, after_one);
        assert!(clock.undo());
        assert_eq!(clock.remaining(Color::White), secs(60));
        assert!(!clock.undo());
    }

    #[test]
    fn remaining_after_each_move() {
        let mut clock = Clock::new("60+1".parse().unwrap(), Color::White);
        clock.press(secs(5));
        clock.press(secs(10));
        clock.press(secs(1));
        clock.tick(secs(3));
        assert_eq!(clock.remaining_after(0), Some(secs(56)));
        assert_eq!(clock.remaining_after(1), Some(secs(51)));
        assert_eq!(clock.remaining_after(2), Some(secs(56)));
        assert_eq!(clock.remaining_after(3), None);
    }

    #[test]
    fn untimed_never_flags() {
        let mut clock = Clock::new(TimeControl::Unlimited, Color::White);
        assert_eq!(clock.press(secs(1_000_000)), None);
        assert_eq!(clock.flagged(), None);
    }
}
