//! `tempo-tools data stats`: a file that is not training data stops after a few errors with
//! one verdict; a real file with a few broken games reports each of them.

use std::path::Path;
use std::process::{Command, Output};
use tempo_core::{GameResult, Position};
use tempo_notation::{parse_uci_move, PackedGame};

fn stats(path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo-tools")).args(["data", "stats"]).arg(path).output().unwrap()
}

/// A short game from the start position, in viriformat.
fn game_bytes() -> Vec<u8> {
    let mut game = PackedGame::new(Position::startpos(), GameResult::Draw);
    for text in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        let mv = parse_uci_move(&game.final_position(), text).unwrap();
        game.push(mv, 20).unwrap();
    }
    let mut bytes = Vec::new();
    game.write_to(&mut bytes).unwrap();
    bytes
}

/// The same game with its first move turned into an illegal one.
fn broken_game_bytes() -> Vec<u8> {
    let mut bytes = game_bytes();
    bytes[33] ^= 0x3f; // the first move's destination
    bytes
}

#[test]
fn a_file_that_is_not_training_data_stops_after_a_few_errors() {
    let dir = tempfile::tempdir().unwrap();
    // A network file of the engine (the first 20 KB of any).
    let nets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/nets");
    let network_path = std::fs::read_dir(&nets)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "nnue"))
        .expect("a network in engine/nets");
    let network = std::fs::read(network_path).unwrap();
    // Each is a stream of misread records until the fifth, or one record that stops reading.
    let files: [(&str, Vec<u8>, &str); 4] = [
        ("zeros.bin", vec![0; 20_480], "its first 5 records are all broken"),
        ("network.bin", network[..20_480].to_vec(), "its first 5 records are all broken"),
        ("broken.vf", broken_game_bytes().repeat(100), "its first 5 records are all broken"),
        ("games.pgn", "[Event \"x\"]\n\n1. e4 e5 *\n".repeat(800).into_bytes(), "none of its records is a game"),
    ];
    for (name, bytes, why) in files {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = stats(&path);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert!(out.stdout.is_empty(), "{name}: {}", String::from_utf8_lossy(&out.stdout));
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().collect();
        assert!(lines.len() <= 6, "{name}: {err}");
        assert_eq!(
            lines.last().copied(),
            Some(format!("error: {}: not a viriformat file: {why}", path.display()).as_str()),
            "{name}"
        );
    }
}

#[test]
fn a_real_file_with_a_few_broken_games_reports_each() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.vf");
    // Four broken games first (one fewer than the verdict needs), then good and broken ones.
    let mut bytes = broken_game_bytes().repeat(4);
    bytes.extend(game_bytes().repeat(3));
    bytes.extend(broken_game_bytes().repeat(8));
    bytes.extend(game_bytes());
    std::fs::write(&path, bytes).unwrap();
    let out = stats(&path);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 12, "{err}");
    assert!(err.lines().all(|l| l.contains("is not legal in the position")), "{err}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(": 4 games (+0 =4 -0 for White), 16 positions"), "{text}");
    assert!(text.trim_end().ends_with("12 broken games"), "{text}");
}

#[test]
fn an_empty_file_holds_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.vf");
    std::fs::write(&path, b"").unwrap();
    let out = stats(&path);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("error: {}: holds no game (the file is empty)", path.display())), "{stderr}");
}
