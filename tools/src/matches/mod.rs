//! `tempo-tools match`: games between UCI or xboard engines with real clocks, openings
//! played in pairs with colours swapped, adjudication, PGN output with `[%clk]`, Elo with a
//! 95% interval and an SPRT that stops the match as soon as it decides, both from the game
//! pairs (the pentanomial model of fishtest and OpenBench; see [`stats`]).
//!
//! With two engines the report is from the first engine's point of view; with more, every
//! pairing plays `--games` games (a round robin) and each pairing is reported. With a single
//! `--engine`, the built-in engine (`tempo-uci` next to this program) is the first engine.
//!
//! Only games that were played are scored. Before the first game every engine is started
//! once (the preflight, which also detects its protocol); one that cannot be used stops the
//! run before any game. During the match an engine that crashes or hangs loses that game,
//! but one that cannot be started again (tried twice), or fails [`MAX_FAILURES_IN_A_ROW`]
//! games in a row, stops the match: the games played so far are reported and kept in the
//! PGN file (which `--resume` continues), and the run fails, saying how many of the
//! scheduled games were played.

pub mod adjudicate;
mod ending;
mod interrupt;
pub mod openings;
pub mod play;
mod resume;
mod stats;

use adjudicate::Adjudication;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use openings::Opening;
use play::{GameRecord, Incidents, MatchEngine, MoveLimit, StartFailure};
use resume::Slot;
use stats::{Pentanomial, Sprt, Tally, Verdict};
use std::io::{IsTerminal, Seek, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;
use tempo_core::clock::{TimeControl, TimeUnit};
use tempo_core::GameResult;
use tempo_notation::pgn_string;
use tempo_uci::{EngineSpec, GameSetup, Protocol, StartError};

use crate::time_flag;

/// Games in a row an engine may lose by crashing or hanging before the match stops (an
/// engine that fails this often is broken, not weak: its losses would only bias the result).
pub const MAX_FAILURES_IN_A_ROW: u32 = 3;

/// What `match --help` says about engines that fail; [`MAX_FAILURES_IN_A_ROW`] is the "3".
const ENGINE_FAILURES_HELP: &str = "Every engine is started once before the first game; one that cannot be started or \
does not answer stops the run before any game. An engine that crashes or hangs during a game loses that game; one \
that cannot be started again for a later game (tried twice), or crashes or hangs in 3 games in a row, stops the \
match. A match \
that stops before its games are all played reports the games played and exits with status 1.";

#[derive(Args)]
#[command(after_help = ENGINE_FAILURES_HELP)]
pub struct MatchArgs {
    /// An engine command line (program and arguments, split at spaces), repeatable. With only
    /// one, the built-in engine plays against it.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// The protocol of the engines, `uci` or `xboard` (CECP v2): one value for every engine
    /// given with --engine, or `N:PROTOCOL` for one (N counts engines as --option does),
    /// repeatable. Without it, each engine is sent `uci` and started again as an xboard
    /// engine if it does not answer `uciok` within a few seconds.
    #[arg(long = "protocol")]
    protocols: Vec<String>,
    /// Display names, in the order of --engine (default: the program name).
    #[arg(long = "name")]
    names: Vec<String>,
    /// An option for one engine: `N:NAME=VALUE` (N counts engines from 1, the built-in one
    /// first when it plays), repeatable. xboard engines get `option NAME=VALUE` for an
    /// option they announced, `memory` for Hash and `cores` for Threads.
    #[arg(long = "option")]
    options: Vec<String>,
    /// Time control: `BASE+INCREMENT` with bare numbers in seconds (`10+0.1`: 10 seconds plus
    /// 0.1 s a move; `60`), or with units `h`, `m`, `s`, `ms` on any time (`10s+0.1s`,
    /// `1m+100ms`, `1m30s+1s`); with a move count or several periods the PGN TimeControl form,
    /// also in seconds when bare (`40/60+0.5`, `40/1m+0.5s:30s`).
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Fixed nodes per move instead of a clock.
    #[arg(long, conflicts_with_all = ["depth", "movetime"])]
    nodes: Option<u64>,
    /// Fixed depth per move instead of a clock.
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Fixed time per move instead of a clock. A bare number is milliseconds, as for every
    /// time of tempo-tools except --tc (`100`); units `h`, `m`, `s`, `ms` also work (`2s`).
    #[arg(long, value_name = "TIME", value_parser = time_flag::positive_millis)]
    movetime: Option<Duration>,
    /// Games per pairing (pairs of games share an opening with colours swapped).
    #[arg(long, default_value_t = 20, value_parser = at_least_one())]
    games: usize,
    /// Openings: an EPD/FEN file or a PGN file (default: the start position).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Start with this opening (0-based), to continue an earlier run.
    #[arg(long, default_value_t = 0)]
    opening_offset: usize,
    /// Games played at once (each game is timed by wall clock: keep this at most half the
    /// cores for timing-sensitive matches).
    #[arg(long, default_value_t = 1, value_parser = at_least_one())]
    concurrency: usize,
    /// SPRT hypotheses `elo0,elo1` (alpha = beta = 0.05 unless given), tested on the game
    /// pairs (pentanomial): stop when decided (in a round robin, each pairing stops when its
    /// test is decided).
    #[arg(long, value_parser = parse_sprt)]
    sprt: Option<(f64, f64)>,
    /// SPRT error rates.
    #[arg(long, default_value_t = 0.05)]
    sprt_alpha: f64,
    #[arg(long, default_value_t = 0.05)]
    sprt_beta: f64,
    /// Resign adjudication: both engines agree one side is this many centipawns down...
    #[arg(long)]
    resign_score: Option<i32>,
    /// ...for this many consecutive moves.
    #[arg(long, default_value_t = 3)]
    resign_moves: u32,
    /// Draw adjudication: both scores within this many centipawns of zero...
    #[arg(long)]
    draw_score: Option<i32>,
    /// ...for this many consecutive moves each...
    #[arg(long, default_value_t = 8)]
    draw_moves: u32,
    /// ...from this move number on.
    #[arg(long, default_value_t = 40)]
    draw_after: u32,
    /// Declare a draw after this many moves.
    #[arg(long)]
    max_moves: Option<u32>,
    /// Syzygy tables (folders separated by `:`): a position in their reach ends the game
    /// with their result under the fifty-move rule.
    #[arg(long, value_name = "DIR")]
    tb: Option<String>,
    /// How long an engine may overstep its clock before forfeiting (oversteps are counted). A
    /// bare number is milliseconds; units also work (`0.5s`).
    #[arg(long, value_name = "TIME", default_value = "100ms", value_parser = time_flag::millis)]
    time_margin: Duration,
    /// How long to wait for an engine without a clock (start-up, fixed depth or nodes; with
    /// --movetime, beyond the move time), at least 1s. A bare number is milliseconds (it was
    /// seconds before every time of tempo-tools took units: write `60s`).
    #[arg(long, value_name = "TIME", default_value = "60s", value_parser = time_flag::hang_timeout)]
    hang_timeout: Duration,
    /// Write every game here (PGN with `[%clk]` comments).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Continue the match whose games the --pgn file holds: the games found there count and
    /// are not played again, new ones are appended. Give the same engines, names, options,
    /// --games, --openings, --opening-offset and time control as the first sitting.
    #[arg(long, requires = "pgn")]
    resume: bool,
}

fn parse_sprt(text: &str) -> Result<(f64, f64), String> {
    let (a, b) = text.split_once(',').ok_or("expected elo0,elo1")?;
    let parse = |s: &str| s.trim().parse::<f64>().map_err(|e| format!("{s:?}: {e}"));
    let (elo0, elo1) = (parse(a)?, parse(b)?);
    if elo1 <= elo0 {
        return Err("elo1 must exceed elo0".to_owned());
    }
    Ok((elo0, elo1))
}

/// The built-in engine: `tempo-uci` beside this executable.
pub(crate) fn builtin_engine() -> Result<String> {
    let exe = std::env::current_exe().context("locating tempo-tools")?;
    let path = exe.with_file_name(format!("tempo-uci{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        bail!("the built-in engine {} is missing: build it with `cargo build --release -p tempo-uci`", path.display());
    }
    Ok(path.to_string_lossy().into_owned())
}

fn engine_specs(args: &MatchArgs) -> Result<Vec<MatchEngine>> {
    let mut commands = args.engines.clone();
    let builtin = commands.len() == 1;
    if builtin {
        commands.insert(0, builtin_engine()?);
    }
    let mut specs: Vec<MatchEngine> = commands
        .iter()
        .enumerate()
        .map(|(i, command)| {
            let spec = EngineSpec::from_command_line(command)
                .with_context(|| format!("engine {} has an empty command", i + 1))?;
            let default_name = std::path::Path::new(&spec.command)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| spec.command.clone());
            // The built-in engine speaks UCI; the others are detected unless told.
            let protocol = (builtin && i == 0).then_some(Protocol::Uci);
            Ok(MatchEngine { name: default_name, spec, protocol })
        })
        .collect::<Result<_>>()?;
    for (spec, name) in specs.iter_mut().zip(&args.names) {
        spec.name.clone_from(name);
    }
    // Two engines with the same name would make the report ambiguous.
    for i in 1..specs.len() {
        if specs[..i].iter().any(|s| s.name == specs[i].name) {
            specs[i].name = format!("{}-{}", specs[i].name, i + 1);
        }
    }
    for option in &args.options {
        let (index, setting) =
            option.split_once(':').with_context(|| format!("option {option:?}: expected N:NAME=VALUE"))?;
        let (name, value) =
            setting.split_once('=').with_context(|| format!("option {option:?}: expected N:NAME=VALUE"))?;
        let index: usize = index.parse().with_context(|| format!("option {option:?}: bad engine number"))?;
        let spec =
            specs.get_mut(index.wrapping_sub(1)).with_context(|| format!("option {option:?}: no engine {index}"))?;
        spec.spec.options.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    for text in &args.protocols {
        match text.split_once(':') {
            Some((index, protocol)) => {
                let protocol: Protocol = protocol.parse().with_context(|| format!("protocol {text:?}"))?;
                let index: usize = index.parse().with_context(|| format!("protocol {text:?}: bad engine number"))?;
                let spec = specs
                    .get_mut(index.wrapping_sub(1))
                    .with_context(|| format!("protocol {text:?}: no engine {index}"))?;
                spec.protocol = Some(protocol);
            }
            None => {
                let protocol: Protocol = text.parse().with_context(|| format!("protocol {text:?}"))?;
                for spec in specs.iter_mut().skip(usize::from(builtin)) {
                    spec.protocol = Some(protocol);
                }
            }
        }
    }
    Ok(specs)
}

/// The command line of `spec`, as the user gave it.
fn command_line(spec: &EngineSpec) -> String {
    std::iter::once(&spec.command).chain(&spec.args).map(String::as_str).collect::<Vec<_>>().join(" ")
}

/// The error of an engine that could not be started (`again`: for game `round`, after the
/// preflight): its number, name and command, the step that failed and why.
fn start_error(index: usize, engine: &MatchEngine, error: &StartError, again: Option<&str>) -> String {
    let when = again.map(|round| format!(" again for game {round}")).unwrap_or_default();
    format!(
        "engine {} ({}, command `{}`) could not be started{when} (step: {}): {error}",
        index + 1,
        engine.name,
        command_line(&engine.spec),
        error.step()
    )
}

/// Starts every engine once for a game from `setup` (the preflight), and records the
/// protocol each speaks; every engine is tried, so that one run names every failure.
///
/// # Errors
/// The engines that could not be started or did not answer, one line each.
fn preflight(specs: &mut [MatchEngine], setup: &GameSetup<'_>, patience: Duration) -> Result<()> {
    let mut failures = Vec::new();
    for (i, engine) in specs.iter_mut().enumerate() {
        match play::start_engine(engine, setup, patience) {
            Ok(client) => {
                let how = if engine.protocol.is_some() { "" } else { " (detected)" };
                let calls_itself = client.name().map(|n| format!(", calls itself {n:?}")).unwrap_or_default();
                let protocol = client.protocol();
                engine.protocol = Some(protocol);
                client.quit();
                outln!("Engine {}: {} speaks {protocol}{how}{calls_itself}", i + 1, engine.name)?;
            }
            Err(e) => failures.push(start_error(i, engine, &e, None)),
        }
    }
    if !failures.is_empty() {
        bail!("no game was played: {}", failures.join("; "));
    }
    Ok(())
}

/// One scheduled game.
struct Job {
    pairing: usize,
    /// The game pair (one opening, colours swapped) this game belongs to, within its pairing.
    pair: usize,
    white: usize,
    black: usize,
    opening: usize,
    round: String,
}

/// The running totals of one pairing, from its first engine's point of view.
#[derive(Default)]
struct PairingStats {
    tally: Tally,
    /// The finished game pairs: what the SPRT and the Elo interval are computed from.
    pairs: Pentanomial,
    /// Pairs with one game finished: the first engine's half-points in it, by pair.
    half_pairs: std::collections::HashMap<usize, usize>,
    forfeits: [u32; 2],
    illegal: [u32; 2],
    crashes: [u32; 2],
    oversteps: [u32; 2],
    /// The SPRT's decision and the number of games when the LLR first crossed a bound. Games
    /// still being played then finish and count in the totals, but cannot undo the decision
    /// (as in fishtest): the test was sequential up to that game.
    decided: Option<(Verdict, u64)>,
}

impl PairingStats {
    /// Records the SPRT's decision the first time the LLR crosses a bound; `true` once the
    /// test is decided.
    fn decide(&mut self, sprt: Sprt) -> bool {
        let verdict = sprt.verdict(self.pairs.llr(sprt.elo0, sprt.elo1));
        if verdict != Verdict::Continue && self.decided.is_none() {
            self.decided = Some((verdict, self.tally.games()));
        }
        self.decided.is_some()
    }
}

/// A count option that must be 1 or more (`--games 0` would report a match of no games).
pub(crate) fn at_least_one() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..)
}

