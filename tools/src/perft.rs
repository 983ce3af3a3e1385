//! `tempo-tools perft`: perft suites from EPD files, or one position with optional divide.
//!
//! Output contract (see the README): with `--epd`, one line per failure and a last line
//! `N passed, M failed` (exit 1 on any failure); with `--fen`, `move: count` lines under
//! `--divide` and a last line `Nodes searched: N`.
//!
//! A suite is data to distrust: a line that is not a `FEN ;D1 n ;D2 m` record is a failure
//! (a broken suite must not pass), and every count is checked with `perft_within`, which gives
//! up once the leaves exceed the expected count, so a wrong or absurd entry (`;D300 5`) costs
//! no more than a right one.

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use tempo_core::{perft::perft_within, CastlingMode, Defect, FenError, Move, Position};
use tempo_notation::{divide_lines, MoveNotation};

use crate::suite;

#[derive(Args)]
pub struct PerftArgs {
    /// EPD perft suites (`FEN ;D1 20 ;D2 400 ...`). Files whose header comments mention
    /// CHESS960 use Chess960 castling. A line that is not such a record (no `;D` entry, an
    /// invalid FEN, a malformed entry, a depth above 64) counts as a failure, as does a count
    /// that exceeds the expected one (found without counting further).
    #[arg(long, num_args = 1.., conflicts_with = "fen")]
    epd: Vec<PathBuf>,
    /// Only check counts up to this many nodes.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// A single position.
    #[arg(long, requires = "depth")]
    fen: Option<String>,
    /// Depth for `--fen` (at most 64).
    #[arg(long)]
    depth: Option<u32>,
    /// Print the count below each root move, a line `MOVE: COUNT` per move.
    #[arg(long, requires = "fen")]
    divide: bool,
    /// The notation of the moves --divide lists, `uci` or `san` (as `tempo perft` writes).
    #[arg(long, value_name = "uci|san", default_value = "uci", requires = "divide")]
    notation: MoveNotation,
    /// Read FENs with Chess960 castling (Shredder-FEN or X-FEN).
    #[arg(long)]
    chess960: bool,
    /// Worker threads (default: all cores). Deep counts are split at the root.
    #[arg(long)]
    threads: Option<usize>,
}

/// Runs the command; `Ok(false)` means some count was wrong.
pub fn run(args: &PerftArgs) -> Result<bool> {
    if let Some(threads) = args.threads {
        rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build_global().context("starting threads")?;
    }
    if let Some(fen) = &args.fen {
        let depth = args.depth.context("--fen needs --depth")?;
        if depth > MAX_DEPTH {
            // Deeper would only overflow the stack: fail with a reason instead.
            bail!("--depth {depth} is above the deepest perft, {MAX_DEPTH}");
        }
        let pos = parse_any(fen, args.chess960).with_context(|| format!("invalid fen {fen:?}"))?;
        return single(&pos, depth, args.divide.then_some(args.notation));
    }
    if args.epd.is_empty() {
        bail!("give --epd FILE... or --fen FEN --depth D");
    }
    suites(args)
}

/// Parses in the requested mode; in standard mode, falls back to Chess960 when only the
/// castling rights stand in the way (a Shredder-FEN or a 960 setup).
fn parse_any(fen: &str, chess960: bool) -> Result<Position, FenError> {
    if chess960 {
        return Position::from_fen(fen, CastlingMode::Chess960);
    }
    let castling_in_the_way = |e: &FenError| match e {
        FenError::Castling(_) => true,
        FenError::Position(e) => e.defects().iter().any(|d| matches!(d, Defect::InvalidCastling(_))),
        _ => false,
    };
    match Position::from_fen(fen, CastlingMode::Standard) {
        Err(e) if castling_in_the_way(&e) => Position::from_fen(fen, CastlingMode::Chess960).map_err(|_| e),
        other => other,
    }
}

/// Counts above this are split at the root across threads; smaller ones run one per thread
/// (the jobs of a suite run in parallel anyway).
const PARALLEL_ABOVE: u64 = 5_000_000;

/// The deepest count, for `--depth` and a suite's `;D` entries. Each ply is a stack frame,
/// and a count deeper than 64 plies that fits the 64 bits of a count needs fewer than two
/// legal moves per ply on average: no real position has one.
const MAX_DEPTH: u32 = 64;

/// The leaf count below each root move, the moves shared out across threads; `None` as soon
/// as one of them exceeds `limit`.
fn parallel_divide(pos: &Position, depth: u32, limit: u64, bar: &ProgressBar) -> Option<Vec<(Move, u64)>> {
    pos.legal_moves()
        .par_iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            let count = perft_within(&child, depth.saturating_sub(1), limit).map(|n| (m, n));
            bar.inc(1);
            count
        })
        .collect()
}

/// The sum of divided counts, `None` past `limit`.
fn total_within(counts: &[(Move, u64)], limit: u64) -> Option<u64> {
    counts.iter().try_fold(0u64, |sum, &(_, n)| sum.checked_add(n)).filter(|&total| total <= limit)
}

/// The leaf count if it is at most `limit` (found without counting further), split at the
/// root when it may be big. Each root move is bounded by the whole limit, so a wrong count
/// costs at most the number of root moves times the limit.
fn count_within(pos: &Position, depth: u32, limit: u64) -> Option<u64> {
    if depth < 2 || limit <= PARALLEL_ABOVE {
        return perft_within(pos, depth, limit);
    }
    total_within(&parallel_divide(pos, depth, limit, &ProgressBar::hidden())?, limit)
}

