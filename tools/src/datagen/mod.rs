//! `tempo-tools datagen`: self-play games at a fixed node count, written as training data.
//!
//! Two output formats:
//! - `viri` (files ending in `.vf`, or `--format viri`): viriformat game records (see
//!   `tempo_notation::PackedGame`), about 4.4 bytes per position; every engine move is kept
//!   with its score, and the training filter (check, capture or promotion to play, mate
//!   score) is applied where positions are read (`tempo-tools train`, `tempo-tools data`).
//! - `text` (otherwise): a line `FEN | score | result` per position that passes the filter,
//!   the score in centipawns and the result (`1.0`, `0.5`, `0.0`), both from White's point of
//!   view: the input of `tempo-tools tune`.
//!
//! Games start from the standard position (or an opening from `--openings`) followed by a
//! random number of uniformly random legal moves in `--random-plies` (e.g. `8-10`); a game
//! whose first searched position scores beyond `--max-start-score` is discarded. The engine
//! then plays both sides under a node limit (`--soft-nodes`: no new iteration past it, the
//! usual fixed effort of NNUE data generation; or a hard `--nodes`). Games are adjudicated
//! as won once one side's score stays beyond `--win-score` for `--win-plies` plies, and as
//! drawn once, after `--draw-after` plies, it stays within `--draw-score` of zero for
//! `--draw-plies` plies.
//!
//! Every game has its own seed derived from `--seed` and its index, and a node-limited
//! single-threaded search is deterministic, so the output is the same whatever the number of
//! threads. Games are written in index order, a chunk at a time, and `<out>.progress`
//! records how far the file is complete; `--resume` continues an interrupted run from there
//! (appending the same games an uninterrupted run would have written).

mod progress;
mod selfplay;

use crate::engine_option;
use crate::matches::openings::{self, Opening};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use progress::Progress;
use rayon::prelude::*;
pub(crate) use selfplay::white_score;
use selfplay::{play_game, PlayedGame, Rules};
use std::fs::OpenOptions;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;
use tempo_core::GameResult;
use tempo_engine::{Engine, EngineOption};
use tempo_notation::{PackedGame, ScoredMove, TrainingFilter};

#[derive(Args)]
pub struct DatagenArgs {
    /// Number of games (in all, counting those a resumed run already wrote).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Hard node limit per move (default 5000, or ten times --soft-nodes).
    #[arg(long)]
    nodes: Option<u64>,
    /// Soft node limit per move: the search starts no iteration once it is reached.
    #[arg(long)]
    soft_nodes: Option<u64>,
    /// Random plies after the opening, for variety: a number or a range such as `8-10`.
    #[arg(long, default_value = "8")]
    random_plies: RandomPlies,
    /// Openings (EPD/FEN or PGN); game `i` starts from opening `i` modulo their number.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Seed for the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Discard a game whose first searched position scores beyond this many centipawns:
    /// random moves can blunder material, and games decided before they start teach little.
    #[arg(long, default_value_t = 300)]
    max_start_score: i32,
    /// Adjudicate a win once one side's score stays beyond this many centipawns...
    #[arg(long, default_value_t = 1500)]
    win_score: i32,
    /// ... for this many plies in a row.
    #[arg(long, default_value_t = 4)]
    win_plies: u32,
    /// Adjudicate a draw once the score stays within this many centipawns of zero...
    #[arg(long, default_value_t = 10)]
    draw_score: i32,
    /// ... for this many plies in a row...
    #[arg(long, default_value_t = 12)]
    draw_plies: u32,
    /// ... from this ply of the game on.
    #[arg(long, default_value_t = 80)]
    draw_after: usize,
    /// Declare a draw after this many plies.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Syzygy tables (folders separated by `:`): a position in their reach ends the game
    /// with their result under the fifty-move rule.
    #[arg(long, value_name = "DIR")]
    tb: Option<String>,
    /// An engine option, `NAME=VALUE` (e.g. `UseNNUE=false`), repeatable.
    #[arg(long = "option")]
    options: Vec<String>,
    /// Output format (default: `viri` for files ending in `.vf`, `text` otherwise).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Continue the run recorded in `<out>.progress`, appending to `--out`.
    #[arg(long)]
    resume: bool,
    /// Output file.
    #[arg(long)]
    out: PathBuf,
}

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// viriformat game records (binary).
    Viri,
    /// `FEN | score | result` lines.
    Text,
}

/// A number of random plies, drawn uniformly from `min..=max` for each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RandomPlies {
    pub min: usize,
    pub max: usize,
}

impl FromStr for RandomPlies {
    type Err = String;

