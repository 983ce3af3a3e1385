//! `tempo-tools perft`: perft suites from EPD files, or one position with optional divide.
//!
//! Output contract (DESIGN.md): with `--epd`, one line per failure and a last line
//! `N passed, M failed` (exit 1 on any failure); with `--fen`, `move: count` lines under
//! `--divide` and a last line `Nodes searched: N`.

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::PathBuf;
use tempo_core::{parse_fen, perft, CastlingMode, FenError, Position, PositionError};
use tempo_notation::uci_move;

#[derive(Args)]
pub struct PerftArgs {
    /// EPD perft suites (`FEN ;D1 20 ;D2 400 ...`). Files whose header comments mention
    /// CHESS960 use Chess960 castling.
    #[arg(long, num_args = 1.., conflicts_with = "fen")]
    epd: Vec<PathBuf>,
    /// Only check counts up to this many nodes.
    #[arg(long)]
    max_nodes: Option<u64>,
    /// A single position.
    #[arg(long, requires = "depth")]
    fen: Option<String>,
    /// Depth for `--fen`.
    #[arg(long)]
    depth: Option<u32>,
    /// Print the count below each root move (UCI notation).
    #[arg(long, requires = "fen")]
    divide: bool,
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
        let pos = parse_any(fen, args.chess960).with_context(|| format!("invalid fen {fen:?}"))?;
        return single(&pos, depth, args.divide);
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
        return parse_fen(fen, CastlingMode::Chess960);
    }
    match parse_fen(fen, CastlingMode::Standard) {
        Err(e @ (FenError::Castling(_) | FenError::Position(PositionError::InvalidCastling(_)))) => {
            parse_fen(fen, CastlingMode::Chess960).map_err(|_| e)
        }
        other => other,
    }
}

/// Leaf count, split across threads at the root.
fn parallel_perft(pos: &Position, depth: u32) -> Vec<(tempo_core::Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .par_iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

fn single(pos: &Position, depth: u32, divide: bool) -> Result<bool> {
    let total = if depth == 0 {
        1
    } else if divide {
        let counts = parallel_perft(pos, depth);
        for (m, n) in &counts {
            outln!("{}: {n}", uci_move(pos, *m))?;
        }
        counts.iter().map(|(_, n)| n).sum()
    } else if depth >= 4 {
        parallel_perft(pos, depth).iter().map(|(_, n)| n).sum()
    } else {
        perft(pos, depth)
    };
    if divide {
        outln!()?;
    }
    outln!("Nodes searched: {total}")?;
    Ok(true)
}

struct Job {
    origin: String,
    fen: String,
    mode: CastlingMode,
    depth: u32,
    expected: u64,
}

fn load_jobs(args: &PerftArgs) -> Result<(Vec<Job>, Vec<String>)> {
    let mut jobs = Vec::new();
    let mut malformed = Vec::new();
    for path in &args.epd {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let header_960 = text.lines().take_while(|l| l.starts_with('#')).any(|l| l.contains("CHESS960"));
        let mode = if header_960 || args.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let origin = format!("{}:{}", path.display(), i + 1);
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or_default().trim().to_owned();
            for part in parts {
                let part = part.trim();
                let parsed = part
                    .strip_prefix('D')
                    .and_then(|p| p.split_once(char::is_whitespace))
                    .and_then(|(d, n)| Some((d.parse::<u32>().ok()?, n.trim().parse::<u64>().ok()?)));
                match parsed {
                    Some((depth, expected)) => {
                        if args.max_nodes.is_none_or(|max| expected <= max) {
                            jobs.push(Job { origin: origin.clone(), fen: fen.clone(), mode, depth, expected });
                        }
                    }
                    None => malformed.push(format!("{origin}: malformed depth entry {part:?}")),
                }
            }
        }
    }
    Ok((jobs, malformed))
}

fn suites(args: &PerftArgs) -> Result<bool> {
    let (jobs, malformed) = load_jobs(args)?;
    let total_nodes: u64 = jobs.iter().map(|j| j.expected).sum();
    let bar = ProgressBar::new(total_nodes);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {percent:>3}% {human_pos}/{human_len} nodes, eta {eta}")
            .expect("valid template"),
    );
    // Big counts split at the root; small ones run one per thread.
    let failures: Vec<String> = jobs
        .par_iter()
        .filter_map(|job| {
            let parsed = match job.mode {
                CastlingMode::Chess960 => parse_fen(&job.fen, CastlingMode::Chess960),
                // A file without the CHESS960 header may still hold Shredder-FEN lines.
                CastlingMode::Standard => parse_any(&job.fen, false),
            };
            let result = match parsed {
                Ok(pos) => {
                    let got = if job.expected > 5_000_000 {
                        parallel_perft(&pos, job.depth).iter().map(|(_, n)| n).sum()
                    } else {
                        perft(&pos, job.depth)
                    };
                    (got != job.expected).then(|| {
                        format!("{}: {} depth {}: expected {}, got {got}", job.origin, job.fen, job.depth, job.expected)
                    })
                }
                Err(e) => Some(format!("{}: {}: {e}", job.origin, job.fen)),
            };
            bar.inc(job.expected);
            result
        })
        .collect();
    bar.finish_and_clear();
    for line in malformed.iter().chain(&failures) {
        outln!("{line}")?;
    }
    let failed = failures.len() + malformed.len();
    outln!("{} passed, {failed} failed", jobs.len() - failures.len())?;
    Ok(failed == 0)
}
