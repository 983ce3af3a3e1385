//! Clock text: reading the time controls people type, and showing the time left.

use anyhow::{bail, Context, Result};
use std::time::Duration;
use tempo_core::{
    clock::{Clock, TimeControl},
    Color,
};

/// Reads `--tc`: `MINUTES+SECONDS` as players say it (`5+3`), or, when it has a move count or
/// several periods (`40/5400+30`, `40/5400+30:1800+30`), the PGN TimeControl form in seconds.
/// A bare number is minutes (`10` is ten minutes, not ten seconds).
pub fn parse_tc(text: &str) -> Result<TimeControl> {
    let text = text.trim();
    if text.contains(['/', ':', '*']) {
        let tc: TimeControl = text.parse().with_context(|| format!("cannot read time control {text:?}"))?;
        return Ok(tc);
    }
    let (minutes, increment) = text.split_once('+').unwrap_or((text, "0"));
    let minutes: f64 = minutes
        .trim()
        .parse()
        .ok()
        .filter(|m: &f64| m.is_finite() && *m >= 0.0 && *m <= 100_000.0)
        .with_context(|| format!("cannot read time control {text:?}: expected minutes+seconds such as 5+3"))?;
    let increment: f64 = increment
        .trim()
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s >= 0.0 && *s <= 3600.0)
        .with_context(|| format!("cannot read the increment of {text:?}: expected seconds such as 5+3"))?;
    if minutes == 0.0 && increment == 0.0 {
        bail!("time control {text:?} gives no time at all");
    }
    Ok(TimeControl::fischer(Duration::from_secs_f64(minutes * 60.0), Duration::from_secs_f64(increment)))
}

/// Reads `--movetime SECONDS`.
pub fn parse_movetime(seconds: f64) -> Result<TimeControl> {
    if !seconds.is_finite() || seconds <= 0.0 || seconds > 86_400.0 {
        bail!("--movetime must be a positive number of seconds, not {seconds}");
    }
    Ok(TimeControl::MoveTime(Duration::from_secs_f64(seconds)))
}

/// Time as a clock shows it: `1:05:00`, `4:59`, and tenths in the last 20 seconds (`0:07.3`),
/// when every tenth counts.
pub fn format_time(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    let secs = d.as_secs();
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else if secs >= 20 {
        format!("{}:{:02}", secs / 60, secs % 60)
    } else {
        format!("{}:{:02}.{}", secs / 60, secs % 60, tenths % 10)
    }
}

/// A human description of a time control for the title line: `5+3`, `40 moves in 90 min`...
pub fn describe_tc(tc: &TimeControl) -> String {
    match tc {
        TimeControl::Unknown | TimeControl::Unlimited => "no clock".to_owned(),
        TimeControl::MoveTime(t) => format!("{} s per move", trim_float(t.as_secs_f64())),
        TimeControl::Sandclock(t) => format!("sandclock {}", format_time(*t)),
        TimeControl::Stages(stages) => match stages.as_slice() {
            [single] if single.moves.is_none() => {
                format!(
                    "{}+{}",
                    trim_float(single.time.as_secs_f64() / 60.0),
                    trim_float(single.increment.as_secs_f64())
                )
            }
            _ => tc.to_string(),
        },
    }
}

fn trim_float(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The time `color` has, or `None` when the game has no clock that counts down.
pub fn shown_time(clock: Option<&Clock>, color: Color) -> Option<Duration> {
    let clock = clock?;
    clock.control().is_timed().then(|| clock.remaining(color))
}

/// The increment `color` gets for its next move (to tell an engine).
pub fn increment_for(clock: &Clock, color: Color) -> Duration {
    let TimeControl::Stages(stages) = clock.control() else { return Duration::ZERO };
    let made = clock.moves_made(color);
    let mut start = 0u32;
    for stage in stages {
        match stage.moves {
            Some(m) if made >= start.saturating_add(m) => start = start.saturating_add(m),
            _ => return stage.increment,
        }
    }
    stages.last().map_or(Duration::ZERO, |s| s.increment)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_players_type() {
        assert_eq!(parse_tc("5+3").unwrap().to_string(), "300+3");
        assert_eq!(parse_tc("10+0").unwrap().to_string(), "600");
        assert_eq!(parse_tc("10").unwrap().to_string(), "600");
        assert_eq!(parse_tc("0.5+0").unwrap().to_string(), "30");
        assert_eq!(parse_tc("40/5400+30").unwrap().to_string(), "40/5400+30");
        assert_eq!(parse_tc("40/5400+30:1800+30").unwrap().to_string(), "40/5400+30:1800+30");
        assert!(parse_tc("fast").is_err());
        assert!(parse_tc("0+0").is_err());
        assert!(parse_tc("5+x").is_err());
        assert_eq!(parse_movetime(2.0).unwrap().to_string(), "1/2");
        assert!(parse_movetime(0.0).is_err());
    }

    #[test]
    fn clock_text() {
        assert_eq!(format_time(Duration::from_secs(300)), "5:00");
        assert_eq!(format_time(Duration::from_secs(3900)), "1:05:00");
        assert_eq!(format_time(Duration::from_millis(7_340)), "0:07.3");
        assert_eq!(format_time(Duration::ZERO), "0:00.0");
        assert_eq!(describe_tc(&parse_tc("5+3").unwrap()), "5+3");
        assert_eq!(describe_tc(&parse_tc("0.5+0").unwrap()), "0.5+0");
        assert_eq!(describe_tc(&parse_movetime(2.5).unwrap()), "2.5 s per move");
    }

    #[test]
    fn increments_follow_the_period() {
        let tc: TimeControl = "2/60+1:30+5".parse().unwrap();
        let mut clock = Clock::new(tc, Color::White);
        assert_eq!(increment_for(&clock, Color::White), Duration::from_secs(1));
        for _ in 0..4 {
            clock.press(Duration::ZERO);
        }
        assert_eq!(increment_for(&clock, Color::White), Duration::from_secs(5));
    }
}
