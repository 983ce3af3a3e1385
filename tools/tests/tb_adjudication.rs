//! `tempo-tools match --tb` and `datagen --tb`: positions in the Syzygy tables
//! (python-chess's 3- and 4-men set, fetched by the Syzygy tests' support module into the
//! cache) end games by their result.

#[path = "../../syzygy/tests/support/mod.rs"]
mod support;

mod bins;

use bins::{engine, tools};
use std::process::Command;

#[test]
fn positions_in_the_tables_are_adjudicated_by_their_result() {
    let Some(tables) = support::tables() else { return };
    let dir = std::env::temp_dir().join(format!("tempo-tb-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Won for White (KRvK) and drawn (KNvKN); each played twice, colours swapped.
    let openings = dir.join("endings.epd");
    std::fs::write(&openings, "8/8/8/3k4/8/8/8/1R2K3 w - - 0 1\n8/8/3n4/3k4/8/8/8/1N2K3 w - - 0 1\n").unwrap();
    let pgn = dir.join("games.pgn");
    let engine = engine();
    let out = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--depth", "2", "--games", "4", "--openings"])
        .arg(&openings)
        .arg("--tb")
        .arg(&tables)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Termination \"adjudication\"]").count(), 4, "{games}");
    assert_eq!(games.matches("[Result \"1-0\"]").count(), 2, "{games}");
    assert_eq!(games.matches("[Result \"1/2-1/2\"]").count(), 2, "{games}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_tb_folder_without_tables_is_an_error() {
    let dir = std::env::temp_dir().join(format!("tempo-tb-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(tools()).args(["match", "--engine"]).arg(engine()).arg("--tb").arg(&dir).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no Syzygy tables there"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn datagen_ends_games_in_the_tables_by_their_result() {
    let Some(tables) = support::tables() else { return };
    let dir = std::env::temp_dir().join(format!("tempo-tb-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Won for White, then won for Black (KRvK with Black's rook), then drawn (KNvKN).
    let openings = dir.join("endings.epd");
    std::fs::write(
        &openings,
        "8/8/8/3k4/8/8/8/1R2K3 w - - 0 1\n8/8/8/3k4/8/8/8/1r2K3 w - - 0 1\n8/8/3n4/3k4/8/8/8/1N2K3 w - - 0 1\n",
    )
    .unwrap();
    let out = dir.join("data.txt");
    let output = Command::new(tools())
        .args(["datagen", "--games", "3", "--nodes", "200", "--random-plies", "0", "--seed", "1", "--openings"])
        .arg(&openings)
        .arg("--tb")
        .arg(&tables)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let summary = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{summary}\n{}", String::from_utf8_lossy(&output.stderr));
    // Every game ends before the engine's first move: no positions, one result of each kind.
    assert!(summary.starts_with("0 positions from 3 games (+1 =1 -1 for White;"), "{summary}");
    std::fs::remove_dir_all(&dir).unwrap();
}
