//! PGN `Date` and `Time` tag values from a moment given as seconds since the Unix epoch (UTC).
//! Pure: the caller reads the wall clock.

/// `("YYYY.MM.DD", "HH:MM:SS")` in UTC for `unix_secs` seconds after 1970-01-01 00:00:00.
///
/// ```
/// assert_eq!(tempo_notation::pgn_date_time(0), ("1970.01.01".to_owned(), "00:00:00".to_owned()));
/// assert_eq!(tempo_notation::pgn_date_time(951_782_400).0, "2000.02.29");
/// ```
pub fn pgn_date_time(unix_secs: u64) -> (String, String) {
    let (y, m, d) = civil_from_days((unix_secs / 86_400) as i64);
    let (hh, mm, ss) = (unix_secs / 3600 % 24, unix_secs / 60 % 60, unix_secs % 60);
    (format!("{y:04}.{m:02}.{d:02}"), format!("{hh:02}:{mm:02}:{ss:02}"))
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm), so that
/// the tags need no date crate.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_across_leap_years_and_centuries() {
        assert_eq!(pgn_date_time(86_399), ("1970.01.01".to_owned(), "23:59:59".to_owned()));
        assert_eq!(pgn_date_time(951_868_800).0, "2000.03.01");
        assert_eq!(pgn_date_time(1_795_478_400 + 3_723), ("2026.11.24".to_owned(), "01:02:03".to_owned()));
        assert_eq!(pgn_date_time(4_107_542_400).0, "2100.03.01");
        assert_eq!(pgn_date_time(19_723 * 86_400).0, "2024.01.01");
    }
}
