//! `tempo-tools epd FILE --movetime TIME`: run a `bm`/`am` test suite (WAC, Bratko-Kopec...)
//! with the built-in engine. One line per position (id, expected, found, verdict) and a last
//! line `N passed, M failed`; a progress bar on a terminal.
//!
//! `--nodes N` or `--depth D` instead of a time make the run independent of the machine and
//! its load (a single-threaded search with a fixed limit is deterministic), which is what a
//! before/after comparison of a search change wants; `--jobs N` then searches N positions at
//! once, each with its own engine, and still prints in file order.
//!
//! A record that cannot be run (not EPD, an invalid position, a `bm`/`am` move that is not
//! legal there) is one failed line naming its file and line, and the suite goes on: one typo
//! must not hide the results of the other positions. Missed positions are results, so the
//! exit status is 0 whatever the engine found, but 1 when some record could not be read (the
//! suite itself needs fixing).

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;
use tempo_core::{Move, Position};
use tempo_engine::{Engine, EngineOption, Event, Limits};
use tempo_notation::{san, Epd, EpdError};

use crate::{engine_option, suite, time_flag};

/// The thinking time per position when no limit is given.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);

#[derive(Args)]
pub struct EpdArgs {
    /// The EPD suite: positions with `bm` (best moves) and/or `am` (moves to avoid).
    /// Records with neither are not tests and are skipped.
    file: PathBuf,
    /// Thinking time per position (the default limit: 1s). A bare number is milliseconds, as
    /// for every time of tempo-tools (`1000`); units `h`, `m`, `s`, `ms` also work (`1s`).
    #[arg(long, value_name = "TIME", conflicts_with_all = ["nodes", "depth"], value_parser = time_flag::positive_millis)]
    movetime: Option<Duration>,
    /// Nodes per position instead of a time: the same result on any machine and under any
    /// load (with one search thread).
    #[arg(long, conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Depth per position instead of a time.
    #[arg(long)]
    depth: Option<u32>,
    /// Search threads of each engine.
    #[arg(long, default_value_t = 1, value_parser = crate::matches::at_least_one())]
    threads: usize,
    /// Positions searched at once, each by its own engine (with `--movetime`, keep
    /// `jobs x threads` at most the number of cores).
    #[arg(long, default_value_t = 1, value_parser = crate::matches::at_least_one())]
    jobs: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = crate::matches::at_least_one())]
    hash: usize,
    /// An engine option, `NAME=VALUE` (e.g. `UseNNUE=false` for the hand-crafted
    /// evaluation), repeatable; applied after `--threads` and `--hash`.
    #[arg(long = "option")]
    options: Vec<String>,
}

/// A position of the suite and what the engine should (`bm`) or should not (`am`) play.
struct Case {
    id: String,
    position: Position,
    best: Vec<Move>,
    avoid: Vec<Move>,
}

/// A record of the suite: a case to run, or why it cannot be run.
enum Record {
    Case(Case),
    Unreadable { origin: String, error: EpdError },
}

/// The case of one EPD line (`number` names it when it has no `id`); `None` when it has
/// neither `bm` nor `am`.
fn read_case(line: &str, number: usize) -> Result<Option<Case>, EpdError> {
    let epd = Epd::parse(line)?;
    let (best, avoid) = (epd.best_moves()?, epd.avoid_moves()?);
    if best.is_empty() && avoid.is_empty() {
        return Ok(None);
    }
    let id = epd.id().map_or_else(|| format!("line {number}"), str::to_owned);
    Ok(Some(Case { id, position: epd.position, best, avoid }))
}

/// Every record of the suite, in file order.
fn read_suite(path: &Path) -> Result<Vec<Record>> {
    let text = suite::read(path)?;
    let mut records = Vec::new();
    for (number, line) in suite::records(&text) {
        match read_case(line, number) {
            Ok(Some(case)) => records.push(Record::Case(case)),
            Ok(None) => {}
            Err(error) => records.push(Record::Unreadable { origin: format!("{}:{number}", path.display()), error }),
        }
    }
    if records.is_empty() {
        return Err(suite::nothing_to_test(path, "record with a `bm` or `am` operation"));
    }
    Ok(records)
}

impl EpdArgs {
    /// The search limit of every position.
    fn limits(&self) -> Limits {
        match (self.nodes, self.depth) {
            (Some(nodes), _) => Limits::nodes(nodes),
            (None, Some(depth)) => Limits::depth(depth),
            (None, None) => Limits::movetime(self.movetime.unwrap_or(DEFAULT_MOVETIME)),
        }
    }

