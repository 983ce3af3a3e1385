//! The readers of `tempo-tools`' time flags (`--movetime`, `--time-margin`, `--hang-timeout`):
//! core's `parse_duration`, where a bare number is milliseconds, the unit engine testers
//! and the UCI protocol use (`--movetime 100`), and any time may carry units (`100ms`, `2s`,
//! `1m30s`). One unit for every bare time of the binary; only `match --tc` differs, since
//! its `BASE+INC` form is the one cutechess and fastchess write in seconds (`10+0.1`).

use std::time::Duration;
use tempo_core::clock::{parse_duration, TimeUnit};

/// The longest time a time flag takes: a day, beyond any test, and small enough that adding
/// margins to it never overflows.
const LONGEST: Duration = Duration::from_secs(86_400);

/// The shortest hang timeout: an engine needs about this long to start, and waiting less
/// would forfeit engines that are only slow, not hung.
pub const SHORTEST_HANG_TIMEOUT: Duration = Duration::from_secs(1);

/// A time flag's value, zero included (`--time-margin 0`).
pub fn millis(text: &str) -> Result<Duration, String> {
    let time = parse_duration(text, TimeUnit::Milliseconds).map_err(|e| e.to_string())?;
    if time > LONGEST {
        return Err(format!("{text:?} is more than a day"));
    }
    Ok(time)
}

/// A time to think (`--movetime`): more than zero.
pub fn positive_millis(text: &str) -> Result<Duration, String> {
    let time = millis(text)?;
    if time.is_zero() {
        return Err("a time must be more than zero".to_owned());
    }
    Ok(time)
}

/// `--hang-timeout`: at least [`SHORTEST_HANG_TIMEOUT`]. A bare number below it is most
/// likely seconds, the flag's unit before every time of the binary was milliseconds, so the
/// error says how to write it.
pub fn hang_timeout(text: &str) -> Result<Duration, String> {
    let time = millis(text)?;
    if time < SHORTEST_HANG_TIMEOUT {
        return Err(format!(
            "{text:?} is {} ms, less than the 1s an engine may need to start (a bare number is \
             milliseconds: write 60s for a minute)",
            time.as_millis()
        ));
    }
    Ok(time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_numbers_are_milliseconds_and_units_work() {
        let ms = Duration::from_millis;
        assert_eq!(millis("100"), Ok(ms(100)));
        assert_eq!(millis("0"), Ok(Duration::ZERO));
        assert_eq!(millis("0.5"), Ok(Duration::from_micros(500)));
        assert_eq!(millis("2s"), Ok(ms(2000)));
        assert_eq!(millis("1m30s"), Ok(ms(90_000)));
        assert_eq!(positive_millis("250ms"), Ok(ms(250)));
        for bad in ["", "-1", "1x", "25h", "1m30"] {
            assert!(millis(bad).is_err(), "{bad:?}");
        }
        assert!(positive_millis("0").is_err());
        assert!(positive_millis("0s").is_err());
    }

    #[test]
    fn hang_timeouts_below_a_second_are_refused_with_the_unit() {
        assert_eq!(hang_timeout("60s"), Ok(Duration::from_secs(60)));
        assert_eq!(hang_timeout("1000"), Ok(Duration::from_secs(1)));
        let error = hang_timeout("60").unwrap_err();
        assert!(error.contains("60 ms") && error.contains("write 60s"), "{error}");
    }
}
