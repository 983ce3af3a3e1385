//! `tempo-tools data`: training data files. `stats` reads viriformat files (every move
//! checked for legality) and prints what they hold: games, positions, the positions a
//! trainer learns from, results and scores. `import-pgn` turns OpenBench's DATAGEN games
//! into viriformat. `wdl-fit` fits the engine's win/draw/loss model to scored games.

mod import_pgn;
mod wdl_fit;

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use std::path::PathBuf;
use tempo_core::GameResult;
use tempo_notation::{TrainingFilter, ViriReader};

#[derive(Subcommand)]
pub enum DataCommand {
    /// Validate viriformat files and print their statistics; exit 1 if a game is broken. A
    /// file whose first 5 records are all broken, or in which no record is a game, is not
    /// viriformat: reading stops with an error.
    Stats {
        /// Files written by `tempo-tools datagen` in viriformat (`.vf`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the statistics as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Turn OpenBench DATAGEN games or `tempo-tools match` games (PGN, each engine move with a
    /// `{score/depth}` comment from the mover's view) into viriformat records. A game that cannot be read, has no result
    /// or has an unscored move after scored ones is skipped and counted.
    ImportPgn {
        /// PGN files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The viriformat file to write (`.vf`); one that holds data is refused.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fit the engine's win/draw/loss model (`UCI_ShowWDL`) to the results of scored games:
    /// prints each material count's fit, then the cubics as the engine's `WDL_A` and `WDL_B`
    /// constants, with the mean log-likelihood of the results under them and under the
    /// engine's present ones.
    WdlFit {
        /// Viriformat files (`datagen` output), the scores their engine's.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// A file whose first this many records are all broken is not viriformat data at all (a
/// network, a PGN, random bytes): reading stops there with one verdict instead of a line per
/// misread record. A real file with broken games among good ones still reports each.
const BROKEN_RECORDS_BEFORE_GIVING_UP: u64 = 5;

/// What a file holds.
#[derive(Default, serde::Serialize)]
struct Stats {
    games: u64,
    /// Every recorded position (one per move).
    positions: u64,
    /// Positions that pass the training filter.
    training_positions: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    /// Mean absolute score of the training positions, in centipawns.
    mean_abs_score: f64,
    /// Broken games (each reported on standard error).
    errors: u64,
}

fn stats_of(file: &PathBuf) -> Result<Stats> {
    let input = std::fs::File::open(file).with_context(|| format!("cannot open {}", file.display()))?;
    let filter = TrainingFilter::default();
    let mut stats = Stats::default();
    let mut abs_sum = 0u64;
    for game in ViriReader::new(input) {
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                stats.errors += 1;
                eprintln!("{}: {e}", file.display());
                if stats.games == 0 && stats.errors == BROKEN_RECORDS_BEFORE_GIVING_UP {
                    bail!(
                        "{}: not a viriformat file: its first {BROKEN_RECORDS_BEFORE_GIVING_UP} records are all broken",
                        file.display()
                    );
                }
                continue;
            }
        };
        stats.games += 1;
        match game.result {
            GameResult::WhiteWins => stats.white_wins += 1,
            GameResult::Draw => stats.draws += 1,
            GameResult::BlackWins => stats.black_wins += 1,
        }
        stats.positions += game.moves.len() as u64;
        for (pos, m) in game.positions() {
            if filter.accepts(&pos, m) {
                stats.training_positions += 1;
                abs_sum += u64::from(m.score.unsigned_abs());
            }
        }
    }
    // Reading also stops at the first record that cannot be skipped (too long, cut off): a
    // file in which no record at all was a game is not training data either.
    if stats.games == 0 && stats.errors > 0 {
        bail!("{}: not a viriformat file: none of its records is a game", file.display());
    }
    if stats.games == 0 {
        bail!("{}: holds no game (the file is empty)", file.display());
    }
    stats.mean_abs_score = abs_sum as f64 / stats.training_positions.max(1) as f64;
    Ok(stats)
}

fn print_wdl_fit(fit: &wdl_fit::WdlFit) -> Result<()> {
    outln!("{} games, {} positions with a score within 1500 cp", fit.games, fit.positions)?;
    outln!("material  positions         a         b")?;
    for m in &fit.by_material {
        outln!("{:>8}  {:>9}  {:>8.2}  {:>8.2}", m.material, m.positions, m.a, m.b)?;
    }
    let list = |c: &[f64; 4]| c.iter().map(|x| format!("{x:.4}")).collect::<Vec<_>>().join(", ");
    outln!("pub const WDL_A: [f64; 4] = [{}];", list(&fit.a))?;
    outln!("pub const WDL_B: [f64; 4] = [{}];", list(&fit.b))?;
    outln!(
        "mean log-likelihood of the results: {:.5} fitted, {:.5} under the engine's present model",
        fit.log_likelihood,
        fit.log_likelihood_engine
    )?;
    Ok(())
}

/// Runs the command.
pub fn run(command: &DataCommand) -> Result<bool> {
    let (files, json) = match command {
        DataCommand::Stats { files, json } => (files, json),
        DataCommand::ImportPgn { files, out } => {
            let imported = import_pgn::import(files, out)?;
            outln!(
                "{}: {} games, {} positions, {} for training; {} broken games skipped",
                out.display(),
                imported.games,
                imported.positions,
                imported.training_positions,
                imported.skipped
            )?;
            return Ok(true);
        }
        DataCommand::WdlFit { files } => {
            print_wdl_fit(&wdl_fit::fit(files)?)?;
            return Ok(true);
        }
    };
    let mut ok = true;
    for file in files {
        let stats = stats_of(file)?;
        ok &= stats.errors == 0;
        if *json {
            let mut value = serde_json::to_value(&stats)?;
            value["file"] = serde_json::Value::String(file.display().to_string());
            outln!("{value}")?;
        } else {
            outln!(
                "{}: {} games (+{} ={} -{} for White), {} positions, {} for training (in check, captures, promotions and mate scores left out), mean |score| {:.1} cp, {} broken games",
                file.display(),
                stats.games,
                stats.white_wins,
                stats.draws,
                stats.black_wins,
                stats.positions,
                stats.training_positions,
                stats.mean_abs_score,
                stats.errors
            )?;
        }
    }
    Ok(ok)
}
