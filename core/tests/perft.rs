//! Data-driven perft: every position and depth of `data/perft/*.epd` whose count fits the
//! node budget (`TEMPO_PERFT_BUDGET`, default 2,000,000 leaf nodes per count). The full
//! depths run with `cargo xtask perft --full`.

use std::path::{Path, PathBuf};
use tempo_core::{
    perft::{perft, perft_plain},
    CastlingMode, Position,
};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/perft")
}

fn budget() -> u64 {
    std::env::var("TEMPO_PERFT_BUDGET").ok().and_then(|s| s.parse().ok()).unwrap_or(2_000_000)
}

struct Case {
    line: usize,
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn load(name: &str) -> (CastlingMode, Vec<Case>) {
    let text = std::fs::read_to_string(data_dir().join(name)).expect("perft suite readable");
    let mode = if text.lines().take_while(|l| l.starts_with('#')).any(|l| l.contains("CHESS960")) {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let cases = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim().to_owned();
            let depths = parts
                .map(|p| {
                    let (d, n) = p.trim().split_once(' ').expect("D<depth> <count>");
                    (d.trim_start_matches('D').parse().unwrap(), n.trim().parse().unwrap())
                })
                .collect();
            Case { line: i + 1, fen, depths }
        })
        .collect();
    (mode, cases)
}

fn run_suite(name: &str, accept_rejection: bool) {
    let (mode, cases) = load(name);
    assert!(!cases.is_empty());
    let budget = budget();
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let pos = match tempo_core::Position::from_fen(&case.fen, mode) {
            Ok(pos) => pos,
            Err(e) if accept_rejection => {
                eprintln!("{name}:{}: rejected ({e}), allowed for this suite", case.line);
                continue;
            }
            Err(e) => panic!("{name}:{}: {} rejected: {e}", case.line, case.fen),
        };
        for &(depth, expected) in &case.depths {
            if expected > budget {
                continue;
            }
            let got = perft(&pos, depth);
            checked += 1;
            if got != expected {
                failures
                    .push(format!("{name}:{} {} depth {depth}: expected {expected}, got {got}", case.line, case.fen));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(checked > 0, "{name}: no count within the budget");
}

#[test]
fn standard() {
    run_suite("standard.epd", false);
}

#[test]
fn cpw() {
    run_suite("cpw.epd", false);
}

#[test]
fn talkchess() {
    run_suite("talkchess.epd", false);
}

#[test]
fn tricky() {
    run_suite("tricky.epd", false);
}

#[test]
fn unreachable() {
    run_suite("unreachable.epd", true);
}

#[test]
fn fischer() {
    run_suite("fischer.epd", false);
}

#[test]
fn tricky960() {
    run_suite("tricky960.epd", false);
}

#[test]
fn bulk_counting_equals_playing_every_move() {
    let (_, cases) = load("tricky.epd");
    for case in cases {
        let pos: Position = case.fen.parse().unwrap();
        for depth in 1..=3 {
            assert_eq!(perft(&pos, depth), perft_plain(&pos, depth), "{}", case.fen);
        }
    }
}
