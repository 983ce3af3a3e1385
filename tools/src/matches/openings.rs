//! Opening positions for matches: an EPD/FEN file (one position per line) or a PGN file
//! (each game's start position and main line).

use anyhow::{bail, Context, Result};
use std::path::Path;
use tempo_core::{Move, Position};
use tempo_notation::{Epd, PgnReader};

/// A start position and the moves played from it before the engines take over (the engines
/// receive them, so they know the game's history).
#[derive(Clone, Debug)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start position.
    pub fn startpos() -> Opening {
        Opening { start: Position::startpos(), moves: Vec::new() }
    }
}

/// Reads the openings of `path`: PGN if it ends in `.pgn`, EPD/FEN lines otherwise.
///
/// # Errors
/// If the file cannot be read, a line or game is broken (with its number), or it is empty.
pub fn load(path: &Path) -> Result<Vec<Opening>> {
    let is_pgn = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let openings = if is_pgn {
        let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let mut out = Vec::new();
        for (i, game) in PgnReader::new(std::io::BufReader::new(file)).games().enumerate() {
            let game = game.with_context(|| format!("{}: game {}", path.display(), i + 1))?;
            out.push(Opening { start: game.start, moves: game.mainline() });
        }
        out
    } else {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let epd = Epd::parse(line).with_context(|| format!("{}:{}", path.display(), i + 1))?;
            out.push(Opening { start: epd.position, moves: Vec::new() });
        }
        out
    };
    if openings.is_empty() {
        bail!("{} holds no openings", path.display());
    }
    Ok(openings)
}
