//! Where a game or an analysis starts: a FEN given on the command line, a PGN or EPD file,
//! or a Chess960 setup.
//!
//! Every subcommand takes its position the same way: a positional POSITION argument, which is
//! a file when the text names an existing one (EPD by its `.epd` extension, PGN otherwise)
//! and a FEN when it does not, or the flags `--fen` and `--pgn` that scripts use.

use crate::save::{self, Pick};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use tempo_core::CastlingMode;
use tempo_core::Position;
use tempo_notation::Epd;

/// Where a subcommand's position comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Nothing given: the start position (or the subcommand's own default).
    Default,
    /// A FEN.
    Fen(String),
    /// A PGN file: one of its games.
    Pgn(PathBuf),
    /// An EPD file: one of its records.
    Epd(PathBuf),
}

impl Source {
    /// The source that the positional argument or the flags name (clap lets only one
    /// through). `game` (`--game N`) picks a game of a PGN file or a record of an EPD file.
    ///
    /// # Errors
    /// `--game` without a file, or a text that names a PGN or EPD file that does not exist
    /// (rather than reading the file name as a broken FEN).
    pub fn from_args(
        position: Option<&str>,
        fen: Option<&str>,
        pgn: Option<&Path>,
        game: Option<u64>,
    ) -> Result<Source> {
        let source = match (position, fen, pgn) {
            (Some(text), _, _) => Source::from_positional(text)?,
            (None, Some(fen), _) => Source::Fen(fen.to_owned()),
            (None, None, Some(path)) => Source::Pgn(path.to_owned()),
            (None, None, None) => Source::Default,
        };
        if game.is_some() && !matches!(source, Source::Pgn(_) | Source::Epd(_)) {
            bail!("--game picks a game of a PGN file (or a record of an EPD file), and no file is given");
        }
        Ok(source)
    }

    /// The positional POSITION argument: a file when the text names an existing one (EPD by
    /// its `.epd` extension, PGN otherwise), else a FEN.
    fn from_positional(text: &str) -> Result<Source> {
        let path = Path::new(text);
        let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        let is_epd = extension.as_deref() == Some("epd");
        if path.is_file() {
            return Ok(if is_epd { Source::Epd(path.to_owned()) } else { Source::Pgn(path.to_owned()) });
        }
        if is_epd || extension.as_deref() == Some("pgn") {
            bail!("{text}: no such file (a position is a FEN or the name of a PGN or EPD file)");
        }
        // Every FEN's piece placement has its ranks separated by '/': a word without one is a
        // mistyped file name or subcommand, not a broken FEN.
        if !text.contains('/') {
            bail!("{text:?} is neither a FEN nor an existing file (nor a subcommand: play, show, analyze, perft)");
        }
        Ok(Source::Fen(text.to_owned()))
    }

    /// The position this source names: the start position by default, a FEN read by
    /// [`parse_fen_arg`], the final position of a PGN file's game (`game`, else the last), an
    /// EPD file's record (`game`, else the first).
    pub fn position(&self, game: Option<u64>) -> Result<Position> {
        match self {
            Source::Default => Ok(Position::startpos()),
            Source::Fen(fen) => parse_fen_arg(fen),
            Source::Pgn(path) => Ok(*save::load(path, game.map_or(Pick::Last, Pick::Number), None)?.game.position()),
            Source::Epd(path) => epd_record(path, game.unwrap_or(1)),
        }
    }
}

/// The position of record `number` (from 1; blank lines and `#` comments are not records)
/// of an EPD file.
fn epd_record(path: &Path, number: u64) -> Result<Position> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut records = text.lines().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let count = records.clone().count();
    let index = usize::try_from(number - 1).unwrap_or(usize::MAX);
    let line = records.nth(index).with_context(|| format!("{} holds {count} records, not {number}", path.display()))?;
    let epd = Epd::parse(line).with_context(|| format!("record {number} of {}", path.display()))?;
    Ok(epd.position)
}

