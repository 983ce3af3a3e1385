//! `tempo-tools book build` and `book probe` on a small PGN.

use std::path::Path;
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
    assert!(text.ends_with("\nskipped: 1 unfinished (result *; --include-unfinished counts them)\n"), "{text}");
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

fn build(pgn: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["book", "build", pgn.to_str().unwrap(), "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    tools(&args)
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Two unfinished games and a broken one: nothing a book can count by default.
const UNFINISHED: &str = "[Result \"*\"]\n\n1. e4 e5 *\n\n[Result \"*\"]\n\n1. d4 *\n\n\
                          [Result \"1-0\"]\n\n1. e4 Ke7 1-0\n";

#[test]
fn no_game_counted_is_an_error_that_keeps_the_old_book() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("openings.pgn");
    std::fs::write(&pgn, UNFINISHED).unwrap();
    let book = dir.path().join("book.bin");
    // Two entries' worth of bytes (a book is any run of 16-byte entries).
    let old: Vec<u8> = (0u8..32).collect();
    std::fs::write(&book, &old).unwrap();
    let out = build(&pgn, &book, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game 3: skipped: "), "{err}");
    assert!(
        err.contains(
            "can enter the book: 3 skipped: 2 unfinished (result *; --include-unfinished counts them), 1 unreadable \
             (reported above); no book written"
        ),
        "{err}"
    );
    assert_eq!(std::fs::read(&book).unwrap(), old);
    assert_eq!(names_in(dir.path()), ["book.bin", "openings.pgn"]);
}

#[test]
fn an_out_file_that_is_not_a_book_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    // 48 bytes: a multiple of 16, so only its content tells it from a book.
    let games = "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 1-0\n\n";
    assert_eq!(games.len() % 16, 0, "{}", games.len());
    std::fs::write(&pgn, games).unwrap();
    let out = build(&pgn, &pgn, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is the PGN file being read"), "{err}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), games);

    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "sixteen bytes!!\n").unwrap();
    let out = build(&pgn, &notes, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a Polyglot book (it holds text)"), "{err}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "sixteen bytes!!\n");

    // An old book is replaced, as the command promises.
    let book = dir.path().join("book.bin");
    std::fs::write(&book, [0u8; 16]).unwrap();
    let out = build(&pgn, &book, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_ne!(std::fs::read(&book).unwrap(), [0u8; 16]);
}

#[test]
fn include_unfinished_scores_their_moves_as_draws() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("openings.pgn");
    std::fs::write(&pgn, UNFINISHED).unwrap();
    let book = dir.path().join("book.bin");
    std::fs::write(&book, [7u8; 16]).unwrap(); // an older book, replaced
    let out = build(&pgn, &book, &["--include-unfinished"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        format!(
            "3 entries from 2 games (1 skipped) written to {}\nskipped: 1 unreadable (reported above)\n",
            book.display()
        )
    );
    // e4 and d4 once each, a point apiece; e5 after e4.
    let out = tools(&["book", "probe", START, book.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines.iter().all(|l| l.contains("weight     1") && l.contains("50.0%")), "{text}");
    assert_eq!(names_in(dir.path()), ["book.bin", "openings.pgn"]);
}

#[test]
fn the_openings_collection_needs_include_unfinished() {
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/openings/openings.pgn");
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.bin");
    let out = build(&openings, &book, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("800 skipped: 800 unfinished (result *; --include-unfinished counts them)"), "{err}");
    assert!(!book.exists());
    let out = build(&openings, &book, &["--include-unfinished"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(" entries from 800 games (0 skipped) written to "), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(std::fs::metadata(&book).unwrap().len() > 0);
}

#[test]
fn an_empty_file_or_a_book_without_moves_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.bin");
    for (name, text) in [("empty.pgn", ""), ("blank.pgn", " \n\t\r\n\n")] {
        let pgn = dir.path().join(name);
        std::fs::write(&pgn, text).unwrap();
        let out = build(&pgn, &book, &["--include-unfinished"]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("{name} holds no PGN game; no book written")), "{err}");
        assert!(!book.exists(), "{name}");
    }
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, "[Result \"1-0\"]\n\n1. e4 e5 1-0\n").unwrap();
    let out = build(&pgn, &book, &["--min-score", "1000"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no move of the 1 games counted scores at least --min-score 1000"), "{err}");
    assert!(!book.exists());
}
