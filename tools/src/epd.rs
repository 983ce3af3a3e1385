//! `tempo-tools epd FILE --movetime MS`: run a `bm`/`am` test suite (WAC, Bratko-Kopec...)
//! with the built-in engine. One line per position (id, expected, found, verdict) and a last
//! line `N passed, M failed`; a progress bar on a terminal.

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;
use tempo_core::Move;
use tempo_engine::{Engine, EngineOption, Event, Limits};
use tempo_notation::{san, Epd};

#[derive(Args)]
pub struct EpdArgs {
    /// The EPD suite: positions with `bm` (best moves) and/or `am` (moves to avoid).
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
}

/// Runs the suite; always `Ok(true)` unless the file or engine fails (a missed position is a
/// result, not an error).
pub fn run(args: &EpdArgs) -> Result<bool> {
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let epd = Epd::parse(line).with_context(|| format!("{}:{}", args.file.display(), i + 1))?;
        let best = epd.best_moves().with_context(|| format!("{}:{}: bm", args.file.display(), i + 1))?;
        let avoid = epd.avoid_moves().with_context(|| format!("{}:{}: am", args.file.display(), i + 1))?;
        if best.is_empty() && avoid.is_empty() {
            continue;
        }
        let id = epd.id().map(str::to_owned).unwrap_or_else(|| format!("line {}", i + 1));
        cases.push((id, epd, best, avoid));
    }

    let mut engine = Engine::new();
    engine.set_option(EngineOption::Threads(args.threads.max(1))).context("setting Threads")?;
    engine.set_option(EngineOption::Hash(args.hash.max(1))).context("setting Hash")?;
    let bar =
        if std::io::stderr().is_terminal() { ProgressBar::new(cases.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} positions, eta {eta}").expect("valid template"));

    let (mut passed, mut failed) = (0, 0);
    for (id, epd, best, avoid) in &cases {
        let pos = epd.position;
        engine.new_game().context("clearing the engine")?;
        engine.set_position(pos, &[]).context("setting the position")?;
        let (tx, rx) = mpsc::channel();
        engine
            .go(Limits::movetime(Duration::from_millis(args.movetime)), move |event| {
                if let Event::BestMove { best, .. } = event {
                    let _ = tx.send(best);
                }
            })
            .context("starting the search")?;
        engine.wait();
        let found: Option<Move> = rx.recv().ok().flatten();
        let ok = found.is_some_and(|m| (best.is_empty() || best.contains(&m)) && !avoid.contains(&m));
        let list = |moves: &[Move]| moves.iter().map(|&m| san(&pos, m)).collect::<Vec<_>>().join(" ");
        let expected = match (best.is_empty(), avoid.is_empty()) {
            (false, true) => format!("bm {}", list(best)),
            (true, false) => format!("am {}", list(avoid)),
            _ => format!("bm {} am {}", list(best), list(avoid)),
        };
        let found_text = found.map(|m| san(&pos, m)).unwrap_or_else(|| "(none)".to_owned());
        bar.suspend(|| outln!("{id}: expected {expected}, found {found_text}: {}", if ok { "ok" } else { "FAIL" }))?;
        bar.inc(1);
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    bar.finish_and_clear();
    outln!("{passed} passed, {failed} failed")?;
    Ok(true)
}
