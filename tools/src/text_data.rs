//! The text training format, one position a line: `FEN | score | result`, the score in
//! centipawns and the result 1.0, 0.5 or 0.0, both from White's view (`datagen --format
//! text` writes it; the trainer and the tuner read it through [`parse_line`]).

use anyhow::{bail, Context, Result};
use tempo_core::Position;

/// One line of the text training format.
#[derive(Clone, Debug, PartialEq)]
pub struct TextLine {
    /// The position.
    pub pos: Position,
    /// Its score in centipawns, White's view.
    pub score: f64,
    /// The game's result, White's view: 1.0, 0.5 or 0.0.
    pub result: f64,
}

/// Parses one line, `FEN | score | result` (spaces around the fields allowed).
///
/// # Errors
/// If the line has not three fields, the FEN is not a legal position, the score not a
/// number, or the result not 1.0, 0.5 or 0.0.
pub fn parse_line(line: &str) -> Result<TextLine> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    if fields.len() != 3 {
        bail!("expected `FEN | score | result`");
    }
    let pos: Position = fields[0].parse()?;
    let score: f64 = fields[1].parse().context("score")?;
    let result: f64 = fields[2].parse().context("result")?;
    if ![0.0, 0.5, 1.0].contains(&result) {
        bail!("result must be 1.0, 0.5 or 0.0");
    }
    Ok(TextLine { pos, score, result })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_or_refused_with_a_reason() {
        let line = parse_line("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 | -35 | 0.5").unwrap();
        assert_eq!((line.pos.fen(), line.score, line.result), ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1".into(), -35.0, 0.5));
        for (bad, words) in [
            ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 | -35", "expected"),
            ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 | x | 1.0", "score"),
            ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 | 10 | 0.7", "result"),
        ] {
            assert!(format!("{:#}", parse_line(bad).unwrap_err()).contains(words), "{bad}");
        }
        assert!(parse_line("not a fen | 0 | 1.0").is_err());
    }
}
