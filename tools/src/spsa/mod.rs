//! `tempo-tools spsa`: SPSA tuning of an engine's search parameters on one machine, by the
//! protocol OpenBench's SPSA workloads use. The engine (a `tempo-uci` built with
//! `--features tune`, or any engine that takes its parameters as UCI options) is given as
//! OpenBench SPSA input (`name, int, value, min, max, c_end, r_end` lines, from a file or
//! from the engine's own `spsa` command). Each iteration plays one pair of games, one
//! opening with colours swapped, between the engine set to θ+ and to θ− (`setoption`s),
//! through `tempo-tools match`'s game machinery, and moves θ by the result
//! ([`optimiser`]). The state is written after every iteration ([`state`]); `--resume`
//! continues from it.

mod optimiser;
mod state;

use crate::matches::adjudicate::Adjudication;
use crate::matches::openings::{self, Opening};
use crate::matches::play::{play_game, MatchEngine, MoveLimit};
use crate::matches::{builtin_engine, clock_control};
use crate::time_flag;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use optimiser::PairObjective;
use state::{Schedule, TunerState};
use std::path::PathBuf;
use std::time::Duration;
use tempo_core::opening::SplitMix;
use tempo_core::GameResult;
use tempo_uci::{parse_spsa_input, EngineSpec, Protocol, SpsaParam, UciClient};

#[derive(Args)]
pub struct SpsaArgs {
    /// The engine's command line (default: `tempo-uci` beside this program, which must be
    /// built with `--features tune`, e.g. `make TUNE=1`).
    #[arg(long)]
    engine: Option<String>,
    /// The SPSA input, OpenBench's format (default: what the engine's `spsa` command prints,
    /// the engine run as `ENGINE spsa quit`).
    #[arg(long)]
    params: Option<PathBuf>,
    /// The state file, rewritten after every iteration.
    #[arg(long, default_value = "spsa-state.json")]
    state: PathBuf,
    /// Continue the run whose state the --state file holds (its parameters, schedule and
    /// random generator; give the same engine, openings and time control).
    #[arg(long)]
    resume: bool,
    /// Iterations (pairs of games) of the whole run: the schedule reaches c_end and r_end
    /// at the last one.
    #[arg(long, required_unless_present = "resume")]
    iterations: Option<u64>,
    /// Stop after this many iterations of this sitting (the run goes on with --resume).
    #[arg(long)]
    max_iterations: Option<u64>,
    /// The learning rate's decay exponent (OpenBench's default).
    #[arg(long, default_value_t = 0.602)]
    alpha: f64,
    /// The perturbation's decay exponent.
    #[arg(long, default_value_t = 0.101)]
    gamma: f64,
    /// `A` as a share of the iterations.
    #[arg(long, default_value_t = 0.1)]
    a_ratio: f64,
    /// Seed of the perturbations and of the choice of openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// An option both engines get before the parameters, `NAME=VALUE` (repeatable), e.g.
    /// `Hash=16`.
    #[arg(long = "option")]
    options: Vec<String>,
    /// Time control, as for `match` (`BASE+INCREMENT` in seconds: `2+0.02`).
    #[arg(long, default_value = "5+0.05")]
    tc: String,
    /// Fixed nodes per move instead of a clock.
    #[arg(long, conflicts_with = "movetime")]
    nodes: Option<u64>,
    /// Fixed time per move instead of a clock (a bare number is milliseconds).
    #[arg(long, value_name = "TIME", value_parser = time_flag::positive_millis)]
    movetime: Option<Duration>,
    /// Openings: an EPD/FEN or PGN file (default: the start position), drawn at random for
    /// each pair.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Resign adjudication, as for `match`: both engines agree one side is this many
    /// centipawns down for 3 moves each (OpenBench's presets: 400).
    #[arg(long)]
    resign_score: Option<i32>,
    /// Draw adjudication, as for `match`: both scores within this many centipawns of zero
    /// for 8 moves each from move 40 on (OpenBench's presets: 10).
    #[arg(long)]
    draw_score: Option<i32>,
    /// How long an engine may overstep its clock before forfeiting.
    #[arg(long, value_name = "TIME", default_value = "100ms", value_parser = time_flag::millis)]
    time_margin: Duration,
    /// How long to wait for an engine without a clock (start-up, fixed nodes).
    #[arg(long, value_name = "TIME", default_value = "60s", value_parser = time_flag::hang_timeout)]
    hang_timeout: Duration,
}

