//! Clock text: reading the time controls people type, and showing the time left.

use anyhow::{bail, Context, Result};
use std::time::Duration;
use tempo_core::clock::{Clock, TimeControl, TimeUnit};
use tempo_core::Color;

/// Reads `--tc` with core's command-line reader, bare base times in minutes as players say
/// them (`5+3`, `10`); units (`5m+3s`, `90s+2s`) and the PGN forms (`40/5400+30`) read as
/// [`TimeControl::parse_with_units`] documents. A control that gives no time is refused here,
/// since a game under it would be lost before the first move.
pub fn parse_tc(text: &str) -> Result<TimeControl> {
    let control = TimeControl::parse_with_units(text, TimeUnit::Minutes).with_context(|| {
        format!("cannot read time control {text:?}: expected minutes+seconds such as 5+3, or units such as 5m+3s")
    })?;
    let no_increment = match &control {
        TimeControl::Stages(stages) => stages.iter().all(|s| s.increment.is_zero()),
        _ => true,
    };
    if !control.is_timed() || (control.initial_time().is_zero() && no_increment) {
        bail!("time control {text:?} gives no time at all");
    }
    Ok(control)
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
        for bad in ["-", "?", "0", "0m+0s", "5x+3", "5m+", "", "-5"] {
            assert!(parse_tc(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_movetime(2.0).unwrap().to_string(), "1/2");
        assert!(parse_movetime(0.0).is_err());
    }

    #[test]
    fn units_mean_what_the_bare_form_means() {
        for (with_units, bare) in [
            ("5m+3s", "5+3"),
            ("300s+3s", "5+3"),
            ("10m", "10"),
            ("30s+0s", "0.5+0"),
            ("90s+2s", "1.5+2"),
            ("1m30s+2s", "1.5+2"),
            ("1h+30s", "60+30"),
            ("40/90m+30s", "40/5400+30"),
        ] {
            assert_eq!(parse_tc(with_units).unwrap(), parse_tc(bare).unwrap(), "{with_units} = {bare}");
        }
        assert_eq!(describe_tc(&parse_tc("5m+3s").unwrap()), "5+3");
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
}