    fn from_str(s: &str) -> Result<RandomPlies, String> {
        let number = |t: &str| t.trim().parse::<usize>().map_err(|_| format!("{s:?}: expected N or MIN-MAX"));
        let (min, max) = match s.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(s)?, number(s)?),
        };
        if min > max {
            return Err(format!("{s:?}: the range is empty"));
        }
        Ok(RandomPlies { min, max })
    }
}

/// What one game index produced: nothing (discarded), or the record in the output format
/// and the number of training positions in it.
struct Written {
    bytes: Vec<u8>,
    positions: u64,
    result: GameResult,
}

fn encode(game: &PlayedGame, format: Format) -> Result<Written> {
    let mut packed = PackedGame::new(game.start, game.result);
    packed.moves = game.moves.iter().map(|&(mv, score)| ScoredMove { mv, score }).collect();
    let filter = TrainingFilter::default();
    let mut bytes = Vec::new();
    let mut positions = 0;
    match format {
        Format::Viri => {
            positions = packed.positions().filter(|(pos, m)| filter.accepts(pos, *m)).count() as u64;
            packed.write_to(&mut bytes)?;
        }
        Format::Text => {
            let label = match game.result {
                GameResult::WhiteWins => "1.0",
                GameResult::BlackWins => "0.0",
                GameResult::Draw => "0.5",
            };
            for (pos, m) in packed.positions().filter(|(pos, m)| filter.accepts(pos, *m)) {
                writeln!(bytes, "{} | {} | {label}", pos.fen(), m.score)?;
                positions += 1;
            }
        }
    }
    Ok(Written { bytes, positions, result: game.result })
}

fn engine_options(args: &DatagenArgs) -> Result<Vec<EngineOption>> {
    let mut options = vec![EngineOption::Hash(8)];
    for option in &args.options {
        options.push(engine_option::parse(option)?);
    }
    Ok(options)
}

fn new_engine(options: &[EngineOption]) -> Result<Engine> {
    let mut engine = Engine::new();
    for option in options {
        engine.set_option(*option).map_err(|e| anyhow::anyhow!("engine option: {e}"))?;
    }
    Ok(engine)
}

fn format_of(args: &DatagenArgs) -> Format {
    args.format.unwrap_or_else(|| {
        if args.out.extension().is_some_and(|e| e.eq_ignore_ascii_case("vf")) {
            Format::Viri
        } else {
            Format::Text
        }
    })
}

fn rules_of(args: &DatagenArgs) -> Result<Rules> {
    let nodes = match args.soft_nodes {
        Some(soft) => args.nodes.unwrap_or(soft.saturating_mul(10)).max(soft),
        None => args.nodes.unwrap_or(5000),
    };
    if nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    Ok(Rules {
        soft_nodes: args.soft_nodes,
        nodes,
        random_plies: args.random_plies,
        max_start_score: args.max_start_score,
        win_score: args.win_score,
        win_plies: args.win_plies.max(1),
        draw_score: args.draw_score,
        draw_plies: args.draw_plies.max(1),
        draw_after: args.draw_after,
        max_plies: args.max_plies,
        tb: args.tb.clone(),
    })
}

