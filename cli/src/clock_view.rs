//! Clock text: reading the time controls people type, and showing the time left.

use anyhow::{bail, Context, Result};
use std::time::Duration;
use tempo_core::clock::{parse_duration, Clock, TimeControl, TimeUnit};
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

/// The longest time a time flag takes: a day, far beyond any game, and small enough that no
/// clock arithmetic on it can overflow.
const LONGEST: Duration = Duration::from_secs(86_400);

/// Reads the value of a time flag of `tempo` (`--movetime`, `--think`): core's
/// [`parse_duration`], where a bare number is seconds, the unit players think in (`10`,
/// `0.5`), and any time may carry units (`10s`, `500ms`, `2m`, `1m30s`). The time must be
/// more than zero and at most a day. Only `--tc` reads bare numbers otherwise (`5+3`).
pub fn parse_time_flag(text: &str) -> Result<Duration, String> {
    let time = parse_time_or_zero(text)?;
    if time.is_zero() {
        return Err("a time must be more than zero".to_owned());
    }
    Ok(time)
}

/// [`parse_time_flag`] for a flag where zero means something (`--fake-move-time 0`: moves
/// cost nothing).
pub fn parse_time_or_zero(text: &str) -> Result<Duration, String> {
    let time = parse_duration(text, TimeUnit::Seconds).map_err(|e| e.to_string())?;
    if time > LONGEST {
        return Err(format!("{text:?} is more than a day"));
    }
    Ok(time)
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
            // Players' form, minutes + seconds, where the minutes read exactly in two decimals
            // (`5+3`, `0.5+0`); any other base in seconds with its unit (`4s+0`, not `0.07+0`).
            [single] if single.moves.is_none() => {
                let millis = single.time.as_millis();
                let base = if millis >= 15_000 && millis % 600 == 0 {
                    trim_float(single.time.as_secs_f64() / 60.0)
                } else {
                    format!("{}s", trim_float(single.time.as_secs_f64()))
                };
                format!("{base}+{}", trim_float(single.increment.as_secs_f64()))
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
    }

    #[test]
    fn time_flags_read_bare_seconds_and_units() {
        let secs = Duration::from_secs;
        assert_eq!(parse_time_flag("1"), Ok(secs(1)));
        assert_eq!(parse_time_flag("2.5"), Ok(Duration::from_millis(2500)));
        assert_eq!(parse_time_flag("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_time_flag("10s"), Ok(secs(10)));
        assert_eq!(parse_time_flag("1m30s"), Ok(secs(90)));
        assert_eq!(parse_time_flag("24h"), Ok(secs(86_400)));
        for bad in ["0", "0s", "", "-1", "1x", "24h1s", "fast"] {
            assert!(parse_time_flag(bad).is_err(), "{bad:?}");
        }
        assert_eq!(parse_time_or_zero("0"), Ok(Duration::ZERO));
        assert_eq!(parse_time_or_zero("2000ms"), Ok(secs(2)));
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
        assert_eq!(describe_tc(&parse_tc("4s+0").unwrap()), "4s+0");
        assert_eq!(describe_tc(&parse_tc("100s+1").unwrap()), "100s+1");
        assert_eq!(describe_tc(&TimeControl::MoveTime(Duration::from_millis(2500))), "2.5 s per move");
    }
}
