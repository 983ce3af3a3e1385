//! Time controls and a pure chess clock.
//!
//! [`TimeControl`] reads and writes the PGN `TimeControl` tag (PGN standard, section 9.6.1)
//! plus the fixed time per move used by engine matches, and reads the command-line form with
//! units ([`TimeControl::parse_with_units`]) that every binary's `--tc` shares, and one time
//! alone ([`parse_duration`]) for every other time flag. [`Clock`] does
//! the arithmetic: it is fed explicit elapsed durations (core never reads the wall clock),
//! charges them to the side to move, adds increments and period bonuses, reports flag fall,
//! and keeps a snapshot per move so that taking a move back restores both players' time
//! exactly.

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

/// A time control that cannot be read (a `TimeControl` tag value, or a command-line control
/// for [`TimeControl::parse_with_units`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// The text is empty (or only white space).
    #[error("empty time control")]
    Empty,
    /// The text does not follow the grammar of a time control.
    #[error("malformed time control {text:?}: {reason}")]
    Malformed {
        /// The time control as given.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A time carries a suffix that is not a unit (`h`, `m`, `s`, `ms`).
    #[error("unknown time unit {unit:?} in {text:?}: use h, m, s or ms")]
    UnknownUnit {
        /// The time control as given.
        text: String,
        /// The suffix that is not a unit.
        unit: String,
    },
    /// A time does not fit in a `Duration` of milliseconds.
    #[error("time {time:?} in {text:?} is too long")]
    Overflow {
        /// The time control as given.
        text: String,
        /// The time that is too long.
        time: String,
    },
}

/// A time on a command line that cannot be read by [`parse_duration`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// The text is empty (or only white space).
    #[error("empty time")]
    Empty,
    /// The text is not a time: a negative or missing number, units out of order.
    #[error("malformed time {text:?}: {reason}")]
    Malformed {
        /// The time as given.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The time carries a suffix that is not a unit (`h`, `m`, `s`, `ms`).
    #[error("unknown time unit {unit:?} in {text:?}: use h, m, s or ms")]
    UnknownUnit {
        /// The time as given.
        text: String,
        /// The suffix that is not a unit.
        unit: String,
    },
    /// The time does not fit in a [`Duration`].
    #[error("time {text:?} is too long")]
    Overflow {
        /// The time as given.
        text: String,
    },
}

/// Reads one time as people type it on a command line (`--movetime 10s`): a non-negative
/// decimal number (at most nine decimals) with an optional unit `h`, `m`, `s` or `ms`, or
/// several numbers with units in decreasing order that add up (`1m30s`, `1h30m`); a bare
/// number is in `bare`, the unit the caller's flag documents. Spaces around it are ignored.
/// It is the reader of every time inside [`TimeControl::parse_with_units`], so a time means
/// the same alone and in a control.
///
/// ```
/// use std::time::Duration;
/// use tempo_core::clock::{parse_duration, TimeUnit};
/// assert_eq!(parse_duration("1m30s", TimeUnit::Seconds), Ok(Duration::from_secs(90)));
/// assert_eq!(parse_duration("500", TimeUnit::Milliseconds), Ok(Duration::from_millis(500)));
/// assert_eq!(parse_duration("0.5", TimeUnit::Seconds), Ok(Duration::from_millis(500)));
/// ```
///
/// # Errors
/// [`DurationError::Empty`] for blank text, [`DurationError::UnknownUnit`] for a suffix other
/// than the four units, [`DurationError::Overflow`] for a time beyond [`Duration::MAX`], and
/// [`DurationError::Malformed`] for anything else that is not a time.
pub fn parse_duration(text: &str, bare: TimeUnit) -> Result<Duration, DurationError> {
    if text.trim().is_empty() {
        return Err(DurationError::Empty);
    }
    let syntax = TimeSyntax { units: true, bare_base: bare };
    parse_time(text, bare, syntax, text).map_err(|e| match e {
        TimeControlError::Empty => DurationError::Empty,
        TimeControlError::Malformed { text, reason } => DurationError::Malformed { text, reason },
        TimeControlError::UnknownUnit { text, unit } => DurationError::UnknownUnit { text, unit },
        TimeControlError::Overflow { text, .. } => DurationError::Overflow { text },
    })
}

/// The unit of a time written on a command line; see [`parse_duration`] and
/// [`TimeControl::parse_with_units`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// `ms`
    Milliseconds,
    /// `s`
    Seconds,
    /// `m`
    Minutes,
    /// `h`
    Hours,
}