/// Runs the command.
pub fn run(args: &DatagenArgs) -> Result<bool> {
    // Each worker thread searches on its own stack (`Engine::search`), rather than starting
    // a search thread for every move: that cost a tenth of the time in profiles.
    let mut pool = rayon::ThreadPoolBuilder::new().stack_size(tempo_engine::SEARCH_STACK_SIZE);
    if let Some(threads) = args.threads {
        pool = pool.num_threads(threads.max(1));
    }
    pool.build_global().context("starting threads")?;
    let format = format_of(args);
    let rules = rules_of(args)?;
    let tables = rules.tb.as_deref().map(crate::tb::load).transpose()?;
    let options = engine_options(args)?;
    new_engine(&options)?; // options are checked before any work starts
    let openings = match &args.openings {
        Some(path) => openings::load(path)?,
        None => vec![Opening::startpos()],
    };
    let settings = progress::Settings::of(args, format, &rules);
    let mut state =
        if args.resume { Progress::resume(&args.out, &settings)? } else { Progress::start(&args.out, settings)? };
    let file = OpenOptions::new()
        .append(true)
        .open(&args.out)
        .with_context(|| format!("cannot open {} for appending", args.out.display()))?;
    let mut out = BufWriter::new(file);

    let bar = if std::io::stderr().is_terminal() { ProgressBar::new(args.games) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {msg}, eta {eta}").expect("valid template"),
    );
    bar.set_position(state.games_done.min(args.games));
    let started = Instant::now();
    let positions_before = state.positions;
    // A chunk is big enough to keep every thread busy and small enough that an interruption
    // loses little.
    let chunk = 16 * rayon::current_num_threads() as u64;
    while state.games_done < args.games {
        let range = state.games_done..(state.games_done + chunk).min(args.games);
        let games: Vec<Option<Written>> = range
            .clone()
            .into_par_iter()
            // One engine per worker, not per game: besides saving the allocations, megabyte
            // tables freed and reallocated fragment the heap.
            .map_init(
                || new_engine(&options),
                |engine, i| -> Result<Option<Written>> {
                    let engine = engine.as_mut().map_err(|e| anyhow::anyhow!("engine: {e}"))?;
                    let seed = args.seed ^ i.wrapping_mul(0xd6e8_feb8_6659_fd93);
                    let opening = &openings[(i % openings.len() as u64) as usize];
                    let played = play_game(&rules, engine, opening, seed, tables.as_ref())?;
                    bar.inc(1);
                    played.map(|game| encode(&game, format)).transpose()
                },
            )
            .collect::<Result<_>>()?;
        for written in games.iter().flatten() {
            out.write_all(&written.bytes)?;
            state.record(written.bytes.len() as u64, written.positions, written.result);
        }
        out.flush().with_context(|| format!("writing {}", args.out.display()))?;
        state.games_done = range.end;
        state.save(&args.out)?;
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!(
            "{} positions, {:.0} positions/s",
            state.positions,
            (state.positions - positions_before) as f64 / secs
        ));
    }
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    outln!(
        "{} positions from {} games (+{} ={} -{} for White; {} games discarded: ended in the random plies or started beyond --max-start-score) in {} ({:.0} positions/s this run)",
        state.positions,
        state.games_written,
        state.tally[0],
        state.tally[1],
        state.tally[2],
        state.games_done - state.games_written,
        args.out.display(),
        (state.positions - positions_before) as f64 / secs.max(1e-9),
    )?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::Position;

    fn first_position(bytes: &[u8]) -> Position {
        tempo_notation::ViriReader::new(bytes).next().expect("a game").expect("a valid game").start
    }

    #[test]
    fn random_plies_parse_as_a_number_or_a_range() {
        assert_eq!("8".parse(), Ok(RandomPlies { min: 8, max: 8 }));
        assert_eq!("8-10".parse(), Ok(RandomPlies { min: 8, max: 10 }));
        assert!("10-8".parse::<RandomPlies>().is_err());
        assert!("x".parse::<RandomPlies>().is_err());
    }

    #[test]
    fn a_viri_record_keeps_every_move_and_counts_only_training_positions() {
        // 1. e4 d5 2. exd5: the capture is no training position, the others are.
        let start = Position::startpos();
        let moves = ["e2e4", "d7d5", "e4d5"];
        let mut pos = start;
        let mut played = Vec::new();
        for m in moves {
            let mv = tempo_notation::parse_uci_move(&pos, m).unwrap();
            played.push((mv, 20));
            pos.play_unchecked(mv);
        }
        let game = PlayedGame { start, moves: played, result: GameResult::Draw };
        let viri = encode(&game, Format::Viri).unwrap();
        assert_eq!(viri.positions, 2);
        assert_eq!(viri.bytes.len(), 32 + 4 * 4);
        assert_eq!(first_position(&viri.bytes), start);
        let text = encode(&game, Format::Text).unwrap();
        assert_eq!(text.positions, 2);
        assert_eq!(
            String::from_utf8(text.bytes).unwrap(),
            format!("{} | 20 | 0.5\n{} | 20 | 0.5\n", start.fen(), {
                let mut p = start;
                p.play_unchecked(game.moves[0].0);
                p.fen()
            })
        );
    }

    #[test]
    fn the_format_follows_the_extension_unless_given() {
        let args = |out: &str| DatagenArgs::try_parse_from(["datagen", "--out", out]).unwrap().args;
        assert_eq!(format_of(&args("a.vf")), Format::Viri);
        assert_eq!(format_of(&args("a.txt")), Format::Text);
        let mut explicit = args("a.bin");
        explicit.format = Some(Format::Viri);
        assert_eq!(format_of(&explicit), Format::Viri);
    }

    #[derive(clap::Parser)]
    struct DatagenArgsParser {
        #[command(flatten)]
        args: DatagenArgs,
    }

    impl DatagenArgs {
        fn try_parse_from<'a>(argv: impl IntoIterator<Item = &'a str>) -> Result<DatagenArgsParser, clap::Error> {
            <DatagenArgsParser as clap::Parser>::try_parse_from(argv)
        }
    }
}