/// Reads a FEN argument as people paste it (whitespace around and between the fields, the
/// move counters left out): standard chess, or Chess960 castling (Shredder-FEN or X-FEN) when
/// the standard reading fails; the error is the standard reader's, which names the broken field.
pub fn parse_fen_arg(fen: &str) -> Result<Position> {
    Position::from_fen(fen, CastlingMode::Standard)
        .or_else(|e| Position::from_fen(fen, CastlingMode::Chess960).map_err(|_| e))
        .with_context(|| format!("invalid FEN {fen:?}"))
}

/// A Chess960 start position by its number (0..959), as Scharnagl numbered them.
pub fn chess960_position(number: u32) -> Result<Position> {
    Position::chess960(number).with_context(|| format!("Chess960 positions are numbered 0 to 959, not {number}"))
}

pub fn random_below(n: u32) -> u32 {
    // Enough randomness to pick an opening setup; no need for a random-number crate.
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let mixed = u64::from(nanos).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(std::process::id());
    (mixed % u64::from(n)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_numbering() {
        assert_eq!(chess960_position(518).unwrap().fen(), Position::startpos().fen());
        let fen = chess960_position(0).unwrap().fen();
        assert_eq!(fen.split(' ').next().unwrap(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR");
        assert!(chess960_position(960).is_err());
        assert!(random_below(960) < 960);
    }

    #[test]
    fn a_position_argument_is_a_file_when_one_exists_and_a_fen_otherwise() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("game.pgn");
        std::fs::write(&pgn, "1. e4 e5 *\n").unwrap();
        let epd = dir.path().join("suite.EPD");
        std::fs::write(&epd, "# a comment\n\n4k3/8/8/8/8/8/8/4K3 w - - id \"bare\";\n8/8/8/8/8/8/8/K1k5 b - -\n")
            .unwrap();
        let text = |p: &Path| p.to_str().unwrap().to_owned();
        let from = |position: &str| Source::from_args(Some(position), None, None, None);
        assert_eq!(from(&text(&pgn)).unwrap(), Source::Pgn(pgn.clone()));
        assert_eq!(from(&text(&epd)).unwrap(), Source::Epd(epd.clone()));
        let fen = "4k3/8/8/8/8/8/8/4K3 w - -";
        assert_eq!(from(fen).unwrap(), Source::Fen(fen.to_owned()));
        let missing = text(&dir.path().join("missing.pgn"));
        assert_eq!(
            from(&missing).unwrap_err().to_string(),
            format!("{missing}: no such file (a position is a FEN or the name of a PGN or EPD file)")
        );
        // The game's final position; an EPD file's first record, or the one --game names.
        assert_eq!(
            Source::Pgn(pgn).position(None).unwrap().fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
        );
        assert_eq!(Source::Epd(epd.clone()).position(None).unwrap().fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(Source::Epd(epd.clone()).position(Some(2)).unwrap().fen(), "8/8/8/8/8/8/8/K1k5 b - - 0 1");
        assert!(Source::Epd(epd).position(Some(3)).unwrap_err().to_string().ends_with("holds 2 records, not 3"));
        assert_eq!(
            from("shwo").unwrap_err().to_string(),
            "\"shwo\" is neither a FEN nor an existing file (nor a subcommand: play, show, analyze, perft)"
        );
        // --game needs a file.
        assert!(Source::from_args(Some(fen), None, None, Some(2)).is_err());
        assert_eq!(Source::from_args(None, None, None, None).unwrap(), Source::Default);
    }

    #[test]
    fn fen_arguments() {
        assert!(parse_fen_arg(" 4k3/8/8/8/8/8/8/4K3 w - - 0 1 ").is_ok());
        let err = parse_fen_arg("nonsense").unwrap_err();
        assert!(format!("{err:#}").starts_with("invalid FEN \"nonsense\""), "{err:#}");
    }
}