impl TimeUnit {
    /// The suffix that names the unit: `ms`, `s`, `m` or `h`.
    pub fn suffix(self) -> &'static str {
        match self {
            TimeUnit::Milliseconds => "ms",
            TimeUnit::Seconds => "s",
            TimeUnit::Minutes => "m",
            TimeUnit::Hours => "h",
        }
    }

    fn nanos(self) -> u128 {
        match self {
            TimeUnit::Milliseconds => 1_000_000,
            TimeUnit::Seconds => 1_000_000_000,
            TimeUnit::Minutes => 60_000_000_000,
            TimeUnit::Hours => 3_600_000_000_000,
        }
    }

    fn from_suffix(suffix: &str) -> Option<TimeUnit> {
        [TimeUnit::Milliseconds, TimeUnit::Seconds, TimeUnit::Minutes, TimeUnit::Hours]
            .into_iter()
            .find(|u| u.suffix() == suffix)
    }
}

/// How the times inside a time control are written.
#[derive(Clone, Copy)]
struct TimeSyntax {
    /// Unit suffixes (`5m`, `1m30s`) are accepted; otherwise only bare seconds (PGN).
    units: bool,
    /// The unit of the bare base time of the `BASE[+INC]` form; bare numbers elsewhere
    /// are seconds, as in PGN.
    bare_base: TimeUnit,
}

impl TimeSyntax {
    const PGN: TimeSyntax = TimeSyntax { units: false, bare_base: TimeUnit::Seconds };
}

impl TimeControl {
    /// Sudden death with a Fischer increment (`base+inc`).
    pub fn fischer(base: Duration, increment: Duration) -> TimeControl {
        TimeControl::Stages(vec![Stage { moves: None, time: base, increment }])
    }