/// Reads `--tc`, whose bare numbers are seconds (engine testers write `10+0.1`); a control
/// without a clock (`-`, `?`) is refused, since the match would never end on time.
pub(crate) fn clock_control(text: &str) -> Result<TimeControl> {
    let control =
        TimeControl::parse_with_units(text, TimeUnit::Seconds).with_context(|| format!("time control {text:?}"))?;
    if !control.is_timed() {
        bail!("time control {text:?} has no clock; use --nodes, --depth or --movetime");
    }
    // Every move would overstep a clock that starts at zero and gains nothing.
    let gains_time = matches!(&control, TimeControl::Stages(stages) if stages.iter().any(|s| !s.increment.is_zero()));
    if control.initial_time().is_zero() && !gains_time {
        bail!("time control {text:?} gives no time at all");
    }
    Ok(control)
}

/// Runs the match; `Ok(true)` unless an engine could not be used at all.
pub fn run(args: &MatchArgs) -> Result<bool> {
    let mut specs = engine_specs(args)?;
    if specs.len() < 2 {
        bail!("a match needs at least two engines");
    }
    let limit = move_limit(args)?;
    let openings = match &args.openings {
        Some(path) => openings::load(path)?,
        None => vec![Opening::startpos()],
    };
    let rules = adjudication(args)?;
    let sprt = args.sprt.map(|(elo0, elo1)| Sprt { elo0, elo1, alpha: args.sprt_alpha, beta: args.sprt_beta });
    let pairings: Vec<(usize, usize)> =
        (0..specs.len()).flat_map(|a| (a + 1..specs.len()).map(move |b| (a, b))).collect();
    let jobs = schedule(&pairings, args, openings.len());
    if let Some(warning) = repeated_games_warning(&limit, args.games, openings.len()) {
        eprintln!("warning: {warning}");
    }
    let total = jobs.len();
    let stats: Vec<Mutex<PairingStats>> = pairings.iter().map(|_| Mutex::new(PairingStats::default())).collect();
    let stop = AtomicBool::new(false);
    // Pairings whose SPRT has decided: the match stops when all have.
    let decided_pairings = AtomicUsize::new(0);

    refuse_to_overwrite(args)?;
    // Games an earlier sitting played (--resume) count and are skipped.
    let mut already_played = vec![false; total];
    let resumed = match &args.pgn {
        Some(path) if args.resume && path.exists() => {
            let slots: Vec<Slot<'_>> = jobs
                .iter()
                .map(|j| Slot { white: &specs[j.white], black: &specs[j.black], opening: &openings[j.opening] })
                .collect();
            Some(resume::read_played(path, &slots, args.games, &limit)?)
        }
        _ => None,
    };
    let tally = Tallies { pairings: &pairings, stats: &stats, sprt, decided_pairings: &decided_pairings, stop: &stop };
    if let Some(resumed) = &resumed {
        count_resumed(args, resumed, &jobs, &specs, &tally, &mut already_played)?;
    }
    // Every engine is started once before the first game, for the opening that asks the
    // most of it (a position to set up rather than the standard start), unless no game is
    // left to play.
    let left_to_play = jobs
        .iter()
        .enumerate()
        .any(|(i, job)| !already_played[i] && stats[job.pairing].lock().expect("stats lock").decided.is_none());
    if left_to_play && !stop.load(Ordering::Relaxed) {
        let standard = |o: &&Opening| o.start == tempo_core::Position::startpos();
        let opening = openings.iter().find(|o| !standard(o)).unwrap_or(&openings[0]);
        preflight(&mut specs, &GameSetup { start: &opening.start, limit: &limit }, rules.hang_timeout)?;
    }
    let specs = specs;
    let pgn_out = match &args.pgn {
        Some(path) => Some(Mutex::new(match &resumed {
            Some(resumed) => append_after(path, resumed.torn_tail.then_some(resumed.complete_bytes))?,
            None => std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        })),
        None => None,
    };
    interrupt::install();
    let bar = if std::io::stderr().is_terminal() { ProgressBar::new(total as u64) } else { ProgressBar::hidden() };
    let done = resumed.as_ref().map_or(0, |r| r.games.len());
    bar.set_position(done as u64);
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} games, eta {eta}").expect("valid template"));
    let runner = Runner {
        specs: &specs,
        tally,
        openings: &openings,
        limit: &limit,
        rules: &rules,
        jobs: &jobs,
        already_played: &already_played,
        fatal: OnceLock::new(),
        failures_in_a_row: Mutex::new(vec![0; specs.len()]),
        write_error: OnceLock::new(),
        pgn_error: OnceLock::new(),
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(done),
        pgn_out,
        bar,
    };
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.max(1) {
            scope.spawn(|| runner.play_games());
        }
    });
    runner.finish()
}

