//! `OwnBook` and `BookFile`: the server loads Polyglot books and reports bad files.

mod common;

use common::{bestmoves, transcript};
use tempo_core::{book::BookBuilder, Position};

#[test]
fn book_moves_are_played_from_a_loaded_file() {
    let start = Position::startpos();
    let h3 = start.legal_moves().iter().copied().find(|m| format!("{m:?}") == "h2h3").unwrap();
    let mut builder = BookBuilder::new();
    builder.add(&start, h3, 1);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.bin");
    std::fs::write(&path, builder.build(1).to_bytes()).unwrap();

    let load = format!("setoption name BookFile value {}", path.display());
    let text =
        transcript(&[&load, "setoption name OwnBook value true", "position startpos", "go wtime 1000 btime 1000"]);
    assert!(text.contains("info string book") && text.contains("loaded: 1 entries"), "{text}");
    assert_eq!(bestmoves(&text), vec!["bestmove h2h3"]);

    // Out of book, the engine searches.
    let text = transcript(&[&load, "setoption name OwnBook value true", "position startpos moves h2h3", "go depth 2"]);
    assert_eq!(bestmoves(&text).len(), 1);

    // Removing the book.
    let text = transcript(&[
        &load,
        "setoption name OwnBook value true",
        "setoption name BookFile value <empty>",
        "position startpos",
        "go depth 3",
    ]);
    assert_ne!(bestmoves(&text), vec!["bestmove h2h3"]);
}

#[test]
fn a_bad_book_file_is_reported_and_ignored() {
    let text = transcript(&["setoption name BookFile value /nonexistent/book.bin", "isready"]);
    assert!(text.contains("info string book /nonexistent/book.bin not loaded"), "{text}");
    assert!(text.trim_end().ends_with("readyok"), "{text}");
}