/// A pair of real games: one opening, each side White once.
struct Games {
    engine: EngineSpec,
    options: Vec<(String, String)>,
    openings: Vec<Opening>,
    limit: MoveLimit,
    rules: Adjudication,
    /// Chooses each pair's opening; part of the run's seed, not of the state (an opening is
    /// a sample, not the optimiser's).
    rng: SplitMix,
    pairs: u64,
    /// How the last pair's games ended, for the report.
    last_games: Vec<String>,
}

impl Games {
    fn engine(&self, name: &str, params: &[(String, String)]) -> MatchEngine {
        let mut spec = self.engine.clone();
        spec.options.extend(self.options.iter().cloned());
        spec.options.extend(params.iter().cloned());
        MatchEngine { name: name.to_owned(), spec, protocol: Some(Protocol::Uci) }
    }
}

impl PairObjective for Games {
    fn play_pair(&mut self, plus: &[(String, String)], minus: &[(String, String)]) -> Result<f64> {
        let opening = &self.openings[self.rng.below(self.openings.len())];
        let (plus, minus) = (self.engine("theta+", plus), self.engine("theta-", minus));
        self.pairs += 1;
        let mut score = 0.0;
        self.last_games.clear();
        for (g, seats) in [[&plus, &minus], [&minus, &plus]].into_iter().enumerate() {
            let round = format!("{}.{}", self.pairs, g + 1);
            let record = play_game(seats, opening, &self.limit, &self.rules, &round)
                .map_err(|failure| anyhow!("{} could not be started: {}", seats[failure.seat].name, failure.error))?;
            let plus_is_white = g == 0;
            let names = [seats[0].name.as_str(), seats[1].name.as_str()];
            self.last_games.push(format!(
                "{} {} {} ({})",
                names[0],
                record.end.result(),
                names[1],
                record.end.describe(names)
            ));
            score += match record.end.result() {
                GameResult::Draw => 0.0,
                GameResult::WhiteWins if plus_is_white => 1.0,
                GameResult::BlackWins if !plus_is_white => 1.0,
                _ => -1.0,
            };
        }
        Ok(score)
    }
}

/// The SPSA input: from the file, or from the engine's `spsa` command.
fn read_input(args: &SpsaArgs, engine: &EngineSpec) -> Result<Vec<SpsaParam>> {
    let (text, source) = match &args.params {
        Some(path) => (
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?,
            path.display().to_string(),
        ),
        None => {
            let out = std::process::Command::new(&engine.command)
                .args(&engine.args)
                .args(["spsa", "quit"])
                .output()
                .with_context(|| format!("cannot run {}", engine.command))?;
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            // Informational lines (a build without tunable parameters says so in one).
            if let Some(info) = text.lines().find(|l| l.starts_with("info string")) {
                bail!("{} spsa: {info}", engine.command);
            }
            (text, format!("`{} spsa`", engine.command))
        }
    };
    let params = parse_spsa_input(&text).with_context(|| format!("SPSA input from {source}"))?;
    if params.is_empty() {
        bail!("SPSA input from {source} names no parameter");
    }
    Ok(params)
}

/// Starts the engine once and checks that it has an option for every parameter: an engine
/// that ignored the `setoption`s would be tuned on noise.
fn check_options(engine: &EngineSpec, params: &[SpsaParam], patience: Duration) -> Result<()> {
    let client = UciClient::start(engine, patience).with_context(|| format!("cannot start {}", engine.command))?;
    let announced = |name: &str| {
        let prefix = format!("name {} type ", name.to_ascii_lowercase());
        client.options.iter().any(|line| line.to_ascii_lowercase().starts_with(&prefix))
    };
    let missing: Vec<&str> = params.iter().map(|p| p.name.as_str()).filter(|n| !announced(n)).collect();
    client.quit();
    if !missing.is_empty() {
        bail!("{} has no option {} (is it a tune build, `make TUNE=1`?)", engine.command, missing.join(", "));
    }
    Ok(())
}