/// How each move is limited: nodes, depth, a fixed time, or a clock.
fn move_limit(args: &MatchArgs) -> Result<MoveLimit> {
    Ok(if let Some(n) = args.nodes {
        MoveLimit::Nodes(n)
    } else if let Some(d) = args.depth {
        MoveLimit::Depth(d)
    } else if let Some(time) = args.movetime {
        MoveLimit::MoveTime(time)
    } else {
        MoveLimit::Clock(clock_control(&args.tc)?)
    })
}

/// The adjudication rules the arguments set.
fn adjudication(args: &MatchArgs) -> Result<Adjudication> {
    Ok(Adjudication {
        resign_score: args.resign_score,
        resign_moves: args.resign_moves.max(1),
        draw_score: args.draw_score,
        draw_moves: args.draw_moves.max(1),
        draw_after: args.draw_after,
        max_moves: args.max_moves,
        time_margin: args.time_margin,
        hang_timeout: args.hang_timeout,
        tablebase: args.tb.as_deref().map(load_tablebase).transpose()?,
    })
}

/// Every game of the match, pairing by pairing: each opening played twice, colours swapped.
fn schedule(pairings: &[(usize, usize)], args: &MatchArgs, openings: usize) -> Vec<Job> {
    let mut jobs = Vec::new();
    for (p, &(a, b)) in pairings.iter().enumerate() {
        for g in 0..args.games {
            let opening = (args.opening_offset + g / 2) % openings;
            let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
            jobs.push(Job { pairing: p, pair: g / 2, white, black, opening, round: format!("{}.{}", p + 1, g + 1) });
        }
    }
    jobs
}