/// `--fen FEN --depth D [--divide [--notation N]]`: `divide` is the notation of the listing.
fn single(pos: &Position, depth: u32, divide: Option<MoveNotation>) -> Result<bool> {
    const TOO_MANY: &str = "the count does not fit in 64 bits";
    let total = if depth >= 2 || (divide.is_some() && depth == 1) {
        // Split at the root, with a bar of root moves done when someone watches.
        let bar = if depth >= 2 && std::io::stderr().is_terminal() {
            ProgressBar::new(pos.legal_moves().len() as u64)
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} root moves, {elapsed}").expect("template"));
        let counts = parallel_divide(pos, depth, u64::MAX, &bar);
        bar.finish_and_clear();
        let counts = counts.context(TOO_MANY)?;
        if let Some(notation) = divide {
            for line in divide_lines(pos, &counts, notation) {
                outln!("{line}")?;
            }
        }
        total_within(&counts, u64::MAX).context(TOO_MANY)?
    } else {
        count_within(pos, depth, u64::MAX).context(TOO_MANY)?
    };
    if divide.is_some() {
        outln!()?;
    }
    outln!("Nodes searched: {total}")?;
    Ok(true)
}

/// One count of a suite to verify.
struct Job {
    /// `file:line`, for the failure message.
    origin: String,
    fen: String,
    pos: Position,
    depth: u32,
    expected: u64,
}

/// What a suite line asks for: counts to verify, or why it cannot be checked.
enum Check {
    Count(Job),
    Malformed(String),
}

/// `D<depth> <count>`, as (depth, count).
fn parse_entry(entry: &str) -> Option<(u32, u64)> {
    let (depth, count) = entry.strip_prefix('D')?.split_once(char::is_whitespace)?;
    Some((depth.parse().ok()?, count.trim().parse().ok()?))
}

/// The checks of one record `FEN ;D1 20 ;D2 400`: one per entry whose count is within
/// `max_nodes`, one failure per malformed entry, and a single failure for the whole line when
/// it has no entry or its FEN is invalid.
fn read_record(origin: &str, line: &str, chess960: bool, max_nodes: Option<u64>) -> Vec<Check> {
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or_default().trim();
    // Empty entries are the separators' slack: `... 0 1;D1 20;D2 400;`.
    let entries: Vec<&str> = parts.map(str::trim).filter(|e| !e.is_empty()).collect();
    if entries.is_empty() {
        return vec![Check::Malformed(format!("{origin}: not a perft record (FEN ;D1 n ;D2 m ...): {line:?}"))];
    }
    let pos = match parse_any(fen, chess960) {
        Ok(pos) => pos,
        Err(e) => return vec![Check::Malformed(format!("{origin}: {fen}: {e}"))],
    };
    let mut checks = Vec::new();
    for entry in entries {
        match parse_entry(entry) {
            None => checks.push(Check::Malformed(format!("{origin}: malformed depth entry {entry:?}"))),
            Some((depth, _)) if depth > MAX_DEPTH => {
                checks.push(Check::Malformed(format!("{origin}: depth entry {entry:?}: depth above {MAX_DEPTH}")))
            }
            Some((depth, expected)) => {
                if max_nodes.is_none_or(|max| expected <= max) {
                    let job = Job { origin: origin.to_owned(), fen: fen.to_owned(), pos, depth, expected };
                    checks.push(Check::Count(job));
                }
            }
        }
    }
    checks
}

/// The checks of one suite file, in file order.
fn read_suite(path: &Path, chess960: bool, max_nodes: Option<u64>) -> Result<Vec<Check>> {
    let text = suite::read(path)?;
    let header_960 = text.lines().take_while(|l| l.starts_with('#')).any(|l| l.contains("CHESS960"));
    let mut checks = Vec::new();
    for (number, line) in suite::records(&text) {
        let origin = format!("{}:{number}", path.display());
        checks.extend(read_record(&origin, line, chess960 || header_960, max_nodes));
    }
    if checks.is_empty() {
        return Err(suite::nothing_to_test(path, "perft record"));
    }
    Ok(checks)
}

/// The failure line of a check, `None` if it passes.
fn verify(check: &Check) -> Option<String> {
    let job = match check {
        Check::Count(job) => job,
        Check::Malformed(why) => return Some(why.clone()),
    };
    let got = match count_within(&job.pos, job.depth, job.expected) {
        Some(got) if got == job.expected => return None,
        Some(got) => got.to_string(),
        None => format!("more than {}", job.expected),
    };
    Some(format!("{}: {} depth {}: expected {}, got {got}", job.origin, job.fen, job.depth, job.expected))
}

/// `--epd FILE...`.
fn suites(args: &PerftArgs) -> Result<bool> {
    let mut checks = Vec::new();
    for path in &args.epd {
        checks.extend(read_suite(path, args.chess960, args.max_nodes)?);
    }
    let expected = |check: &Check| if let Check::Count(job) = check { job.expected } else { 0 };
    let bar = ProgressBar::new(checks.iter().map(expected).sum());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {percent:>3}% {human_pos}/{human_len} nodes, eta {eta}")
            .expect("valid template"),
    );
    let failures: Vec<String> = checks
        .par_iter()
        .filter_map(|check| {
            let failure = verify(check);
            bar.inc(expected(check));
            failure
        })
        .collect();
    bar.finish_and_clear();
    for line in &failures {
        outln!("{line}")?;
    }
    let passed = checks.len() - failures.len();
    outln!("{passed} passed, {} failed", failures.len())?;
    Ok(failures.is_empty())
}
