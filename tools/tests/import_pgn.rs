//! `tempo-tools data import-pgn`: OpenBench DATAGEN games into viriformat, read back as
//! `data stats` and the trainer read them.

use std::process::{Command, Output};
use tempo_core::{CastlingMode, GameResult, Position};
use tempo_notation::{mate_score, parse_uci_move, ViriReader};

fn tools(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo-tools")).args(args).output().unwrap()
}

const OPENING: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

/// Games as OpenBench's client writes them: a genfens opening in `[FEN]`, a book move, then
/// compact and verbose comments; one game without a result, one with an illegal move, one
/// with an unscored move between scored ones.
fn pgn() -> String {
    format!(
        "[Event \"Fast\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[FEN \"{OPENING}\"]\n[SetUp \"1\"]\n\n\
         2. Nf3 {{book}} Nc6 {{+0.31/9}} 3. Bc4 {{-0.12/10 0.100s, n=1000, sd=12}} Qh4 {{+M5/14}} 0-1\n\n\
         [Event \"Fast\"]\n[Result \"*\"]\n\n1. e4 {{+0.20/8}} *\n\n\
         [Event \"Fast\"]\n[Result \"1-0\"]\n\n1. e5 {{+0.20/8}} 1-0\n\n\
         [Event \"Fast\"]\n[Result \"1/2-1/2\"]\n\n1. d4 {{+0.20/8}} d5 {{unknown}} 2. c4 {{+0.1/7}} 1/2-1/2\n\n\
         [Event \"Fast\"]\n[Result \"1/2-1/2\"]\n\n1. d4 {{+0.25/8}} d5 {{-0.05/9}} 1/2-1/2\n"
    )
}

#[test]
fn openbench_games_become_training_records() {
    let dir = tempfile::tempdir().unwrap();
    let (pgn_path, vf) = (dir.path().join("games.pgn"), dir.path().join("games.vf"));
    std::fs::write(&pgn_path, pgn()).unwrap();
    let out = tools(&["data", "import-pgn", pgn_path.to_str().unwrap(), "--out", vf.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("2 games, 5 positions") && stdout.contains("3 broken games skipped"), "{stdout}");
    assert_eq!(stderr.lines().filter(|l| l.contains("skipped")).count(), 3, "{stderr}");

    let games: Vec<_> = ViriReader::new(std::fs::File::open(&vf).unwrap()).map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
    // The book move is played, not recorded: the record starts after it.
    let mut after_book = Position::from_fen(OPENING, CastlingMode::Standard).unwrap();
    after_book.play(parse_uci_move(&after_book, "g1f3").unwrap()).unwrap();
    let first = &games[0];
    assert_eq!(first.start, after_book);
    assert_eq!(first.result, GameResult::BlackWins);
    // Scores from White's view: Black's +0.31 is -31, White's -0.12 is -12, Black mates in 5.
    let scores: Vec<i16> = first.moves.iter().map(|m| m.score).collect();
    assert_eq!(scores, [-31, -12, -mate_score(9)]);
    assert_eq!(games[1].result, GameResult::Draw);
    assert_eq!(games[1].moves.iter().map(|m| m.score).collect::<Vec<_>>(), [25, 5]);

    let stats = tools(&["data", "stats", "--json", vf.to_str().unwrap()]);
    assert!(stats.status.success(), "{}", String::from_utf8_lossy(&stats.stderr));
    let json: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!((json["games"].as_u64(), json["positions"].as_u64()), (Some(2), Some(5)));
    assert_eq!(
        (json["black_wins"].as_u64(), json["draws"].as_u64(), json["errors"].as_u64()),
        (Some(1), Some(1), Some(0))
    );

    // Never over data already there.
    let again = tools(&["data", "import-pgn", pgn_path.to_str().unwrap(), "--out", vf.to_str().unwrap()]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already holds data"));
    assert_eq!(ViriReader::new(std::fs::File::open(&vf).unwrap()).count(), 2);
}

#[test]
fn nothing_importable_writes_nothing_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let (pgn_path, vf) = (dir.path().join("games.pgn"), dir.path().join("games.vf"));
    // A game without scores, and one without a result.
    std::fs::write(&pgn_path, "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"*\"]\n\n1. e4 {+0.20/8} *\n").unwrap();
    let out = tools(&["data", "import-pgn", pgn_path.to_str().unwrap(), "--out", vf.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no game could be imported (2 skipped): nothing written"), "{stderr}");
    assert!(!vf.exists());
    // A file that cannot be opened stops the import before anything is written.
    let (good, missing) = (dir.path().join("good.pgn"), dir.path().join("missing.pgn"));
    std::fs::write(&good, pgn()).unwrap();
    let out = tools(&[
        "data",
        "import-pgn",
        good.to_str().unwrap(),
        missing.to_str().unwrap(),
        "--out",
        vf.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!vf.exists());
}