/// The warning for a match whose games past twice the number of openings repeat earlier
/// ones, or `None`. A search limited by nodes or depth is a function of the position and the
/// engine's options (one thread, a fresh engine each game), so a second pass over the
/// openings replays the first move for move and an SPRT would count each game twice.
fn repeated_games_warning(limit: &MoveLimit, games: usize, openings: usize) -> Option<String> {
    let fixed = match limit {
        MoveLimit::Nodes(_) => "node count",
        MoveLimit::Depth(_) => "depth",
        MoveLimit::Clock(_) | MoveLimit::MoveTime(_) => return None,
    };
    (games > 2 * openings).then(|| {
        format!(
            "{games} games per pairing from {openings} opening(s): at a fixed {fixed} a single-threaded engine \
             replays a game move for move from the same opening and colours, so the games past {} repeat \
             earlier ones; give more openings (--openings) or fewer games",
            2 * openings
        )
    })
}

/// The games of an earlier match are the user's: a new match never writes over them.
fn refuse_to_overwrite(args: &MatchArgs) -> Result<()> {
    if let Some(path) = args.pgn.as_ref().filter(|_| !args.resume) {
        if std::fs::metadata(path).is_ok_and(|meta| meta.is_file() && meta.len() > 0) {
            bail!(
                "{} is not empty (a match's games, or some other file): continue that match with --resume, \
                 or name a new --pgn file",
                path.display()
            );
        }
    }
    Ok(())
}