/// The current values in both forms: SPSA input (to start another run from) and `setoption`
/// lines (to try them).
fn print_values(state: &TunerState) -> Result<()> {
    outln!("# SPSA input at the current values ({} of {} iterations)", state.completed, state.schedule.iterations)?;
    for p in &state.params {
        outln!("{p}")?;
    }
    outln!("# As UCI commands")?;
    for p in &state.params {
        outln!("setoption name {} value {}", p.name, p.engine_value(p.value))?;
    }
    Ok(())
}

fn move_limit(args: &SpsaArgs) -> Result<MoveLimit> {
    Ok(match (args.nodes, args.movetime) {
        (Some(n), _) => MoveLimit::Nodes(n),
        (None, Some(t)) => MoveLimit::MoveTime(t),
        (None, None) => MoveLimit::Clock(clock_control(&args.tc)?),
    })
}

/// Runs the tuner; `Ok(true)` when the sitting ended as asked.
pub fn run(args: &SpsaArgs) -> Result<bool> {
    let command = match &args.engine {
        Some(command) => command.clone(),
        None => builtin_engine()?,
    };
    let engine = EngineSpec::from_command_line(&command).context("the engine command is empty")?;
    let mut state = if args.resume {
        TunerState::load(&args.state)?
    } else {
        if args.state.exists() {
            bail!("{} already holds a run: continue it with --resume, or name a new --state", args.state.display());
        }
        let iterations = args.iterations.context("--iterations is required")?;
        if iterations == 0 {
            bail!("--iterations must be at least 1");
        }
        let schedule = Schedule { iterations, alpha: args.alpha, gamma: args.gamma, a_ratio: args.a_ratio };
        TunerState::new(read_input(args, &engine)?, schedule, args.seed)
    };
    let options = args
        .options
        .iter()
        .map(|o| {
            o.split_once('=')
                .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
                .with_context(|| format!("option {o:?}: expected NAME=VALUE"))
        })
        .collect::<Result<Vec<_>>>()?;
    let openings = match &args.openings {
        Some(path) => openings::load(path)?,
        None => vec![Opening::startpos()],
    };
    let rules = Adjudication {
        resign_score: args.resign_score,
        resign_moves: 3,
        draw_score: args.draw_score,
        draw_moves: 8,
        draw_after: 40,
        max_moves: None,
        time_margin: args.time_margin,
        hang_timeout: args.hang_timeout,
        tablebase: None,
    };
    // Openings are drawn from a generator that depends on the seed and on how far the run
    // is, so that a resumed run does not replay the pairs it already played.
    let rng = SplitMix::new(tempo_core::opening::mix(args.seed ^ state.completed.wrapping_mul(0x9e37_79b9)));
    let limit = move_limit(args)?;
    check_options(&engine, &state.params, args.hang_timeout)?;
    let mut games = Games { engine, options, openings, limit, rules, rng, pairs: state.completed, last_games: vec![] };

    outln!(
        "SPSA: {} parameters, iteration {} of {} (alpha {}, gamma {}, A {})",
        state.params.len(),
        state.completed,
        state.schedule.iterations,
        state.schedule.alpha,
        state.schedule.gamma,
        state.schedule.a_ratio * state.schedule.iterations as f64
    )?;
    let mut sitting = 0;
    while !state.finished() && args.max_iterations.is_none_or(|m| sitting < m) {
        let (perturbation, score) = state.step(&mut games)?;
        state.save(&args.state)?;
        sitting += 1;
        outln!(
            "iteration {}/{}: theta+ scored {score:+} (run total {:+}); {}",
            perturbation.k,
            state.schedule.iterations,
            state.score_sum,
            games.last_games.join("; ")
        )?;
    }
    print_values(&state)?;
    Ok(true)
}
