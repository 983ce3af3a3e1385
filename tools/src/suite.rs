//! Test-suite files (perft suites, `bm`/`am` EPD suites): one record per line, blank lines
//! and `#` comments between them.

use anyhow::{Context, Result};
use std::path::Path;

/// The text of a suite file, without the UTF-8 byte order mark some editors put first
/// (left in, it would become part of the first record's FEN).
///
/// # Errors
/// If the file cannot be read or is not UTF-8.
pub fn read(path: &Path) -> Result<String> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// The records of a suite: every line that is neither blank nor a `#` comment, trimmed
/// (which also drops the `\r` of CRLF files), with its 1-based line number.
pub fn records(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// The error of a suite with nothing to test: an empty file (or a mistyped one, only
/// comments) must not pass as a suite whose every position passed.
pub fn nothing_to_test(path: &Path, what: &str) -> anyhow::Error {
    anyhow::anyhow!("{} holds no {what}: nothing to test", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_skip_blank_and_comment_lines_and_keep_line_numbers() {
        let text = "# header\r\n\r\n  \nfirst ;D1 20\r\n# note\n  second\n";
        assert_eq!(records(text).collect::<Vec<_>>(), [(4, "first ;D1 20"), (6, "second")]);
    }

    #[test]
    fn read_strips_a_byte_order_mark() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bom.epd");
        std::fs::write(&path, "\u{feff}8/8/8/8/8/8/8/k6K w - - 0 1 ;D1 3\n").unwrap();
        assert_eq!(read(&path).unwrap(), "8/8/8/8/8/8/8/k6K w - - 0 1 ;D1 3\n");
    }
}