/// The pairings' running totals, shared by the threads that play games.
struct Tallies<'a> {
    pairings: &'a [(usize, usize)],
    stats: &'a [Mutex<PairingStats>],
    sprt: Option<Sprt>,
    /// Pairings whose SPRT has decided: the match stops when all have.
    decided_pairings: &'a AtomicUsize,
    stop: &'a AtomicBool,
}

impl Tallies<'_> {
    /// Counts a pairing's newly decided SPRT, stopping the match when it was the last.
    fn decided(&self) {
        if self.decided_pairings.fetch_add(1, Ordering::Relaxed) + 1 == self.pairings.len() {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Counts the games an earlier sitting played (`--resume`), marks them played, and says so.
fn count_resumed(
    args: &MatchArgs,
    resumed: &resume::Played,
    jobs: &[Job],
    specs: &[MatchEngine],
    tally: &Tallies<'_>,
    already_played: &mut [bool],
) -> Result<()> {
    let (pairings, stats, sprt) = (tally.pairings, tally.stats, tally.sprt);
    for game in &resumed.games {
        let job = &jobs[game.slot];
        let mut s = stats[job.pairing].lock().expect("stats lock");
        account(&mut s, job.pair, game.result, &game.incidents, job.white == pairings[job.pairing].0);
        already_played[game.slot] = true;
    }
    let path = args.pgn.as_ref().expect("--resume requires --pgn").display();
    outln!("Resuming: {} games already played in {path}", resumed.games.len())?;
    if resumed.torn_tail {
        outln!("(its last game was cut short while being written: it is removed and played again)")?;
    }
    for (p, s) in stats.iter().enumerate() {
        let mut s = s.lock().expect("stats lock");
        let t = s.tally;
        outln!(
            "{} vs {}: +{} ={} -{}",
            specs[pairings[p].0].name,
            specs[pairings[p].1].name,
            t.wins,
            t.draws,
            t.losses
        )?;
        if sprt.is_some_and(|sprt| s.decide(sprt)) {
            tally.decided();
        }
    }
    Ok(())
}

/// The match while its games are played: what the threads share.
struct Runner<'a> {
    specs: &'a [MatchEngine],
    tally: Tallies<'a>,
    openings: &'a [Opening],
    limit: &'a MoveLimit,
    rules: &'a Adjudication,
    jobs: &'a [Job],
    already_played: &'a [bool],
    /// What stops the match before its games are all played: an engine that cannot be
    /// started again, or fails too many games in a row.
    fatal: OnceLock<String>,
    /// Per engine, the games in a row it has lost by crashing or hanging.
    failures_in_a_row: Mutex<Vec<u32>>,
    /// The first error writing a game's line (stdout closed): it stops the match.
    write_error: OnceLock<std::io::Error>,
    /// The first error writing a game to the PGN file (disk full): it stops the match too.
    pgn_error: OnceLock<std::io::Error>,
    next: AtomicUsize,
    done: AtomicUsize,
    pgn_out: Option<Mutex<std::fs::File>>,
    bar: ProgressBar,
}

impl Runner<'_> {
    /// One thread's share: the next game not yet played, until none is left or the match
    /// stops.
    fn play_games(&self) {
        let Runner { jobs, already_played, .. } = *self;
        let Tallies { stats, stop, .. } = self.tally;
        loop {
            if stop.load(Ordering::Relaxed) || interrupt::requested() {
                break;
            }
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = jobs.get(i) else { break };
            // In a round robin, a pairing whose SPRT is decided plays no more games.
            if already_played[i] || stats[job.pairing].lock().expect("stats lock").decided.is_some() {
                continue;
            }
            let Some(record) = self.play(job) else { break };
            self.track_failures(job, &record);
            self.record(job, &record);
        }
    }

    /// Plays `job`'s game, starting an engine twice if it fails to start once; `None` when
    /// an engine cannot be started (the match stops; the game counts for nothing and is not
    /// written, so that --resume plays it).
    fn play(&self, job: &Job) -> Option<GameRecord> {
        let specs = self.specs;
        let play = || {
            play::play_game(
                [&specs[job.white], &specs[job.black]],
                &self.openings[job.opening],
                self.limit,
                self.rules,
                &job.round,
            )
        };
        let played = match play() {
            // A program that ran for the preflight and fails to start now may have
            // met a passing fault (GNU Chess 6 sometimes dies as it starts): one more
            // try, said on stderr. A program that cannot be run at all gets none.
            Err(StartFailure { seat, error }) if !matches!(error, StartError::Spawn(_)) => {
                let engine = [job.white, job.black][seat];
                let note = start_error(engine, &specs[engine], &error, Some(&job.round));
                self.bar.suspend(|| eprintln!("warning: {note}; starting it once more"));
                play()
            }
            played => played,
        };
        match played {
            Ok(record) => Some(record),
            Err(StartFailure { seat, error }) => {
                let engine = [job.white, job.black][seat];
                let _ = self.fatal.set(start_error(engine, &specs[engine], &error, Some(&job.round)));
                self.tally.stop.store(true, Ordering::Relaxed);
                None
            }
        }
    }

    /// Counts the games each engine of `job` has lost in a row by crashing or hanging, and
    /// stops the match at [`MAX_FAILURES_IN_A_ROW`].
    fn track_failures(&self, job: &Job, record: &GameRecord) {
        let specs = self.specs;
        for (seat, engine) in [job.white, job.black].into_iter().enumerate() {
            let mut streaks = self.failures_in_a_row.lock().expect("failure lock");
            if record.incidents.crashes[seat] == 0 {
                streaks[engine] = 0;
                continue;
            }
            streaks[engine] += 1;
            if streaks[engine] >= MAX_FAILURES_IN_A_ROW {
                let _ = self.fatal.set(format!(
                    "engine {} ({}, command `{}`) crashed or hung in {MAX_FAILURES_IN_A_ROW} games in a row, \
                     the last: {}",
                    engine + 1,
                    specs[engine].name,
                    command_line(&specs[engine].spec),
                    record.end.describe([&specs[job.white].name, &specs[job.black].name])
                ));
                self.tally.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Counts a finished game, prints its line and writes it to the PGN file.
    fn record(&self, job: &Job, record: &GameRecord) {
        let Tallies { pairings, stats, sprt, stop, .. } = self.tally;
        let specs = self.specs;
        let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        let total = self.jobs.len();
        let (a, _) = pairings[job.pairing];
        let line = {
            let mut s = stats[job.pairing].lock().expect("stats lock");
            account(&mut s, job.pair, record.end.result(), &record.incidents, job.white == a);
            let t = s.tally;
            let mut line = format!(
                "Game {n}/{total}: {} vs {}: {} ({}) | {} vs {}: +{} ={} -{}",
                specs[job.white].name,
                specs[job.black].name,
                record.end.result().as_str(),
                record.end.describe([&specs[job.white].name, &specs[job.black].name]),
                specs[pairings[job.pairing].0].name,
                specs[pairings[job.pairing].1].name,
                t.wins,
                t.draws,
                t.losses
            );
            if let Some(sprt) = sprt {
                line.push_str(&format!(" LLR {:.2}", s.pairs.llr(sprt.elo0, sprt.elo1)));
                let newly_decided = s.decided.is_none() && s.decide(sprt);
                if newly_decided {
                    self.tally.decided();
                }
            }
            line
        };
        if let Err(e) = self.bar.suspend(|| outln!("{line}")) {
            stop.store(true, Ordering::Relaxed);
            let _ = self.write_error.set(e);
        }
        self.bar.inc(1);
        if let Some(out) = &self.pgn_out {
            let mut file = out.lock().expect("pgn lock");
            if let Err(e) = writeln!(file, "{}", pgn_string(&record.pgn)).and_then(|()| file.flush()) {
                stop.store(true, Ordering::Relaxed);
                let _ = self.pgn_error.set(e);
            }
        }
    }

    /// After the games: the errors that stopped the match, or the report of every pairing.
    fn finish(self) -> Result<bool> {
        self.bar.finish_and_clear();
        if let Some(e) = self.write_error.into_inner() {
            return Err(e).context("writing a game's result");
        }
        if let Some(e) = self.pgn_error.into_inner() {
            return Err(e).context("writing a game to the PGN file");
        }
        let Tallies { pairings, stats, sprt, .. } = self.tally;
        let specs = self.specs;
        outln!()?;
        for (p, &(a, b)) in pairings.iter().enumerate() {
            let s = stats[p].lock().expect("stats lock");
            report(&specs[a].name, &specs[b].name, &s, sprt)?;
        }
        let played = self.done.load(Ordering::Relaxed);
        if let Some(reason) = self.fatal.into_inner() {
            return Err(anyhow!("{reason}"))
                .context(format!("the match stopped after {played} of {} scheduled games", self.jobs.len()));
        }
        if interrupt::requested() && !self.tally.stop.load(Ordering::Relaxed) && played < self.jobs.len() {
            let resume = if self.pgn_out.is_some() { ": --resume continues it" } else { "" };
            bail!("interrupted after {played} of {} scheduled games{resume}", self.jobs.len());
        }
        Ok(true)
    }
}

/// Opens the PGN file of a resumed match for appending, after cutting it to its first
/// `complete` bytes if given (the games that count; what follows is a game cut short).
fn append_after(path: &std::path::Path, complete: Option<u64>) -> Result<std::fs::File> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    if let Some(complete) = complete {
        file.set_len(complete).with_context(|| format!("cannot cut {}", path.display()))?;
        if complete > 0 {
            // The last complete game ends with its result marker: the blank lines the
            // runner puts between games.
            file.seek(std::io::SeekFrom::End(0))?;
            file.write_all(b"\n\n\n")?;
        }
    }
    file.seek(std::io::SeekFrom::End(0))?;
    Ok(file)
}

/// Adds a game of game pair `pair` to a pairing's totals; `first_is_white` tells which colour
/// the pairing's first engine had. The pair counts once both its games have.
fn account(s: &mut PairingStats, pair: usize, result: GameResult, incidents: &Incidents, first_is_white: bool) {
    let (first, second) = if first_is_white { (0, 1) } else { (1, 0) };
    let half_points = match (result, first_is_white) {
        (GameResult::Draw, _) => {
            s.tally.draws += 1;
            1
        }
        (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => {
            s.tally.wins += 1;
            2
        }
        _ => {
            s.tally.losses += 1;
            0
        }
    };
    match s.half_pairs.remove(&pair) {
        Some(partner) => s.pairs.add(partner + half_points),
        None => {
            s.half_pairs.insert(pair, half_points);
        }
    }
    for (to, from) in [(0, first), (1, second)] {
        s.forfeits[to] += incidents.time_forfeits[from];
        s.illegal[to] += incidents.illegal_moves[from];
        s.crashes[to] += incidents.crashes[from];
        s.oversteps[to] += incidents.oversteps[from];
    }
}

fn report(a: &str, b: &str, s: &PairingStats, sprt: Option<Sprt>) -> std::io::Result<()> {
    let t = s.tally;
    outln!(
        "{a} vs {b}: {} games, W/D/L {}/{}/{} (score {:.1}%)",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score()
    )?;
    // From the pairs once there are any; a match of one game has only the game.
    let p = s.pairs;
    if p.pairs() > 0 {
        let [l2, l1, even, w1, w2] = p.counts;
        outln!("Pentanomial (pairs in which {a} scored 0, 0.5, 1, 1.5, 2): {l2}, {l1}, {even}, {w1}, {w2}")?;
        let (elo, low, high) = p.elo();
        let plural = if p.pairs() == 1 { "" } else { "s" };
        outln!("Elo difference: {elo:.1} [{low:.1}, {high:.1}] (95%, from {} game pair{plural})", p.pairs())?;
    } else {
        let (elo, low, high) = t.elo();
        let plural = if t.games() == 1 { "" } else { "s" };
        outln!("Elo difference: {elo:.1} [{low:.1}, {high:.1}] (95%, from {} game{plural})", t.games())?;
    }
    for (i, name) in [a, b].iter().enumerate() {
        outln!(
            "{name}: {} time forfeits, {} illegal moves, {} crashes, {} clock oversteps within the margin",
            s.forfeits[i],
            s.illegal[i],
            s.crashes[i],
            s.oversteps[i]
        )?;
    }
    if let Some(sprt) = sprt {
        let (lower, upper) = sprt.bounds();
        let verdict = match s.decided {
            Some((Verdict::H1, games)) => format!("H1 accepted at game {games}"),
            Some((Verdict::H0, games)) => format!("H0 accepted at game {games}"),
            _ => "inconclusive".to_owned(),
        };
        outln!(
            "SPRT [{}, {}] alpha {} beta {}: LLR {:.2} ({lower:.2}, {upper:.2}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            p.llr(sprt.elo0, sprt.elo1)
        )?;
    }
    Ok(())
}

/// The `--tb` folders, kept for the whole run (every game's adjudicator reads them).
///
/// # Errors
/// A folder that cannot be read, or folders without any table.
fn load_tablebase(folders: &str) -> Result<&'static tempo_syzygy::Tablebase> {
    Ok(Box::leak(Box::new(crate::tb::load(folders)?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn tc_of(command_line: &[&str]) -> TimeControl {
        let cli = Cli::try_parse_from(["match", "--engine", "e"].iter().chain(command_line)).unwrap();
        clock_control(&cli.args.tc).unwrap()
    }

    #[test]
    fn tc_units_and_bare_seconds_agree() {
        let expected = TimeControl::fischer(Duration::from_secs(10), Duration::from_millis(100));
        assert_eq!(tc_of(&[]), expected, "the default");
        for text in ["10+0.1", "10s+0.1s", "10s+100ms", "10000ms+0.1"] {
            assert_eq!(tc_of(&["--tc", text]), expected, "{text}");
        }
        assert_eq!(tc_of(&["--tc", "1m30s+2s"]), tc_of(&["--tc", "90+2"]));
        assert_eq!(tc_of(&["--tc", "40/1m+0.5s:30s"]), "40/60+0.5:30".parse().unwrap());
        for bad in ["-", "?", "5x+3", "5m+", "", "-5", "0+0", "0"] {
            assert!(clock_control(bad).is_err(), "{bad:?}");
        }
        // An increment alone is a clock (a move at a time).
        assert_eq!(tc_of(&["--tc", "0+1"]), TimeControl::fischer(Duration::ZERO, Duration::from_secs(1)));
    }

    #[test]
    fn counts_start_at_one() {
        for option in ["--games", "--concurrency"] {
            assert!(Cli::try_parse_from(["match", "--engine", "e", option, "0"]).is_err(), "{option}");
            assert!(Cli::try_parse_from(["match", "--engine", "e", option, "1"]).is_ok(), "{option}");
        }
    }

    #[test]
    fn a_second_pass_over_the_openings_is_flagged_at_fixed_nodes_or_depth() {
        let warning = repeated_games_warning(&MoveLimit::Nodes(50_000), 2_037, 800).expect("a warning");
        assert!(warning.contains("past 1600"), "{warning}");
        assert!(repeated_games_warning(&MoveLimit::Depth(8), 3, 1).is_some());
        assert_eq!(repeated_games_warning(&MoveLimit::Nodes(50_000), 1_600, 800), None, "one pass");
        let clock = MoveLimit::Clock(TimeControl::fischer(Duration::from_secs(5), Duration::from_millis(50)));
        assert_eq!(repeated_games_warning(&clock, 2_037, 800), None, "clocks vary the games");
        assert_eq!(repeated_games_warning(&MoveLimit::MoveTime(Duration::from_millis(100)), 2_037, 800), None);
    }

    fn args_of(command_line: &[&str]) -> MatchArgs {
        Cli::try_parse_from(["match"].iter().chain(command_line)).unwrap().args
    }

    #[test]
    fn time_flags_read_bare_milliseconds_and_units() {
        let ms = Duration::from_millis;
        let defaults = args_of(&["--engine", "e"]);
        assert_eq!((defaults.movetime, defaults.time_margin, defaults.hang_timeout), (None, ms(100), ms(60_000)));
        for (movetime, expected) in [("50", ms(50)), ("50ms", ms(50)), ("2s", ms(2000)), ("1m30s", ms(90_000))] {
            assert_eq!(args_of(&["--engine", "e", "--movetime", movetime]).movetime, Some(expected), "{movetime}");
        }
        let args = args_of(&["--engine", "e", "--time-margin", "250", "--hang-timeout", "2000"]);
        assert_eq!((args.time_margin, args.hang_timeout), (ms(250), ms(2000)));
        let args = args_of(&["--engine", "e", "--time-margin", "0", "--hang-timeout", "1m"]);
        assert_eq!((args.time_margin, args.hang_timeout), (Duration::ZERO, ms(60_000)));
    }

    #[test]
    fn protocols_for_every_engine_or_one() {
        let protocols = |command_line: &[&str]| -> Vec<Option<Protocol>> {
            engine_specs(&args_of(command_line)).unwrap().iter().map(|e| e.protocol).collect()
        };
        let two = ["--engine", "a", "--engine", "b"];
        assert_eq!(protocols(&two), [None, None], "detected");
        let all = [&two[..], &["--protocol", "xboard"]].concat();
        assert_eq!(protocols(&all), [Some(Protocol::Xboard), Some(Protocol::Xboard)]);
        let one = [&two[..], &["--protocol", "2:uci"]].concat();
        assert_eq!(protocols(&one), [None, Some(Protocol::Uci)]);
        let later = [&two[..], &["--protocol", "uci", "--protocol", "1:xboard"]].concat();
        assert_eq!(protocols(&later), [Some(Protocol::Xboard), Some(Protocol::Uci)]);
        for bad in ["ucci", "3:uci", "x:uci", "1:"] {
            let command_line = [&two[..], &["--protocol", bad]].concat();
            assert!(engine_specs(&args_of(&command_line)).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_help_states_the_failure_limit() {
        assert!(ENGINE_FAILURES_HELP.contains(&format!(" {MAX_FAILURES_IN_A_ROW} games in a row")));
    }

    #[test]
    fn an_sprt_decision_stands_when_later_games_move_the_llr_back() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let mut s = PairingStats {
            tally: Tally { wins: 700, draws: 520, losses: 600 },
            pairs: Pentanomial { counts: [20, 150, 500, 200, 40] },
            ..PairingStats::default()
        };
        assert!(sprt.verdict(s.pairs.llr(0.0, 10.0)) == Verdict::H1, "LLR {}", s.pairs.llr(0.0, 10.0));
        assert!(s.decide(sprt));
        // Pairs that were in flight at the decision are lost: the LLR may fall back, the
        // decision (and the game count at which it was taken) stays.
        for _ in 0..40 {
            s.pairs.add(0);
        }
        assert!(s.pairs.llr(0.0, 10.0) < sprt.bounds().1);
        assert!(s.decide(sprt));
        assert_eq!(s.decided, Some((Verdict::H1, 1820)));
        let mut open = PairingStats { pairs: Pentanomial { counts: [3, 4, 5, 4, 3] }, ..PairingStats::default() };
        assert!(!open.decide(sprt));
        assert_eq!(open.decided, None);
    }

    #[test]
    fn a_pair_counts_once_both_its_games_have_in_either_order() {
        let mut s = PairingStats::default();
        let none = Incidents::default();
        // Pair 0: the first engine wins with White, then draws with Black. Pair 1's games
        // finish the other way round, around pair 0's.
        account(&mut s, 1, GameResult::BlackWins, &none, true);
        account(&mut s, 0, GameResult::WhiteWins, &none, true);
        assert_eq!(s.pairs.pairs(), 0);
        account(&mut s, 0, GameResult::Draw, &none, false);
        assert_eq!(s.pairs.counts, [0, 0, 0, 1, 0]);
        account(&mut s, 1, GameResult::WhiteWins, &none, false);
        assert_eq!(s.pairs.counts, [1, 0, 0, 1, 0]);
        assert_eq!(s.tally, Tally { wins: 1, draws: 1, losses: 2 });
        assert!(s.half_pairs.is_empty());
    }
}
