//! `tempo-tools book build` and `book probe` on a small PGN.

use std::process::{Command, Output};

fn tools(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo-tools")).args(args).output().expect("tempo-tools runs")
}

#[test]
fn build_then_probe() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(
        &pgn,
        "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
         [Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n\n\
         [Result \"0-1\"]\n\n1. e4 c5 0-1\n\n\
         [Result \"*\"]\n\n1. c4 *\n",
    )
    .unwrap();
    let book = dir.path().join("book.bin");
    let out = tools(&["book", "build", pgn.to_str().unwrap(), "--out", book.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("from 3 games (1 skipped)"), "{text}");
    // e4: 2 (win) + 0 (loss); d4: 1 (draw); c4 is from an unfinished game.
    let bytes = std::fs::read(&book).unwrap();
    assert_eq!(bytes.len() % 16, 0);

    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let out = tools(&["book", "probe", start, book.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("e2e4") && lines[0].contains("66.7%"), "{text}");
    assert!(lines[1].starts_with("d2d4") && lines[1].contains("33.3%"), "{text}");

    // After 1. e4 the winner's reply e5 scores 0 and is left out; c5 (Black won) stays.
    let out =
        tools(&["book", "probe", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", book.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("c7c5"), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");

    let broken = dir.path().join("broken.bin");
    std::fs::write(&broken, [0u8; 17]).unwrap();
    let out = tools(&["book", "probe", start, broken.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a multiple of 16"));
}