    /// An engine with this run's options.
    fn engine(&self) -> Result<Engine> {
        let mut engine = Engine::new();
        engine.set_option(EngineOption::Threads(self.threads)).context("setting Threads")?;
        engine.set_option(EngineOption::Hash(self.hash)).context("setting Hash")?;
        for option in &self.options {
            let option = engine_option::parse(option)?;
            engine.set_option(option).with_context(|| format!("setting {option:?}"))?;
        }
        Ok(engine)
    }
}

/// The engine's move within `limits` on a fresh game.
fn search(engine: &mut Engine, position: Position, limits: Limits) -> Result<Option<Move>> {
    engine.new_game().context("clearing the engine")?;
    engine.set_position(position, &[]).context("setting the position")?;
    let (tx, rx) = mpsc::channel();
    engine
        .go(limits, move |event| {
            if let Event::BestMove { best, .. } = event {
                let _ = tx.send(best);
            }
        })
        .context("starting the search")?;
    engine.wait();
    Ok(rx.recv().ok().flatten())
}

/// How one record came out.
enum Outcome {
    Passed,
    Failed,
    Unreadable,
}

/// The verdict of one record: its output line and how it came out.
struct Verdict {
    line: String,
    outcome: Outcome,
}

/// Searches one record (or reports why it cannot be searched).
fn judge(engine: &mut Engine, record: &Record, limits: &Limits) -> Result<Verdict> {
    let case = match record {
        Record::Unreadable { origin, error } => {
            let line = format!("{origin}: unreadable record ({error}): FAIL");
            return Ok(Verdict { line, outcome: Outcome::Unreadable });
        }
        Record::Case(case) => case,
    };
    let found = search(engine, case.position, limits.clone())?;
    let passed = found.is_some_and(|m| (case.best.is_empty() || case.best.contains(&m)) && !case.avoid.contains(&m));
    let found = found.map_or_else(|| "(none)".to_owned(), |m| san(&case.position, m));
    let line =
        format!("{}: expected {}, found {found}: {}", case.id, expected_text(case), if passed { "ok" } else { "FAIL" });
    let outcome = if passed { Outcome::Passed } else { Outcome::Failed };
    Ok(Verdict { line, outcome })
}

/// `bm X Y`, `am Z` or both, in SAN.
fn expected_text(case: &Case) -> String {
    let list = |moves: &[Move]| moves.iter().map(|&m| san(&case.position, m)).collect::<Vec<_>>().join(" ");
    match (case.best.is_empty(), case.avoid.is_empty()) {
        (false, true) => format!("bm {}", list(&case.best)),
        (true, false) => format!("am {}", list(&case.avoid)),
        _ => format!("bm {} am {}", list(&case.best), list(&case.avoid)),
    }
}

/// Runs the suite; `Ok(false)` when some record could not be read (a missed position is a
/// result, not a failure of the command).
pub fn run(args: &EpdArgs) -> Result<bool> {
    let records = read_suite(&args.file)?;
    let limits = args.limits();
    let jobs = args.jobs.clamp(1, records.len().max(1));
    let bar =
        if std::io::stderr().is_terminal() { ProgressBar::new(records.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} positions, eta {eta}").expect("valid template"));

    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Result<Verdict>)>();
    let (mut passed, mut failed, mut unreadable) = (0, 0, 0);
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..jobs {
            let (tx, next, records, limits) = (tx.clone(), &next, &records, &limits);
            scope.spawn(move || {
                // Every job builds its engine before its first search, so that a bad option
                // stops the command before any position is searched.
                let mut engine = match args.engine() {
                    Ok(engine) => engine,
                    Err(error) => {
                        let _ = tx.send((usize::MAX, Err(error)));
                        return;
                    }
                };
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(record) = records.get(index) else { return };
                    let verdict = judge(&mut engine, record, limits);
                    let failed = verdict.is_err();
                    if tx.send((index, verdict)).is_err() || failed {
                        return;
                    }
                }
            });
        }
        drop(tx);
        // Verdicts arrive in any order; print them in file order.
        let mut pending = BTreeMap::new();
        let mut printed = 0;
        let mut print_in_order = |index: usize, verdict: Result<Verdict>| -> Result<()> {
            pending.insert(index, verdict?);
            while let Some(verdict) = pending.remove(&printed) {
                match verdict.outcome {
                    Outcome::Passed => passed += 1,
                    Outcome::Failed => failed += 1,
                    Outcome::Unreadable => unreadable += 1,
                }
                bar.suspend(|| outln!("{}", verdict.line))?;
                bar.inc(1);
                printed += 1;
            }
            Ok(())
        };
        for (index, verdict) in rx {
            if let Err(error) = print_in_order(index, verdict) {
                // The other jobs stop after their current position.
                next.store(records.len(), Ordering::Relaxed);
                return Err(error);
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    outln!("{passed} passed, {} failed", failed + unreadable)?;
    Ok(unreadable == 0)
}
