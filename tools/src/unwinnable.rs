//! `tempo-tools unwinnable`: the dead-position decision (`tempo_core::unwinnable::can_mate`)
//! over a file of labelled positions, as `data/unwinnable/cases.txt` writes them: the score
//! by label, every wrong answer, and the time each question took.

use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tempo_core::unwinnable::{can_mate, CanMate, DEFAULT_NODES};
use tempo_core::{CastlingMode, Color, Position, Setup};

#[derive(Args)]
pub struct UnwinnableArgs {
    /// The labelled positions: per line two characters (`W` or `-`: can White mate; `B` or
    /// `-`: can Black), a space, and a FEN (its move counters may be left out).
    file: PathBuf,
    /// The node budget of each question.
    #[arg(long, default_value_t = DEFAULT_NODES)]
    nodes: u64,
    /// Also list the questions left undecided.
    #[arg(long)]
    undecided: bool,
}

/// One labelled line: the position and, for White and Black, whether the side can mate.
fn parse(line: &str) -> Result<(Position, [bool; 2])> {
    let (label, fen) = line.split_once(' ').context("no space after the label")?;
    let label = label.as_bytes();
    if label.len() != 2 || !matches!(label[0], b'W' | b'-') || !matches!(label[1], b'B' | b'-') {
        bail!("the label must be two characters, W or - then B or -");
    }
    let full = if fen.split_whitespace().count() == 4 { format!("{fen} 0 1") } else { fen.to_owned() };
    let setup = Setup::from_fen(&full, CastlingMode::Standard)?;
    let pos = Position::from_setup(setup, CastlingMode::Standard)?;
    Ok((pos, [label[0] == b'W', label[1] == b'B']))
}

/// `true` if `line` from `pos` is legal and ends with `mater`'s opponent checkmated.
fn mates(pos: &Position, mater: Color, line: &[tempo_core::Move]) -> bool {
    let mut pos = *pos;
    line.iter().all(|&m| pos.play(m).is_ok()) && pos.turn() == !mater && pos.is_checkmate()
}

/// The value at `fraction` (0 to 1) of sorted `times`.
fn percentile(times: &[Duration], fraction: f64) -> Duration {
    let index = ((times.len() - 1) as f64 * fraction).round() as usize;
    times[index]
}

/// Runs the check; `false` when an answer contradicts its label (or a helpmate does not mate).
pub fn run(args: &UnwinnableArgs) -> Result<bool> {
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    // [label can mate][answer: yes, no, undecided]
    let mut table = [[0usize; 3]; 2];
    let mut times = Vec::new();
    let mut wrong = 0;
    for (number, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let (pos, labels) = parse(line).with_context(|| format!("{}:{}", args.file.display(), number + 1))?;
        for (mater, can) in [(Color::White, labels[0]), (Color::Black, labels[1])] {
            let start = Instant::now();
            let answer = can_mate(&pos, mater, args.nodes);
            times.push(start.elapsed());
            let (column, right) = match &answer {
                CanMate::Yes(line) => (0, can && mates(&pos, mater, line)),
                CanMate::No(_) => (1, !can),
                CanMate::Undecided => (2, true),
            };
            table[usize::from(can)][column] += 1;
            if !right {
                wrong += 1;
                outln!("WRONG {mater:?}: {answer:?} for {line}")?;
            } else if column == 2 && args.undecided {
                outln!("undecided {mater:?}: {line}")?;
            }
        }
    }
    if times.is_empty() {
        bail!("{} holds no positions", args.file.display());
    }
    times.sort();
    let decided = table[1][0] + table[0][1];
    outln!("label \"can mate\":    yes {:4}  no {:4}  undecided {:4}", table[1][0], table[1][1], table[1][2])?;
    outln!("label \"cannot mate\": yes {:4}  no {:4}  undecided {:4}", table[0][0], table[0][1], table[0][2])?;
    outln!("decided right: {decided} of {}, wrong: {wrong}", times.len())?;
    outln!(
        "time per question: median {:?}, 99th percentile {:?}, worst {:?}",
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times[times.len() - 1]
    )?;
    Ok(wrong == 0)
}
