//! `tempo-tools datagen`: self-play games at a fixed node count, writing labelled positions
//! for tuning. Each line is `FEN | score | result`: the search score in centipawns and the
//! game result (`1.0`, `0.5`, `0.0`), both from White's point of view.
//!
//! Games start from the standard position (or an opening from `--openings`) followed by
//! `--random-plies` uniformly random legal moves, then the engine plays both sides with a
//! node limit. Only quiet positions are written (side to move not in check, best move neither
//! a capture nor a promotion), the usual filter for Texel tuning. Every game has its own seed
//! derived from `--seed` and its index, and a node-limited single-threaded search is
//! deterministic, so the output is reproducible whatever the number of threads.

use crate::matches::openings::{self, Opening};
use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use tempo_core::{Color, Game, GameResult, Position};
use tempo_engine::{Engine, EngineOption, Event, Limits, Score};

#[derive(Args)]
pub struct DatagenArgs {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Random plies after the opening, for variety.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Openings (EPD/FEN or PGN); game `i` starts from opening `i` modulo their number.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Seed for the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Discard a game whose first searched position (after the random plies) scores beyond
    /// this many centipawns: random moves can blunder material, and games decided before
    /// they start teach the tuner little.
    #[arg(long, default_value_t = 300)]
    max_start_score: i32,
    /// Adjudicate a win once both sides' scores agree beyond this many centipawns for 4 plies.
    #[arg(long, default_value_t = 1500)]
    win_score: i32,
    /// Declare a draw after this many plies.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Output file.
    #[arg(long)]
    out: PathBuf,
}

/// SplitMix64: a tiny, well-distributed generator; one per game.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// One labelled position before the game's result is known.
struct Sample {
    fen: String,
    white_score: i32,
}

fn white_cp(score: Score, turn: Color) -> i32 {
    let cp = match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 30_000 - n,
        Score::Mate(n) => -30_000 - n,
    };
    if turn == Color::White {
        cp
    } else {
        -cp
    }
}

/// Plays one game; returns its samples and result (from White's view), or `None` if the
/// random plies ended the game or left it unbalanced.
fn play_game(
    args: &DatagenArgs,
    engine: &mut Engine,
    opening: &Opening,
    seed: u64,
) -> Result<Option<(Vec<Sample>, f32)>> {
    let mut rng = SplitMix(seed);
    let mut game = Game::new(opening.start);
    for &m in &opening.moves {
        game.play(m).context("opening move")?;
    }
    for _ in 0..args.random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            return Ok(None);
        }
        game.play(moves[(rng.next() % moves.len() as u64) as usize]).context("random move")?;
    }
    if game.outcome().is_some() || !game.position().has_legal_moves() {
        return Ok(None);
    }

    // A fresh game for the engine too: the output must not depend on which games the same
    // worker played before.
    engine.new_game().context("new game")?;
    let mut samples = Vec::new();
    let mut streak: (i32, u32) = (0, 0); // sign of the agreed winner, consecutive plies
    let mut first_search = true;
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break outcome.result;
        }
        if !game.claimable().is_empty() || game.moves().len() >= args.max_plies {
            break GameResult::Draw;
        }
        let pos: Position = *game.position();
        engine.set_position(*game.initial_position(), game.moves()).context("engine position")?;
        let (tx, rx) = mpsc::channel();
        engine
            .go(Limits::nodes(args.nodes), move |event| {
                let _ = tx.send(event);
            })
            .context("engine search")?;
        engine.wait();
        let mut score = None;
        let mut best = None;
        for event in rx.iter() {
            match event {
                Event::Info(info) if info.multipv == 1 && info.bound.is_none() => score = Some(info.score),
                Event::BestMove { best: m, .. } => best = m,
                _ => {}
            }
        }
        let Some(best) = best else {
            break if pos.is_check() { GameResult::win_for(!pos.turn()) } else { GameResult::Draw };
        };
        if let Some(score) = score {
            let white = white_cp(score, pos.turn());
            if std::mem::take(&mut first_search) && white.abs() > args.max_start_score {
                return Ok(None);
            }
            let quiet = !pos.is_check() && !pos.is_capture(best) && !best.is_promotion();
            if quiet {
                samples.push(Sample { fen: pos.fen(), white_score: white });
            }
            let sign = if white >= args.win_score {
                1
            } else if white <= -args.win_score {
                -1
            } else {
                0
            };
            streak = if sign != 0 && sign == streak.0 { (sign, streak.1 + 1) } else { (sign, u32::from(sign != 0)) };
            if streak.1 >= 4 {
                break if sign > 0 { GameResult::WhiteWins } else { GameResult::BlackWins };
            }
        }
        game.play(best).context("engine move")?;
    };
    let label = match result {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw => 0.5,
    };
    Ok(Some((samples, label)))
}

/// Runs the command.
pub fn run(args: &DatagenArgs) -> Result<bool> {
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build_global().context("starting threads")?;
    }
    let openings = match &args.openings {
        Some(path) => openings::load(path)?,
        None => vec![Opening::startpos()],
    };
    let bar = if std::io::stderr().is_terminal() { ProgressBar::new(args.games as u64) } else { ProgressBar::hidden() };
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} games, eta {eta}").expect("valid template"));
    let games: Vec<Option<(Vec<Sample>, f32)>> = (0..args.games)
        .into_par_iter()
        // One engine per worker, not per game: besides saving the allocations, megabyte
        // tables freed between long-lived sample strings fragment the heap until it runs out.
        .map_init(
            || {
                let mut engine = Engine::new();
                engine.set_option(EngineOption::Hash(8)).map(|()| engine)
            },
            |engine, i| {
                let engine = engine.as_mut().map_err(|e| anyhow::anyhow!("engine: {e}"))?;
                let seed = args.seed ^ (i as u64).wrapping_mul(0xd6e8_feb8_6659_fd93);
                let r = play_game(args, engine, &openings[i % openings.len()], seed);
                bar.inc(1);
                r
            },
        )
        .collect::<Result<_>>()?;
    bar.finish_and_clear();

    let file = std::fs::File::create(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let mut out = BufWriter::new(file);
    let (mut positions, mut played, mut tally) = (0usize, 0usize, [0usize; 3]);
    for (samples, label) in games.into_iter().flatten() {
        played += 1;
        tally[if label == 1.0 {
            0
        } else if label == 0.5 {
            1
        } else {
            2
        }] += 1;
        for s in samples {
            writeln!(out, "{} | {} | {label:.1}", s.fen, s.white_score)?;
            positions += 1;
        }
    }
    out.flush()?;
    outln!(
        "{positions} positions from {played} games (+{} ={} -{} for White; {} games discarded: ended in the random plies or started beyond --max-start-score) written to {}",
        tally[0],
        tally[1],
        tally[2],
        args.games - played,
        args.out.display()
    )?;
    Ok(true)
}
