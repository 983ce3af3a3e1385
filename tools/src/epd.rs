//! `tempo-tools epd FILE --movetime MS`: run a `bm`/`am` test suite (WAC, Bratko-Kopec...)
//! with the built-in engine. One line per position (id, expected, found, verdict) and a last
//! line `N passed, M failed`; a progress bar on a terminal.
//!
//! A record that cannot be run (not EPD, an invalid position, a `bm`/`am` move that is not
//! legal there) is one failed line naming its file and line, and the suite goes on: one typo
//! must not hide the results of the other positions. Missed positions are results, so the
//! exit status is 0 whatever the engine found, but 1 when some record could not be read (the
//! suite itself needs fixing).

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;
use tempo_core::{Move, Position};
use tempo_engine::{Engine, EngineOption, Event, Limits};
use tempo_notation::{san, Epd, EpdError};

use crate::{engine_option, suite};

#[derive(Args)]
pub struct EpdArgs {
    /// The EPD suite: positions with `bm` (best moves) and/or `am` (moves to avoid).
    /// Records with neither are not tests and are skipped.
    file: PathBuf,
    /// Thinking time per position in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
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
    Ok(records)
}

/// The engine's move after `movetime` on a fresh game.
fn search(engine: &mut Engine, position: Position, movetime: Duration) -> Result<Option<Move>> {
    engine.new_game().context("clearing the engine")?;
    engine.set_position(position, &[]).context("setting the position")?;
    let (tx, rx) = mpsc::channel();
    engine
        .go(Limits::movetime(movetime), move |event| {
            if let Event::BestMove { best, .. } = event {
                let _ = tx.send(best);
            }
        })
        .context("starting the search")?;
    engine.wait();
    Ok(rx.recv().ok().flatten())
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
    let mut engine = Engine::new();
    engine.set_option(EngineOption::Threads(args.threads.max(1))).context("setting Threads")?;
    engine.set_option(EngineOption::Hash(args.hash.max(1))).context("setting Hash")?;
    for option in &args.options {
        let option = engine_option::parse(option)?;
        engine.set_option(option).with_context(|| format!("setting {option:?}"))?;
    }
    let bar =
        if std::io::stderr().is_terminal() { ProgressBar::new(records.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} positions, eta {eta}").expect("valid template"));

    let (mut passed, mut failed, mut unreadable) = (0, 0, 0);
    for record in &records {
        let line = match record {
            Record::Unreadable { origin, error } => {
                unreadable += 1;
                format!("{origin}: unreadable record ({error}): FAIL")
            }
            Record::Case(case) => {
                let found = search(&mut engine, case.position, Duration::from_millis(args.movetime))?;
                let ok =
                    found.is_some_and(|m| (case.best.is_empty() || case.best.contains(&m)) && !case.avoid.contains(&m));
                if ok {
                    passed += 1;
                } else {
                    failed += 1;
                }
                let found = found.map_or_else(|| "(none)".to_owned(), |m| san(&case.position, m));
                format!(
                    "{}: expected {}, found {found}: {}",
                    case.id,
                    expected_text(case),
                    if ok { "ok" } else { "FAIL" }
                )
            }
        };
        bar.suspend(|| outln!("{line}"))?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    outln!("{passed} passed, {} failed", failed + unreadable)?;
    Ok(unreadable == 0)
}
