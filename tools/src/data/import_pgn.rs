//! `tempo-tools data import-pgn`: the games of OpenBench's DATAGEN workloads (PGN, each
//! engine move with a `{score/depth ...}` comment) as viriformat training records.
//!
//! OpenBench's client (Client/pgn_util.py, after fastchess) writes a move's score from the
//! mover's view, in pawns (`+0.31/9`) or as a mate in moves (`+M5/12`, `-M3/20`), then
//! optional time, `n=`, `sd=` parts; opening moves are `{book}`. A record starts after the
//! leading unscored moves; a game with an unscored move after a scored one, no result or a
//! null move is skipped and counted, as is a game the PGN reader cannot read.

use anyhow::{bail, Context, Result};
use std::io::{self, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use tempo_core::{Color, GameResult, Move, Score};
use tempo_notation::{PackedGame, PgnGame, PgnReader, PgnResult, ScoredMove, TrainingFilter};
use tempo_output::write_atomically_with;

/// What an import wrote and skipped.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Imported {
    /// Games written.
    pub games: u64,
    /// Positions written (one per scored move).
    pub positions: u64,
    /// Of those, positions that pass the training filter.
    pub training_positions: u64,
    /// Games skipped as broken (each named on standard error).
    pub skipped: u64,
}

/// The score of a move comment, from the mover's view: the first `SCORE/DEPTH` word.
fn comment_score(comment: &str) -> Option<Score> {
    comment.split(|c: char| c.is_whitespace() || c == ',').find_map(|word| {
        let (score, depth) = word.split_once('/')?;
        depth.parse::<u32>().ok()?;
        let (negative, magnitude) = match score.as_bytes().first()? {
            b'-' => (true, &score[1..]),
            b'+' => (false, &score[1..]),
            _ => (false, score),
        };
        let score = match magnitude.strip_prefix('M') {
            Some(moves) => Score::Mate(moves.parse::<i32>().ok()?),
            None => {
                let pawns: f64 = magnitude.parse().ok().filter(|p: &f64| p.is_finite() && *p < 1000.0)?;
                Score::Cp((pawns * 100.0).round() as i32)
            }
        };
        Some(if negative { -score } else { score })
    })
}

/// One game as a record, or why it is none.
fn record(game: &PgnGame) -> Result<PackedGame, String> {
    let result = match game.export_result() {
        PgnResult::WhiteWins => GameResult::WhiteWins,
        PgnResult::BlackWins => GameResult::BlackWins,
        PgnResult::Draw => GameResult::Draw,
        PgnResult::Ongoing => return Err("no result".to_owned()),
    };
    let mut pos = game.start;
    let mut start = pos;
    let mut moves = Vec::new();
    for (ply, node) in game.moves.iter().enumerate() {
        if node.mv == Move::NULL {
            return Err(format!("ply {}: a null move", ply + 1));
        }
        match node.comments.iter().find_map(|c| comment_score(c)) {
            Some(score) => {
                let score = crate::datagen::white_score(score, pos.turn() == Color::White);
                moves.push(ScoredMove { mv: node.mv, score });
            }
            None if moves.is_empty() => {
                start = {
                    let mut next = pos;
                    next.play_unchecked(node.mv);
                    next
                }
            }
            None => return Err(format!("ply {}: no score after scored moves", ply + 1)),
        }
        pos.play_unchecked(node.mv);
    }
    if moves.is_empty() {
        return Err("no scored move".to_owned());
    }
    let mut packed = PackedGame::new(start, result);
    for m in moves {
        packed.push(m.mv, m.score).map_err(|e| e.to_string())?;
    }
    Ok(packed)
}

/// Imports `files` into the new file `out`, written atomically: a failed import (an
/// unreadable file, a full disk) leaves no partial file behind.
///
/// # Errors
/// If `out` already holds data (never overwritten), a file cannot be read or written, or no
/// game of the files could be imported (nothing is written then).
pub fn import(files: &[PathBuf], out: &Path) -> Result<Imported> {
    if std::fs::metadata(out).is_ok_and(|meta| meta.is_file() && meta.len() > 0) {
        bail!("{} already holds data: name a new --out", out.display());
    }
    let mut imported = Imported::default();
    let mut failure = None;
    let written = write_atomically_with(out, |file| {
        let mut writer = BufWriter::new(file);
        let result = import_into(files, &mut writer, &mut imported).and_then(|()| {
            if imported.games == 0 {
                bail!("no game could be imported ({} skipped): nothing written to {}", imported.skipped, out.display());
            }
            writer.flush().with_context(|| format!("writing {}", out.display()))
        });
        result.map_err(|e| {
            failure = Some(e);
            io::Error::other("import failed")
        })
    });
    match (written, failure) {
        (_, Some(e)) => Err(e),
        (Err(e), None) => Err(e).with_context(|| format!("cannot write {}", out.display())),
        (Ok(()), None) => Ok(imported),
    }
}

/// Reads every game of `files`, writing the importable ones to `writer`.
fn import_into(files: &[PathBuf], writer: &mut impl Write, imported: &mut Imported) -> Result<()> {
    let filter = TrainingFilter::default();
    for path in files {
        let input = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        for (index, game) in PgnReader::new(BufReader::new(input)).games().enumerate() {
            let packed = game.map_err(|e| e.to_string()).and_then(|game| record(&game));
            let packed = match packed {
                Ok(packed) => packed,
                Err(why) => {
                    eprintln!("{}: game {} skipped: {why}", path.display(), index + 1);
                    imported.skipped += 1;
                    continue;
                }
            };
            imported.games += 1;
            imported.positions += packed.moves.len() as u64;
            imported.training_positions += packed.positions().filter(|(pos, m)| filter.accepts(pos, *m)).count() as u64;
            packed.write_to(writer).context("writing the training data")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_comment_reads_or_has_no_score(comment in "([+-]?M?[0-9.]{0,8}/[0-9]{0,4}|\\PC{0,8}| |,){0,4}") {
            if let Some(Score::Cp(cp)) = comment_score(&comment) {
                prop_assert!(cp.abs() < 100_000);
            }
        }
    }

    #[test]
    fn reads_openbenchs_move_comments() {
        assert_eq!(comment_score("+0.31/9"), Some(Score::Cp(31)));
        assert_eq!(comment_score("-1.05/12 0.213s, n=1234, sd=17"), Some(Score::Cp(-105)));
        assert_eq!(comment_score("0.00/1 0.001s"), Some(Score::Cp(0)));
        assert_eq!(comment_score("+M5/12, line=e2e4"), Some(Score::Mate(5)));
        assert_eq!(comment_score("-M3/20"), Some(Score::Mate(-3)));
        for none in ["book", "unknown", "", "+0.31", "x/9", "+0.31/x", "+M/3", "+inf/3", "1e9/3"] {
            assert_eq!(comment_score(none), None, "{none:?}");
        }
    }
}