    /// Reads a time control as people type it on a command line: the `TimeControl` tag forms
    /// (see the table on [`TimeControl`]), where any time may also carry units.
    ///
    /// - A time is a non-negative decimal number (at most nine decimals) with an optional unit
    ///   `h`, `m`, `s` or `ms`; several numbers with units in decreasing order add up (`1m30s`,
    ///   `1h30m`). Spaces around a time are ignored.
    /// - `BASE+INC` or `BASE` (sudden death): a bare `BASE` is in `bare_base` (minutes for
    ///   players' `5+3`, seconds for engine testers' `10+0.1`); a bare `INC` is in seconds.
    /// - The forms with a move count, several periods, a sandclock or a fixed move time
    ///   (`40/5400+30`, `40/90m+30s:30m+30s`, `*60`, `1/30`) read bare numbers as seconds,
    ///   as the PGN tag does, whatever `bare_base` is.
    ///
    /// So `5m+3s` is `5+3` with `bare_base` minutes and `300+3` with seconds, and both are
    /// `TimeControl::fischer(300 s, 3 s)`.
    ///
    /// # Errors
    /// [`TimeControlError::Empty`] for blank text, [`TimeControlError::UnknownUnit`] for a
    /// suffix other than the four units, [`TimeControlError::Overflow`] for a time beyond
    /// [`Duration::MAX`], and [`TimeControlError::Malformed`] for anything else that is not a
    /// time control (negative or missing numbers, units out of order, a sudden-death period
    /// before another one, a zero move count).
    pub fn parse_with_units(text: &str, bare_base: TimeUnit) -> Result<TimeControl, TimeControlError> {
        parse_control(text, TimeSyntax { units: true, bare_base })
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

/// Reads one time of a control: a bare number in `bare`, or (when `syntax` allows units)
/// number-unit pairs in decreasing unit order, summed; never overflowing or panicking.
fn parse_time(text: &str, bare: TimeUnit, syntax: TimeSyntax, whole: &str) -> Result<Duration, TimeControlError> {
    let bad = |reason| TimeControlError::Malformed { text: whole.to_owned(), reason };
    let not_a_time = if syntax.units {
        "times must be non-negative numbers with an optional unit (h, m, s, ms)"
    } else {
        "seconds must be a non-negative number"
    };
    let time = if syntax.units { text.trim() } else { text };
    let mut rest = time;
    let mut total: u128 = 0;
    let mut last_unit: Option<TimeUnit> = None;
    while !rest.is_empty() {
        let number_len = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let (number, after) = rest.split_at(number_len);
        let unit_len = after.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(after.len());
        let (suffix, after) = after.split_at(unit_len);
        let (int, frac) = number.split_once('.').unwrap_or((number, ""));
        if int.is_empty() || number.ends_with('.') || frac.contains('.') {
            return Err(bad(not_a_time));
        }
        let unit = if suffix.is_empty() {
            // A bare number stands alone: `1m30` would leave its unit to guesswork.
            if last_unit.is_some() {
                return Err(bad("every part of a time needs a unit once one has one (1m30s)"));
            }
            bare
        } else if !syntax.units {
            return Err(bad(not_a_time));
        } else {
            TimeUnit::from_suffix(suffix)
                .ok_or_else(|| TimeControlError::UnknownUnit { text: whole.to_owned(), unit: suffix.to_owned() })?
        };
        if last_unit.is_some_and(|last| last.nanos() <= unit.nanos()) {
            return Err(bad("units must go from larger to smaller (1h30m, 1m30s)"));
        }
        if frac.len() > 9 {
            return Err(bad("more than nine decimals"));
        }
        let overflow = || TimeControlError::Overflow { text: whole.to_owned(), time: time.to_owned() };
        let int: u128 = int.parse().map_err(|_| overflow())?;
        let frac_value: u128 = if frac.is_empty() { 0 } else { frac.parse().map_err(|_| bad("bad fraction"))? };
        // Exact below a nanosecond except for milliseconds with more than six decimals, which
        // are cut to whole nanoseconds.
        let part = int
            .checked_mul(unit.nanos())
            .and_then(|n| n.checked_add(frac_value * unit.nanos() / 10u128.pow(frac.len() as u32)))
            .ok_or_else(overflow)?;
        total = total.checked_add(part).ok_or_else(overflow)?;
        last_unit = Some(unit).filter(|_| !suffix.is_empty());
        rest = after;
    }
    if time.is_empty() {
        return Err(bad(not_a_time));
    }
    let secs = u64::try_from(total / 1_000_000_000)
        .map_err(|_| TimeControlError::Overflow { text: whole.to_owned(), time: time.to_owned() })?;
    Ok(Duration::new(secs, (total % 1_000_000_000) as u32))
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

    /// Parses a `TimeControl` tag value (see the table on [`TimeControl`]): bare seconds only.
    ///
    /// # Errors
    /// [`TimeControlError`] for an empty or malformed value, such as a sudden-death period
    /// followed by another period or a zero move count.
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        parse_control(text, TimeSyntax::PGN)
    }
}

/// The grammar shared by the PGN tag and the command-line form; `syntax` says how times read.
fn parse_control(text: &str, syntax: TimeSyntax) -> Result<TimeControl, TimeControlError> {
    let text = text.trim();
    let bad = |reason| TimeControlError::Malformed { text: text.to_owned(), reason };
    let secs = TimeUnit::Seconds;
    match text {
        "" => return Err(TimeControlError::Empty),
        "?" => return Ok(TimeControl::Unknown),
        "-" => return Ok(TimeControl::Unlimited),
        _ => {}
    }
    if let Some(rest) = text.strip_prefix('*') {
        return Ok(TimeControl::Sandclock(parse_time(rest, secs, syntax, text)?));
    }
    if let Some(rest) = text.strip_prefix("1/") {
        if !rest.contains([':', '+', '/']) {
            return Ok(TimeControl::MoveTime(parse_time(rest, secs, syntax, text)?));
        }
    }
    let mut stages = Vec::new();
    let periods: Vec<&str> = text.split(':').collect();
    // Only the players' `BASE[+INC]` form has a base in another unit than seconds.
    let simple = periods.len() == 1 && !text.contains('/');
    let bare_base = if simple { syntax.bare_base } else { secs };
    for (i, period) in periods.iter().enumerate() {
        let (moves, rest) = match period.split_once('/') {
            Some((m, r)) => {
                let m = if syntax.units { m.trim() } else { m };
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
            Some((t, inc)) => (parse_time(t, bare_base, syntax, text)?, parse_time(inc, secs, syntax, text)?),
            None => (parse_time(rest, bare_base, syntax, text)?, Duration::ZERO),
        };
        stages.push(Stage { moves, time, increment });
    }
    Ok(TimeControl::Stages(stages))
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
    fn command_line_units() {
        use TimeUnit::{Minutes, Seconds};
        let parse = TimeControl::parse_with_units;
        let ms = Duration::from_millis;
        // Players' bare form is minutes + seconds, engine testers' is seconds + seconds;
        // explicit units mean the same in both.
        assert_eq!(parse("5+3", Minutes), Ok(TimeControl::fischer(secs(300), secs(3))));
        for text in ["5m+3s", "300s+3", "300s+3s", "5m+3000ms", " 5m + 3s ", "4m60s+3s"] {
            assert_eq!(parse(text, Minutes), parse("5+3", Minutes), "{text}");
            assert_eq!(parse(text, Seconds), parse("5+3", Minutes), "{text}");
        }
        assert_eq!(parse("10+0.1", Seconds), Ok(TimeControl::fischer(secs(10), ms(100))));
        for text in ["10s+0.1s", "10s+100ms", "10000ms+0.1", "10+0.1s"] {
            assert_eq!(parse(text, Seconds), parse("10+0.1", Seconds), "{text}");
        }
        assert_eq!(parse("10", Minutes), Ok(TimeControl::fischer(secs(600), Duration::ZERO)));
        assert_eq!(parse("0.5+0", Minutes), Ok(TimeControl::fischer(secs(30), Duration::ZERO)));
        assert_eq!(parse("10", Seconds), Ok(TimeControl::fischer(secs(10), Duration::ZERO)));
        for text in ["90s+2s", "1m30s+2s", "1.5m+2", "1m30000ms+2000ms"] {
            assert_eq!(parse(text, Minutes), Ok(TimeControl::fischer(secs(90), secs(2))), "{text}");
        }
        assert_eq!(parse("1h30m", Minutes), Ok(TimeControl::fischer(secs(5400), Duration::ZERO)));
        assert_eq!(parse("1.5h+30s", Seconds), Ok(TimeControl::fischer(secs(5400), secs(30))));
        // The PGN forms read bare numbers as seconds, whatever the bare base unit; units work.
        for (text, tag) in [
            ("40/5400+30", "40/5400+30"),
            ("40/90m+30s:30m+30s", "40/5400+30:1800+30"),
            ("40/1h30m+30:1800+30s", "40/5400+30:1800+30"),
            ("1/30", "1/30"),
            ("1/500ms", "1/0.5"),
            ("*1m", "*60"),
            ("*60", "*60"),
            ("?", "?"),
            ("-", "-"),
        ] {
            let expected: TimeControl = tag.parse().unwrap();
            assert_eq!(parse(text, Minutes), Ok(expected.clone()), "{text}");
            assert_eq!(parse(text, Seconds), Ok(expected), "{text}");
        }
        // With seconds as the bare unit, every tag reads as the PGN tag does.
        for text in ["300", "180+2", "40/5400+30:1800+30", "40/7200", "*60", "1/30", "10+0.1", "0.5+0.05"] {
            assert_eq!(parse(text, Seconds), text.parse::<TimeControl>(), "{text}");
        }
        // The PGN tag itself stays in bare seconds.
        assert!("5m+3s".parse::<TimeControl>().is_err());
    }

    #[test]
    fn command_line_garbage() {
        use TimeUnit::{Minutes, Seconds};
        let parse = TimeControl::parse_with_units;
        for unit in [Minutes, Seconds] {
            for text in [
                "",
                "  ",
                "5m+",
                "+3",
                "-5",
                "-5m",
                "5+-3",
                "m",
                "5+m",
                "1m30",
                "30s1m",
                "1m1m",
                "1s5ms3s",
                "1.",
                ".5",
                "1.2.3",
                "5++3",
                "40/",
                "0/5m",
                "5m:40/90m",
                "1.0000000001s",
                "5 m+3",
                "1/",
                "*",
                "5m+3s+1s",
            ] {
                assert!(parse(text, unit).is_err(), "{text:?} should be rejected");
            }
        }
        assert_eq!(parse("", Minutes), Err(TimeControlError::Empty));
        assert_eq!(
            parse("5x+3", Minutes),
            Err(TimeControlError::UnknownUnit { text: "5x+3".to_owned(), unit: "x".to_owned() })
        );
        assert!(matches!(parse("5m+3min", Minutes), Err(TimeControlError::UnknownUnit { unit, .. }) if unit == "min"));
        assert!(matches!(parse("5m+", Minutes), Err(TimeControlError::Malformed { .. })));
        assert!(matches!(parse("-5", Minutes), Err(TimeControlError::Malformed { .. })));
        for huge in [
            "18446744073709551616s",
            "18446744073709551616",
            "9999999999999999h",
            "307445734561825861m",
            "5+99999999999999999999999999999999999999999999",
            "40/5400+30:1h99999999999999999999m",
        ] {
            assert!(matches!(parse(huge, Seconds), Err(TimeControlError::Overflow { .. })), "{huge}");
        }
        // The largest time that fits is read exactly.
        let max = format!("{}.999999999s", u64::MAX);
        assert_eq!(parse(&max, Seconds).unwrap().initial_time(), Duration::MAX);
    }

    #[test]
    fn durations_alone() {
        use TimeUnit::{Milliseconds, Minutes, Seconds};
        let ms = Duration::from_millis;
        // A bare number is in the caller's unit; units mean the same whatever it is.
        assert_eq!(parse_duration("10", Seconds), Ok(secs(10)));
        assert_eq!(parse_duration("10", Milliseconds), Ok(ms(10)));
        assert_eq!(parse_duration("1.5", Minutes), Ok(secs(90)));
        for bare in [Milliseconds, Seconds, Minutes] {
            assert_eq!(parse_duration("500ms", bare), Ok(ms(500)));
            assert_eq!(parse_duration(" 10s ", bare), Ok(secs(10)));
            assert_eq!(parse_duration("2m", bare), Ok(secs(120)));
            assert_eq!(parse_duration("1m30s", bare), Ok(secs(90)));
            assert_eq!(parse_duration("1h30m", bare), Ok(secs(5400)));
            assert_eq!(parse_duration("0.1s", bare), Ok(ms(100)));
            assert_eq!(parse_duration("0", bare), Ok(Duration::ZERO));
        }
        // The same text reads the same alone and as the increment of a control.
        let control = TimeControl::parse_with_units("1m+1m30s", Seconds).unwrap();
        assert_eq!(control, TimeControl::fischer(secs(60), parse_duration("1m30s", Seconds).unwrap()));
    }

    #[test]
    fn duration_garbage() {
        use TimeUnit::Seconds;
        assert_eq!(parse_duration("", Seconds), Err(DurationError::Empty));
        assert_eq!(parse_duration("   ", Seconds), Err(DurationError::Empty));
        assert_eq!(
            parse_duration("10x", Seconds),
            Err(DurationError::UnknownUnit { text: "10x".to_owned(), unit: "x".to_owned() })
        );
        assert_eq!(
            parse_duration("18446744073709551616s", Seconds),
            Err(DurationError::Overflow { text: "18446744073709551616s".to_owned() })
        );
        for text in ["-5", "1m30", "30s1m", "1.", ".5", "5 m", "5+3", "1/30", "*60", "s", "1:30"] {
            assert!(
                matches!(parse_duration(text, Seconds), Err(DurationError::Malformed { .. })),
                "{text:?} should be malformed: {:?}",
                parse_duration(text, Seconds)
            );
        }
        assert_eq!(
            parse_duration("abc", Seconds).unwrap_err().to_string(),
            "malformed time \"abc\": times must be non-negative numbers with an optional unit (h, m, s, ms)"
        );
    }

    proptest::proptest! {
        /// No input makes the duration reader panic.
        #[test]
        fn parse_duration_never_panics(text in "\\PC{0,24}", grammar in "[0-9.hms ]{0,16}") {
            for unit in [TimeUnit::Milliseconds, TimeUnit::Seconds, TimeUnit::Minutes, TimeUnit::Hours] {
                let _ = parse_duration(&text, unit);
                let _ = parse_duration(&grammar, unit);
            }
        }

        /// Whole milliseconds read back exactly, bare and with units.
        #[test]
        fn durations_read_exactly(millis in 0u64..100_000_000_000) {
            let expected = Ok(Duration::from_millis(millis));
            proptest::prop_assert_eq!(parse_duration(&millis.to_string(), TimeUnit::Milliseconds), expected.clone());
            proptest::prop_assert_eq!(parse_duration(&format!("{millis}ms"), TimeUnit::Minutes), expected.clone());
            let bare = format!("{}.{:03}", millis / 1000, millis % 1000);
            proptest::prop_assert_eq!(parse_duration(&bare, TimeUnit::Seconds), expected);
        }

        /// No input makes the command-line reader panic.
        #[test]
        fn parse_with_units_never_panics(text in "\\PC{0,24}", grammar in "[0-9.hms+/:* ?x-]{0,16}") {
            for unit in [TimeUnit::Milliseconds, TimeUnit::Seconds, TimeUnit::Minutes, TimeUnit::Hours] {
                let _ = TimeControl::parse_with_units(&text, unit);
                let _ = TimeControl::parse_with_units(&grammar, unit);
            }
        }

        /// Whole milliseconds written with units read back exactly, and as bare seconds too.
        #[test]
        fn units_read_exactly(base in 0u64..10_000_000_000, inc in 0u64..100_000_000) {
            let expected = TimeControl::fischer(Duration::from_millis(base), Duration::from_millis(inc));
            let with_units = format!("{base}ms+{inc}ms");
            proptest::prop_assert_eq!(TimeControl::parse_with_units(&with_units, TimeUnit::Minutes), Ok(expected.clone()));
            let bare = format!("{}.{:03}+{}.{:03}", base / 1000, base % 1000, inc / 1000, inc % 1000);
            proptest::prop_assert_eq!(TimeControl::parse_with_units(&bare, TimeUnit::Seconds), Ok(expected));
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
