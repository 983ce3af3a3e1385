//! `tempo-tools match` against the built-in engine, at a fixed depth so the games are
//! quick and need no wall-clock assumptions.

use std::path::PathBuf;
use std::process::Command;

fn tools() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tempo-tools"))
}

/// The built-in engine beside tempo-tools; `cargo test --workspace` builds it, a lone
/// `cargo test -p tempo-tools` may not, so build it then.
fn engine() -> PathBuf {
    let path = tools().with_file_name(format!("tempo-uci{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let status = Command::new(env!("CARGO")).args(["build", "-p", "tempo-uci"]).status().unwrap();
        assert!(status.success());
    }
    assert!(path.exists(), "{} missing", path.display());
    path
}

#[test]
fn a_short_match_reports_results_and_writes_pgn() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/openings/openings.epd");
    let out = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--depth", "2", "--games", "2", "--max-moves", "30", "--openings", openings, "--sprt", "0,10"])
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Game 1/2:") && text.contains("Game 2/2:"), "{text}");
    assert!(text.contains(": 2 games, W/D/L"), "{text}");
    assert!(text.contains("Elo difference:"), "{text}");
    assert!(text.contains("0 time forfeits, 0 illegal moves, 0 crashes"), "{text}");
    assert!(text.contains("SPRT [0, 10]"), "{text}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event \"tempo-tools match\"]").count(), 2, "{games}");
    // Both games start from the first opening, colours swapped.
    assert_eq!(
        games.matches("[FEN \"rn1q1rk1/pbp2ppp/1p1ppn2/6B1/2PP4/P1Q2P2/1P2P1PP/R3KBNR w KQ - 0 9\"]").count(),
        2
    );
}

#[test]
fn an_engine_that_cannot_start_loses_and_is_counted() {
    let engine = engine();
    let out = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--engine", "/nonexistent/engine", "--depth", "1", "--games", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("W/D/L 2/0/0"), "{text}");
    assert!(text.contains("engine: 0 time forfeits, 0 illegal moves, 2 crashes"), "{text}");
}

#[test]
fn bad_arguments_are_errors() {
    let out =
        Command::new(tools()).args(["match", "--engine", "x", "--engine", "y", "--tc", "nonsense"]).output().unwrap();
    assert!(!out.status.success());
    let out =
        Command::new(tools()).args(["match", "--engine", "x", "--engine", "y", "--sprt", "5,0"]).output().unwrap();
    assert!(!out.status.success());
}
