//! The real `tempo` binary driven through stdin (not a terminal: plain text, no escape codes).
//! Engines search to a fixed depth and timed games use `--fake-move-time` (every move costs
//! exactly that much), so that every transcript is reproducible.

use std::io::Write;
use std::path::Path;

use std::process::{Command, Stdio};
use tempfile::TempDir;

struct Run {
    stdout: String,
    stderr: String,
    code: i32,
}

/// A fresh directory per test, so that saved games never collide; removed when dropped.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new().prefix(&format!("tempo-cli-test-{name}-")).tempdir().unwrap()
}

fn tempo(dir: &Path, args: &[&str], input: impl AsRef<[u8]>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        // Games saved without --save go to Tempo's folder in the user's data folder.
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A program that stops before reading all of it (a refused argument) closes the pipe.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_ref()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    let run = Run {
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        code: out.status.code().unwrap_or(-1),
    };
    assert!(!run.stdout.contains('\x1b'), "no escape codes when the output is not a terminal");
    run
}

/// The saved PGN without the lines that change from run to run.
fn pgn(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("[Date ") && !l.starts_with("[UTCTime "))
        .collect::<Vec<_>>()
        .join("\n")
}

const HOTSEAT: [&str; 4] = ["--white", "human", "--black", "human"];

fn args<'a>(base: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(more).copied().collect()
}

#[test]
fn whole_game_to_checkmate() {
    let tmp = scratch("mate");
    let dir = tmp.path();
    let run = tempo(dir, &args(&HOTSEAT, &["--ascii", "--save", "game.pgn"]), "f3\ne5\ng4\nQh4\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Checkmate: Black wins (0-1)"), "{}", run.stdout);
    assert!(run.stdout.contains("The game is saved in game.pgn."));
    insta::assert_snapshot!(pgn(&dir.join("game.pgn")));
    // The whole game, then the final board: the checked king in parentheses, the last move in
    // brackets.
    assert!(run.stdout.contains("\nMoves: 1. f3 e5 2. g4 Qh4#\nCheckmate: Black wins (0-1)\n"), "{}", run.stdout);
    let board: Vec<&str> = run.stdout.lines().rev().skip(4).take(11).collect();
    insta::assert_snapshot!(board.into_iter().rev().collect::<Vec<_>>().join("\n"));
}

#[test]
fn engine_mates() {
    let tmp = scratch("engine-mate");
    let dir = tmp.path();
    let run = tempo(
        dir,
        &["--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--white", "engine:10", "--depth", "3", "--save", "g.pgn"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Tempo plays 1. Ra8#"), "{}", run.stdout);
    assert!(run.stdout.contains("Checkmate: White wins (1-0)"));
    assert!(pgn(&dir.join("g.pgn")).contains("[White \"Tempo\"]"));
}

#[test]
fn engine_against_engine() {
    let tmp = scratch("engines");
    let dir = tmp.path();
    let run = tempo(
        dir,
        &["--fen", "k7/8/1K6/8/8/8/8/7R b - - 0 1", "--white", "engine:10", "--black", "engine:10", "--depth", "3"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Tempo plays 1... Kb8"), "{}", run.stdout);
    assert!(run.stdout.contains("Tempo plays 2. Rh8#"), "{}", run.stdout);
    assert!(run.stdout.contains("Checkmate: White wins (1-0)"), "{}", run.stdout);
}

#[test]
fn illegal_and_misunderstood_moves_change_nothing() {
    let tmp = scratch("illegal");
    let dir = tmp.path();
    let input = "e5\ne2e5\nKe2\nbanana\nNd2 now\n\nBb5\nQxf7\ne2e4\nfen\nquit\nn\n";
    let run = tempo(dir, &HOTSEAT, input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let messages: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("Illegal") || l.contains("not a move") || l.contains("FEN"))
        .collect();
    insta::assert_snapshot!(messages.join("\n"));
    assert!(run.stdout.contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"));
    assert!(run.stdout.contains("Not saved."));
    assert!(std::fs::read_dir(dir).unwrap().next().is_none(), "nothing written");
}

#[test]
fn ambiguous_move_names_the_candidates() {
    let tmp = scratch("ambiguous");
    let dir = tmp.path();
    let run = tempo(dir, &args(&HOTSEAT, &["--fen", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"]), "Nd2\nquit\n");
    assert!(run.stdout.contains("Ambiguous move Nd2: it could be Nbd2 or Nfd2"), "{}", run.stdout);
}

#[test]
fn draw_claims() {
    let tmp = scratch("claim");
    let dir = tmp.path();
    // An unfounded claim is refused with the reason; then the knights dance until the start
    // position stands for the third time, announced with the move.
    let input = "claim\nNf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nclaim Ng8\n";
    let run = tempo(dir, &args(&HOTSEAT, &["--save", "claim.pgn"]), input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("No draw to claim: this position has occurred 1 time (3 needed)"), "{}", run.stdout);
    // Before Black's last move the program offers the claim by announcing Ng8.
    assert!(
        run.stdout.contains("You may claim a draw by threefold repetition by announcing Ng8: type claim Ng8."),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("Draw by threefold repetition (claimed) (1/2-1/2)"), "{}", run.stdout);
    let saved = pgn(&dir.join("claim.pgn"));
    assert!(saved.contains("[Termination \"normal\"]"), "{saved}");
    let words = saved.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("{Draw by threefold repetition (claimed)} 1/2-1/2"), "{saved}");
    assert!(words.contains("4. Ng1 Ng8 {"), "{saved}");

    // A claim announced with a move that repeats nothing: refused, and the move stands.
    let run = tempo(dir, &HOTSEAT, "claim e4\nfen\nquit\nn\n");
    assert!(run.stdout.contains("Claim refused"), "{}", run.stdout);
    assert!(run.stdout.contains("4P3/8/PPPP1PPP/RNBQKBNR b KQkq"), "{}", run.stdout);
    // In a timed game the opponent gets two more minutes (article 9.5.3): Black's 5:00 is 7:00.
    let run = tempo(dir, &args(&HOTSEAT, &["--tc", "5+0", "--fake-move-time", "1"]), "claim e4\nquit\nn\n");
    assert!(run.stdout.contains("The move stands and the opponent gets two more minutes"), "{}", run.stdout);
    assert!(run.stdout.contains("7:00"), "{}", run.stdout);

    // The same repetition claimed after it happened, by the player to move.
    let input = "Nf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nNg8\nclaim\n";
    let run = tempo(dir, &args(&HOTSEAT, &["--save", "claim2.pgn"]), input);
    assert!(run.stdout.contains("You may claim a draw by threefold repetition: type claim."), "{}", run.stdout);
    assert!(run.stdout.contains("Draw by threefold repetition (claimed) (1/2-1/2)"), "{}", run.stdout);

    // The refusal names the moves that would make the claim.
    let run = tempo(dir, &HOTSEAT, "Nf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nclaim\nquit\nn\n");
    assert!(run.stdout.contains("Announcing Ng8 would claim a draw by threefold repetition."), "{}", run.stdout);
}

#[test]
fn show_lists_claims_by_announcing_a_move() {
    let tmp = scratch("show-claims");
    let dir = tmp.path();
    // 99 half-moves without capture or pawn move: any move but the mate Rh8# reaches 100.
    let fen = "k7/8/1K6/8/8/8/8/7R w - - 99 80";
    let run = tempo(dir, &["show", fen, "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["claimable"], serde_json::json!([]));
    assert_eq!(v["claimable_with_move"][0]["claim"], "fifty_moves");
    let moves = v["claimable_with_move"][0]["moves"].as_array().unwrap();
    assert!(moves.contains(&"Rh2".into()) && !moves.contains(&"Rh8#".into()), "{moves:?}");
    assert_eq!(moves.len() + 1, v["legal_moves"].as_u64().unwrap() as usize);
    let run = tempo(dir, &["show", fen, "--ascii"], "");
    assert!(run.stdout.contains("A draw may be claimed by announcing "), "{}", run.stdout);
    assert!(run.stdout.contains(" other moves (fifty moves)."), "{}", run.stdout);
    let run = tempo(dir, &["show", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["claimable_with_move"], serde_json::json!([]));
}

#[test]
fn show_and_play_end_a_dead_position() {
    let tmp = scratch("dead");
    let dir = tmp.path();
    // Every pawn locked, the kings on their own sides (data/unwinnable/cases.txt, `--`).
    let dead = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1";
    let why = "the pawns are locked and no piece can reach the other king";
    let run = tempo(dir, &["show", dead, "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!((v["status"].as_str(), v["result"].as_str()), (Some("dead_position"), Some("1/2-1/2")), "{v}");
    assert_eq!(v["cannot_mate"], serde_json::json!({"white": why, "black": why}));
    let run = tempo(dir, &["show", dead, "--ascii"], "");
    assert!(
        run.stdout.contains(&format!("Draw by dead position: neither side can checkmate ({why}) (1/2-1/2)")),
        "{}",
        run.stdout
    );
    // A position still open has no proofs to give.
    let run = tempo(dir, &["show", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(v.get("cannot_mate").is_none(), "{v}");
    // Playing the move that locks the last pawn ends the game: announced and saved.
    let fen = ["--fen", "8/2k5/6p1/p1p1p3/P1P1P1P1/2K5/6B1/8 b - - 0 1"];
    let run = tempo(dir, &args(&args(&HOTSEAT, &fen), &["--save", "dead.pgn"]), "g5\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Draw by dead position: neither side can checkmate"), "{}", run.stdout);
    let saved = pgn(&dir.join("dead.pgn"));
    assert!(saved.contains("[Result \"1/2-1/2\"]") && saved.contains("[Termination \"normal\"]"), "{saved}");
    let words = saved.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains(&format!("{{Draw by dead position: neither side can checkmate ({why})}}")), "{saved}");
}

#[test]
fn flag_fall_against_a_lone_king() {
    let tmp = scratch("flag");
    let dir = tmp.path();
    let timed = ["--tc", "0.01+0", "--fake-move-time", "1s"];
    // Black's flag falls: White's queen could still mate, so White wins.
    let fen = ["--fen", "4k3/8/8/8/8/8/8/4K2Q b - - 0 1"];
    let run = tempo(dir, &args(&args(&HOTSEAT, &fen), &args(&timed, &["--save", "a.pgn"])), "Kd7\n");
    assert!(run.stdout.contains("Black lost on time: White wins (1-0)"), "{}", run.stdout);
    let saved = pgn(&dir.join("a.pgn"));
    assert!(saved.contains("[Termination \"time forfeit\"]") && saved.contains("loses on time}"), "{saved}");
    // White's flag falls, but Black has a bare king: a draw.
    let fen = ["--fen", "4k3/8/8/8/8/8/8/4K2Q w - - 0 1"];
    let run = tempo(dir, &args(&args(&HOTSEAT, &fen), &args(&timed, &["--save", "b.pgn"])), "Qh5\n");
    assert!(
        run.stdout.contains("White's flag fell, but Black has no material to checkmate: draw (1/2-1/2)"),
        "{}",
        run.stdout
    );
    let saved = pgn(&dir.join("b.pgn"));
    assert!(
        saved.contains("[Termination \"time forfeit\"]") && saved.contains("no material to checkmate: draw}"),
        "{saved}"
    );
}

#[test]
fn undo_restores_the_clocks() {
    let tmp = scratch("undo");
    let dir = tmp.path();
    let run = tempo(
        dir,
        &["--black", "engine:10", "--depth", "1", "--tc", "1+0", "--fake-move-time", "5", "--ascii"],
        "e4\nundo\nquit\nn\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let after_undo = run.stdout.split("Took back 2 moves: 1. e4").nth(1).expect("took back");
    // Both clocks are full again on the board shown after the take-back.
    assert_eq!(after_undo.matches("1:00").count(), 2, "{after_undo}");
    let before_undo = run.stdout.split("Took back").next().unwrap();
    assert!(before_undo.contains("0:55"), "each side spent 5 s: {before_undo}");
}

#[test]
fn resignation() {
    let tmp = scratch("resign");
    let dir = tmp.path();
    let run = tempo(dir, &args(&HOTSEAT, &["--save", "r.pgn"]), "e4\nresign\n");
    assert!(run.stdout.contains("Black resigns: White wins (1-0)"), "{}", run.stdout);
    let saved = pgn(&dir.join("r.pgn"));
    assert!(saved.contains("[Termination \"normal\"]") && saved.contains("resigns}"), "{saved}");
}

#[test]
fn engine_declines_an_early_draw() {
    let tmp = scratch("draw");
    let dir = tmp.path();
    let run = tempo(dir, &["--black", "engine:10", "--depth", "2"], "draw\nquit\nn\n");
    // The reason, with the rule that would change the answer; the game's move number, not
    // the plies of this session.
    assert!(run.stdout.contains("Tempo declines the draw offer: the position is level ("), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            ") but there is play left at move 1; it agrees to a level draw from move 40, or after 20 moves without a \
             capture or pawn move."
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn engine_answers_a_draw_offer_from_the_position_and_says_why() {
    let tmp = scratch("draw-rooks");
    let dir = tmp.path();
    // Rook against rook at move 40, offered in this session's first move: a dead draw.
    let rooks = ["--fen", "r7/8/4k3/8/8/3K4/8/7R w - - 0 40", "--depth", "2", "--save", "g.pgn"];
    let run = tempo(dir, &rooks, "draw\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let answer =
        run.stdout.lines().find(|l| l.starts_with("Tempo level 5 accepts")).unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(answer.starts_with("Tempo level 5 accepts the draw offer: the position is level ("), "{answer}");
    assert!(answer.ends_with(") and with no pawns left neither side can win."), "{answer}");
    assert!(run.stdout.contains("Draw by agreement (1/2-1/2)"), "{}", run.stdout);
    // A queen up, the engine plays on and says so.
    let queen = ["--fen", "3qk3/8/8/8/8/8/8/4K3 w - - 0 40", "--depth", "2"];
    let run = tempo(dir, &queen, "draw\nquit\nn\n");
    assert!(run.stdout.contains("Tempo level 5 declines the draw offer: it "), "{}", run.stdout);
    assert!(run.stdout.contains("it is ahead by +") || run.stdout.contains("it sees a mate in "), "{}", run.stdout);
}

#[test]
fn end_of_input_saves_and_the_game_resumes() {
    let tmp = scratch("resume");
    let dir = tmp.path();
    // The clock and the fake move time are the same written with units.
    let run =
        tempo(dir, &args(&HOTSEAT, &["--save", "units.pgn", "--tc", "5m+3s", "--fake-move-time", "2000ms"]), "e4\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let with_units = pgn(&dir.join("units.pgn"));
    let run =
        tempo(dir, &args(&HOTSEAT, &["--save", "unfinished.pgn", "--tc", "5+3", "--fake-move-time", "2"]), "e4\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(with_units, pgn(&dir.join("unfinished.pgn")));
    assert!(run.stdout.contains("the unfinished game is saved in unfinished.pgn"), "{}", run.stdout);
    let saved = pgn(&dir.join("unfinished.pgn"));
    assert!(saved.contains("[TimeControl \"300+3\"]") && saved.contains("1. e4 {[%clk 0:05:01]} *"), "{saved}");
    assert!(saved.contains("[Termination \"unterminated\"]"), "{saved}");
    let run = tempo(dir, &args(&HOTSEAT, &["--pgn", "unfinished.pgn", "--fake-move-time", "2s"]), "e5\nfen\nresign\n");
    assert!(run.stdout.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq"), "{}", run.stdout);
    let saved = pgn(&dir.join("unfinished.pgn"));
    assert!(saved.contains("1. e4 {[%clk 0:05:01]} 1... e5 {[%clk 0:05:01]} {White resigns} 0-1"), "{saved}");
    assert!(saved.contains("[Termination \"normal\"]") && !saved.contains("unterminated"), "{saved}");
}

#[test]
fn end_of_input_after_a_save_keeps_the_moves_played_since() {
    let tmp = scratch("save-then-eof");
    let dir = tmp.path();
    let run = tempo(dir, &args(&HOTSEAT, &["--save", "later.pgn"]), "e4\nsave\ne5\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("the unfinished game is saved in later.pgn"), "{}", run.stdout);
    let saved = pgn(&dir.join("later.pgn"));
    assert!(saved.contains("1. e4 e5 *"), "{saved}");
    // Nothing new since the save: end of input leaves the file as it is.
    let run = tempo(dir, &args(&HOTSEAT, &["--save", "same.pgn"]), "e4\nsave\n");
    assert!(run.stdout.contains("End of input: leaving the game."), "{}", run.stdout);
    assert!(pgn(&dir.join("same.pgn")).contains("1. e4 *"));
    // `save ./same.pgn` names the game's own file: the game is there once.
    let run = tempo(dir, &args(&HOTSEAT, &["--pgn", "same.pgn"]), "e5\nsave ./same.pgn\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let saved = pgn(&dir.join("same.pgn"));
    assert_eq!(saved.matches("[Event ").count(), 1, "{saved}");
    assert!(saved.contains("1. e4 e5 *"), "{saved}");
}

#[test]
fn time_flags_read_a_bare_number_as_seconds_and_take_units() {
    let tmp = scratch("time-flags");
    let dir = tmp.path();
    for (movetime, title, tag) in
        [("1", "1 s per move", "1/1"), ("500ms", "0.5 s per move", "1/0.5"), ("1m30s", "90 s per move", "1/90")]
    {
        let run = tempo(dir, &args(&HOTSEAT, &["--movetime", movetime, "--save", "m.pgn"]), "resign\n");
        assert!(run.stdout.contains(title), "--movetime {movetime}: {}", run.stdout);
        assert!(pgn(&dir.join("m.pgn")).contains(&format!("[TimeControl \"{tag}\"]")), "--movetime {movetime}");
        std::fs::remove_file(dir.join("m.pgn")).unwrap();
    }
    // `analyze --movetime` means what `tempo --movetime` means.
    let mate_in_one = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    for (movetime, ms) in [("1", 1000), ("200ms", 200), ("0.3", 300)] {
        let run = tempo(dir, &["analyze", "--fen", mate_in_one, "--movetime", movetime, "--json"], "");
        let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(v["movetime_ms"], ms, "--movetime {movetime}");
        assert_eq!(v["bestmove"], "Ra8#");
    }
    let run = tempo(dir, &["analyze", "--fen", mate_in_one, "--depth", "2", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["movetime_ms"], serde_json::Value::Null);
    for (flag, value, why) in [
        ("--movetime", "0", "a time must be more than zero"),
        ("--movetime", "1x", "unknown time unit \"x\""),
        ("--movetime", "2d", "unknown time unit \"d\""),
        ("--movetime", "25h", "is more than a day"),
        ("--think", "0s", "a time must be more than zero"),
        ("--think", "1m30", "every part of a time needs a unit"),
    ] {
        let run = tempo(dir, &[flag, value], "");
        assert_eq!(run.code, 2, "{flag} {value}");
        assert!(run.stderr.contains(why), "{flag} {value}: {}", run.stderr);
    }
    let run = tempo(dir, &["analyze", "--movetime=-1"], "");
    assert!(run.stderr.contains("'--movetime <TIME>': malformed time \"-1\""), "{}", run.stderr);
    // Every --help says what a bare number means.
    for command in [&["--help"][..], &["play", "--help"], &["analyze", "--help"]] {
        let help = tempo(dir, command, "").stdout;
        assert!(help.contains("A bare number is seconds"), "{command:?}: {help}");
    }
}

#[test]
fn bad_options_are_explained() {
    let tmp = scratch("options");
    let dir = tmp.path();
    let run = tempo(dir, &["--white", "robot"], "");
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("unknown player \"robot\""), "{}", run.stderr);
    let run = tempo(dir, &["--fen", "not a fen"], "");
    assert!(run.stderr.contains("--fen: invalid FEN \"not a fen\""), "{}", run.stderr);
    let run = tempo(dir, &["--tc", "fast"], "");
    assert!(run.stderr.contains("cannot read time control"), "{}", run.stderr);
}

/// The listing `tempo-tools perft --divide` writes too (its tests hold the same lines).
const DIVIDE_SAN: &str = "Kd1: 3\nKf1: 3\nKd2: 3\nKf2: 3\ne3: 3\ne4: 3\n";
const DIVIDE_UCI: &str = "e1d1: 3\ne1f1: 3\ne1d2: 3\ne1f2: 3\ne2e3: 3\ne2e4: 3\n";

#[test]
fn perft_divide_lists_moves_in_san_or_uci() {
    let tmp = scratch("divide");
    let dir = tmp.path();
    let fen = "k7/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let perft = |more: &[&str]| tempo(dir, &args(&["perft", "--fen", fen, "--depth", "2", "--divide"], more), "");
    for (more, listing) in
        [(&[][..], DIVIDE_SAN), (&["--notation", "san"], DIVIDE_SAN), (&["--notation", "uci"], DIVIDE_UCI)]
    {
        let run = perft(more);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let (moves, total) = run.stdout.split_at(listing.len());
        assert_eq!(moves, listing, "{more:?}");
        assert!(total.starts_with("perft 2: 18 nodes ("), "{more:?}: {total}");
    }
    // Castling in each notation.
    let run = tempo(dir, &["perft", "--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "--depth", "1", "--divide"], "");
    assert!(run.stdout.contains("\nO-O: 1\nO-O-O: 1\n"), "{}", run.stdout);
    // JSON keys are UCI unless asked otherwise.
    let keys = |more: &[&str]| -> Vec<String> {
        let run = perft(&args(&["--json"], more));
        let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        v["divide"].as_object().unwrap().keys().cloned().collect()
    };
    assert!(keys(&[]).contains(&"e2e4".to_owned()));
    assert!(keys(&["--notation", "san"]).contains(&"e4".to_owned()));
    let run = tempo(dir, &["perft", "--depth", "1", "--notation", "uci"], "");
    assert!(run.code == 2 && run.stderr.contains("--divide"), "{}", run.stderr);
    let run = perft(&["--notation", "lan"]);
    assert!(run.stderr.contains("unknown move notation \"lan\": use san or uci"), "{}", run.stderr);
}

/// Every subcommand takes its position as one argument: a FEN as people paste it, or a PGN
/// or EPD file (an existing file is the file); `--fen` and `--pgn` stay for scripts.
#[test]
fn every_subcommand_takes_a_fen_or_a_file_as_its_position() {
    let tmp = scratch("position");
    let dir = tmp.path();
    let json = |args: &[&str]| -> serde_json::Value {
        let run = tempo(dir, args, "");
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        serde_json::from_str(&run.stdout).unwrap()
    };
    // Four fields, a trailing newline, double spaces: the form EPD files and sites use.
    let pasted = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR  b KQkq -\n";
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert_eq!(json(&["show", pasted, "--json"])["fen"], after_e4);
    assert_eq!(json(&["show", "--fen", pasted, "--json"])["fen"], after_e4);
    assert_eq!(json(&["perft", pasted, "--depth", "1", "--json"])["nodes"], 20);
    let mate_in_one = "6k1/5ppp/8/8/8/8/8/R5K1 w - -";
    assert_eq!(json(&["analyze", mate_in_one, "--depth", "3", "--json"])["bestmove"], "Ra8#");

    std::fs::write(dir.join("games.pgn"), "1. e4 e5 2. Nf3 *\n\n1. d4 *\n").unwrap();
    let last = json(&["show", "games.pgn", "--json"]);
    assert_eq!(last["fen"], "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1");
    assert_eq!(
        json(&["show", "games.pgn", "--game", "1", "--json"]),
        json(&["show", "--pgn", "games.pgn", "--game", "1", "--json"])
    );
    assert_eq!(json(&["perft", "games.pgn", "--game", "1", "--depth", "1", "--json"])["nodes"], 29);
    std::fs::write(dir.join("mates.epd"), format!("{mate_in_one} bm Ra8#; id \"back rank\";\n")).unwrap();
    assert_eq!(json(&["analyze", "mates.epd", "--depth", "3", "--json"])["bestmove"], "Ra8#");

    // A file name that is not there is not read as a broken FEN; --game needs a file.
    let run = tempo(dir, &["show", "missing.pgn"], "");
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("missing.pgn: no such file"), "{}", run.stderr);
    let run = tempo(dir, &["show", after_e4, "--game", "2"], "");
    assert!(run.stderr.contains("--game picks a game of a PGN file"), "{}", run.stderr);

    // Play: a FEN starts there, a PGN file continues its unfinished game.
    let run = tempo(dir, &args(&HOTSEAT, &[pasted]), "fen\nquit\nn\n");
    assert!(run.stdout.contains(after_e4), "{}", run.stdout);
    std::fs::write(dir.join("one.pgn"), "1. e4 e5 *\n").unwrap();
    let run = tempo(dir, &args(&HOTSEAT, &["one.pgn"]), "fen\nquit\nn\n");
    assert!(run.stdout.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"), "{}", run.stdout);
    let run = tempo(dir, &["play", "--white", "human", "--black", "human", "mates.epd"], "fen\nquit\nn\n");
    assert!(run.stdout.contains("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), "{}", run.stdout);
}

#[test]
fn perft_show_and_analyze_json() {
    let tmp = scratch("json");
    let dir = tmp.path();
    let run = tempo(dir, &["perft", "--depth", "3", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["nodes"], 8902);
    let run = tempo(dir, &["perft", "--depth", "2"], "");
    assert!(run.stdout.starts_with("perft 2: 400 nodes"), "{}", run.stdout);

    let run = tempo(dir, &["show", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["status"], "checkmate");
    assert_eq!(v["result"], "0-1");
    assert_eq!(v["legal_moves"], 0);
    let run = tempo(dir, &["show", "--ascii"], "");
    insta::assert_snapshot!(run.stdout);
    let plain = tempo(dir, &["show", "--ascii", "--no-color"], "");
    assert_eq!((plain.code, plain.stdout), (0, run.stdout));

    let run = tempo(dir, &["analyze", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--depth", "3", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["bestmove"], "Ra8#");
    assert_eq!(v["lines"][0]["score"]["mate"], 1);
    let run =
        tempo(dir, &["analyze", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--depth", "3", "--multipv", "2"], "");
    assert!(run.stdout.contains("    #1  d3   1. Ra8#"), "{}", run.stdout);
    assert!(run.stdout.contains("Best move: Ra8#"), "{}", run.stdout);
}

#[test]
fn draw_by_agreement_between_people() {
    let tmp = scratch("agreement");
    let dir = tmp.path();
    // The offer made before moving stands until the opponent answers.
    let run = tempo(dir, &args(&HOTSEAT, &["--save", "d.pgn"]), "draw\ne4\naccept\n");
    assert!(run.stdout.contains("Player 1 offers a draw"), "{}", run.stdout);
    assert!(run.stdout.contains("Draw by agreement (1/2-1/2)"), "{}", run.stdout);
    let saved = pgn(&dir.join("d.pgn"));
    assert!(saved.contains("[Termination \"normal\"]") && saved.contains("{Draw by agreement}"), "{saved}");
}

#[test]
fn hint_moves_and_analysis() {
    let tmp = scratch("hint");
    let dir = tmp.path();
    let run = tempo(dir, &["--black", "engine:10", "--depth", "2"], "hint\nmoves\nanalyze\nbogus command\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A hint is a suggestion, said as one and marked on the board (shown again), not played.
    let hint = run.stdout.lines().find(|l| l.starts_with("Hint: ")).unwrap_or_else(|| panic!("{}", run.stdout));
    assert!(hint.ends_with(" for you), marked with < > on the board; type it to play it."), "{hint}");
    let marked: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("Hint: "))
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()) && l.contains('<'))
        .collect();
    assert_eq!(marked.len(), 2, "the hinted move's two squares: {}", run.stdout);
    assert!(run.stdout.contains("White to move, You (1.)"), "not played: {}", run.stdout);
    assert!(run.stdout.contains("Legal moves (20): Na3 Nc3 Nf3 Nh3 a3"), "{}", run.stdout);
    let lines = run.stdout.lines().filter(|l| l.contains("  d2   1. ")).count();
    assert_eq!(lines, 3, "three analysis lines at depth 2: {}", run.stdout);
    assert!(run.stdout.contains("\"bogus command\" is not a move or a command"));
}

#[test]
fn fifty_move_claims() {
    let tmp = scratch("fifty");
    let dir = tmp.path();
    // 99 half-moves without a capture or pawn move: the next quiet move reaches fifty moves.
    let fen = ["--fen", "7r/8/4k3/8/8/3K4/8/R7 w - - 99 80"];
    let run = tempo(dir, &args(&HOTSEAT, &fen), "claim Ra2\n");
    assert!(run.stdout.contains("Draw by the fifty-move rule (claimed) (1/2-1/2)"), "{}", run.stdout);
    // An engine claims for itself when its move reaches the draw.
    let run = tempo(dir, &[fen[0], fen[1], "--white", "engine:10", "--depth", "2"], "");
    assert!(run.stdout.contains("Tempo claims a draw with this move."), "{}", run.stdout);
    assert!(run.stdout.contains("Draw by the fifty-move rule (claimed) (1/2-1/2)"), "{}", run.stdout);
}

#[test]
fn saved_games_can_be_shown_but_not_continued_once_over() {
    let tmp = scratch("show-pgn");
    let dir = tmp.path();
    tempo(dir, &args(&HOTSEAT, &["--save", "mate.pgn"]), "f3\ne5\ng4\nQh4\n");
    let run = tempo(dir, &["show", "--pgn", "mate.pgn", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["status"], "checkmate");
    assert_eq!(v["result"], "0-1");
    assert_eq!(v["moves"], serde_json::json!(["f3", "e5", "g4", "Qh4#"]));
    let run = tempo(dir, &["show", "--pgn", "mate.pgn", "--ascii"], "");
    assert!(run.stdout.contains("Moves: 1. f3 e5 2. g4 Qh4#"), "{}", run.stdout);
    assert!(run.stdout.contains("Checkmate: Black wins (0-1)"), "{}", run.stdout);

    tempo(dir, &args(&HOTSEAT, &["--save", "resigned.pgn"]), "e4\nresign\n");
    let run = tempo(dir, &["--pgn", "resigned.pgn"], "");
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("is already over (1-0); nothing to continue"), "{}", run.stderr);
    let run = tempo(dir, &["show", "--pgn", "resigned.pgn", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!((v["status"].as_str(), v["result"].as_str()), (Some("finished"), Some("1-0")));
}

/// A scripted UCI engine: answers the handshake and plays `reply` to every `go`.
#[cfg(unix)]
fn scripted_engine(dir: &Path, reply: &str) -> String {
    let path = dir.join(format!("engine-{}.sh", reply.replace(['(', ')'], "")));
    let script = format!(
        "while read -r line; do\n  case \"$line\" in\n    uci) echo 'id name Scripted'; echo uciok ;;\n    \
         isready) echo readyok ;;\n    go*) echo 'info depth 1 score cp 12 pv {reply}'; echo 'bestmove {reply}' ;;\n    \
         quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("uci:sh {}", path.display())
}

#[cfg(unix)]
#[test]
fn external_uci_engine() {
    let tmp = scratch("uci");
    let dir = tmp.path();
    let engine = scripted_engine(dir, "e7e5");
    let run = tempo(dir, &["--black", &engine, "--save", "u.pgn"], "e4\nresign\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("Scripted plays 1... e5"), "{}", run.stdout);
    assert!(pgn(&dir.join("u.pgn")).contains("[Black \"Scripted\"]"));

    // An engine that claims to have no move in a position with legal moves cannot go on:
    // the game is saved unfinished, with no result invented, to be continued.
    let engine = scripted_engine(dir, "(none)");
    let run = tempo(dir, &["--black", &engine, "--save", "f.pgn"], "e4\n");
    assert!(run.stdout.contains("Scripted failed: it answered no move"), "{}", run.stdout);
    assert!(run.stdout.contains("The game stops here, unfinished."), "{}", run.stdout);
    assert!(!run.stdout.contains("resigns"), "{}", run.stdout);
    let saved = pgn(&dir.join("f.pgn"));
    assert!(saved.contains("[Result \"*\"]") && saved.contains("[Termination \"unterminated\"]"), "{saved}");
    assert!(run.stderr.contains("continue it with: tempo --pgn f.pgn --black 'uci:sh "), "{}", run.stderr);
}

#[cfg(unix)]
#[test]
fn ctrl_c_saves_the_unfinished_game_for_resuming() {
    // A closed terminal (SIGHUP) or a shutdown (SIGTERM) saves it as Ctrl-C does.
    for signal in ["-INT", "-TERM", "-HUP"] {
        interrupted_game_is_saved(signal);
    }
}

#[cfg(unix)]
fn interrupted_game_is_saved(signal: &str) {
    use std::io::Read;
    let tmp = scratch("ctrl-c");
    let dir = tmp.path();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args(&HOTSEAT, &["--save", "interrupted.pgn"]))
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let reader = {
        let seen = std::sync::Arc::clone(&seen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = stdout.read(&mut buf) {
                seen.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    stdin.write_all(b"e4\ne5\n").unwrap();
    stdin.flush().unwrap();
    // Wait until both moves are on the board (White's second prompt), then interrupt.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !seen.lock().unwrap().contains("(2.)") {
        assert!(std::time::Instant::now() < deadline, "{}", seen.lock().unwrap());
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    reader.join().unwrap();
    drop(stdin);
    let text = seen.lock().unwrap().clone();
    assert_eq!(status.code(), Some(130), "{signal}: {text}");
    // The command that continues it keeps the players: two people, not the engine.
    assert!(
        text.contains("Interrupted. The unfinished game is saved in interrupted.pgn; continue it with: tempo --pgn interrupted.pgn --black human\n"),
        "{signal}: {text}"
    );
    let saved = pgn(&dir.join("interrupted.pgn"));
    assert!(saved.contains("1. e4 e5 *"), "{saved}");
    // No temporary file is left behind, and the game continues from the file.
    let leftovers: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("interrupted.pgn")]);
    let run = tempo(dir, &args(&HOTSEAT, &["--pgn", "interrupted.pgn"]), "fen\nquit\nn\n");
    assert!(run.stdout.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq"), "{}", run.stdout);
}

/// A club's file: an adjourned game with tags, comments, NAGs and a variation, a finished
/// game, and a second unfinished one.
const CLUB_FILE: &str = "[Event \"Club championship\"]\n[Site \"Town hall\"]\n[Date \"2026.01.03\"]\n\
    [Round \"4\"]\n[White \"Ann\"]\n[Black \"Bo\"]\n[Result \"*\"]\n[ECO \"C44\"]\n\n\
    {Adjourned at move 2} 1. e4 $1 {best by test} (1. d4 d5 $2) 1... e5 2. Nf3 *\n\n\
    [Event \"Blitz\"]\n[White \"Cy\"]\n[Black \"Di\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
    [Event \"Casual\"]\n[White \"Ed\"]\n[Black \"Flo\"]\n[Result \"*\"]\n\n1. c4 *\n";

#[test]
fn continuing_one_game_of_a_file_keeps_the_others_byte_for_byte() {
    let tmp = scratch("club");
    let dir = tmp.path();
    std::fs::write(dir.join("club.pgn"), CLUB_FILE).unwrap();
    // Two unfinished games: the player chooses.
    let run = tempo(dir, &args(&HOTSEAT, &["--pgn", "club.pgn"]), "");
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains(
            "club.pgn holds 2 unfinished games; choose one with --game N:\n   \
             1. Ann - Bo, Club championship, 2026.01.03, 2 moves, *\n   3. Ed - Flo, Casual, 1 move, *"
        ),
        "{}",
        run.stderr
    );
    let run = tempo(dir, &args(&HOTSEAT, &["--pgn", "club.pgn", "--game", "2"]), "");
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("game 2 of club.pgn is already over (0-1)"), "{}", run.stderr);

    let run = tempo(dir, &args(&HOTSEAT, &["--pgn", "club.pgn", "--game", "1"]), "Nc6\nquit\ny\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("Saved in club.pgn; continue it with: tempo --pgn club.pgn --game 1"),
        "{}",
        run.stdout
    );
    let saved = std::fs::read_to_string(dir.join("club.pgn")).unwrap();
    let others = &CLUB_FILE[CLUB_FILE.find("\n\n[Event \"Blitz\"]").unwrap()..];
    assert!(saved.ends_with(others), "the other games are kept byte for byte:\n{saved}");
    let continued = &saved[..saved.len() - others.len()];
    for kept in
        ["[Event \"Club championship\"]", "[Site \"Town hall\"]", "[Round \"4\"]", "[ECO \"C44\"]", "[White \"Ann\"]"]
    {
        assert!(continued.contains(kept), "{kept} kept in:\n{continued}");
    }
    let movetext = continued.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        movetext.contains("{Adjourned at move 2} 1. e4 $1 {best by test} (1. d4 d5 $2) 1... e5 2. Nf3 Nc6 *"),
        "{movetext}"
    );
    // Nothing played: the file is not touched at all.
    let run = tempo(dir, &args(&HOTSEAT, &["--pgn", "club.pgn", "--game", "3"]), "quit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(dir.join("club.pgn")).unwrap(), saved);
}

#[test]
fn save_adds_to_a_file_and_never_truncates_it() {
    let tmp = scratch("append");
    let dir = tmp.path();
    std::fs::write(dir.join("old.pgn"), CLUB_FILE).unwrap();
    let run = tempo(dir, &args(&HOTSEAT, &["--save", "old.pgn"]), "e4\nsave\ne5\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let saved = std::fs::read_to_string(dir.join("old.pgn")).unwrap();
    assert!(saved.starts_with(CLUB_FILE), "{saved}");
    let added = &saved[CLUB_FILE.len()..];
    assert!(added.starts_with("\n[Event \"Tempo game\"]"), "{added}");
    assert!(added.trim_end().ends_with("1. e4 e5 *"), "saved twice, written once: {added}");
    assert_eq!(added.matches("[Event ").count(), 1, "saved twice, written once: {added}");
    assert!(run.stdout.contains("continue it with: tempo --pgn old.pgn --game 4"), "{}", run.stdout);
}

#[test]
fn games_saved_without_a_file_go_to_the_users_folder() {
    let tmp = scratch("default-folder");
    let dir = tmp.path();
    let run = tempo(dir, &HOTSEAT, "e4\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let folder = dir.join("data").join("tempo").join("games");
    let files: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(run.stdout.contains(&format!("saved in {}", files[0].display())), "{}", run.stdout);
    assert!(std::fs::read_dir(dir).unwrap().all(|e| e.unwrap().file_name() != *files[0].file_name().unwrap()));
}

#[test]
fn a_game_that_cannot_be_saved_where_asked_is_saved_elsewhere() {
    let tmp = scratch("rescue");
    let dir = tmp.path();
    // A file where a folder should be: no write can succeed there, even as root.
    std::fs::write(dir.join("not-a-folder"), "").unwrap();
    let run = tempo(dir, &args(&HOTSEAT, &["--save", "not-a-folder/game.pgn"]), "e4\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let folder = dir.join("data").join("tempo").join("games");
    let rescued: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(rescued.len(), 1, "{rescued:?}");
    assert!(run.stdout.contains("NOT saved where it belongs (cannot write not-a-folder/game.pgn"), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("saved in {} instead", rescued[0].display())), "{}", run.stdout);
    assert!(pgn(&rescued[0]).contains("1. e4 *"));
}

#[test]
fn engine_moves_come_with_its_evaluation_unless_no_eval() {
    let tmp = scratch("eval");
    let dir = tmp.path();
    let line = |run: &Run, name: &str| -> String {
        let found = run.stdout.lines().find(|l| l.starts_with(&format!("{name} plays 1... ")));
        found.unwrap_or_else(|| panic!("{}", run.stdout)).to_owned()
    };
    let said = |line: &str| line.ends_with(" for White)") || line.ends_with(" for Black)") || line.ends_with("(0.00)");
    // Below full strength the engine picks among its best lines: the move it picked has its
    // evaluation too.
    let limited = line(&tempo(dir, &["--depth", "2"], "e4\nquit\nn\n"), "Tempo level 5");
    assert!(said(&limited), "{limited}");
    let full = ["--black", "engine:10", "--depth", "2"];
    let with = line(&tempo(dir, &full, "e4\nquit\nn\n"), "Tempo");
    assert!(said(&with), "{with}");
    let without = line(&tempo(dir, &args(&full, &["--no-eval"]), "e4\nquit\nn\n"), "Tempo");
    assert!(!without.contains('('), "{without}");
    assert!(with.starts_with(&without), "the same move: {with} / {without}");
}

#[test]
fn the_header_names_the_chess960_position() {
    let tmp = scratch("960");
    let dir = tmp.path();
    let run = tempo(dir, &args(&HOTSEAT, &["--chess960", "0"]), "quit\n");
    assert!(
        run.stdout.starts_with("Tempo  Player 1 (White) v Player 2 (Black)  no clock  Chess960 #0\n"),
        "{}",
        run.stdout
    );
    let run = tempo(dir, &HOTSEAT, "quit\n");
    assert!(!run.stdout.lines().next().unwrap_or("").contains("Chess960"), "{}", run.stdout);
}

#[test]
fn the_move_list_pages_back_and_lists_the_whole_game() {
    let tmp = scratch("move-list");
    let dir = tmp.path();
    let opera = "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 \
                 Rxd7 Rxd7 Rd1 Qe6";
    let input = format!("{}\nup\nup\nup\ndown\nlist\nquit\nn\n", opera.replace(' ', "\n"));
    let run = tempo(dir, &HOTSEAT, &input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The panel beside the board (one column of five rows in a transcript) shows each page.
    let panel_starts: Vec<String> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("6 "))
        .map(|l| l.chars().skip(29).collect::<String>().trim_start().to_owned())
        .collect();
    let pages = &panel_starts[panel_starts.len() - 3..];
    assert!(pages[0].starts_with("5. Qxf3"), "{pages:?}");
    assert!(pages[1].starts_with("1. e4"), "{pages:?}");
    // A page forward from the first page: five rows on.
    assert!(pages[2].starts_with("6. Bc4"), "{pages:?}");
    assert!(run.stdout.contains("The move list already shows the first moves (list shows them all)."));
    assert!(run.stdout.contains("Earlier moves shown beside the board: down pages back to the latest."));
    let whole =
        "\nMoves: 1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 \
                 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6\n";
    assert!(run.stdout.contains(whole), "{}", run.stdout);
}

#[test]
fn a_line_that_is_not_utf8_is_answered_and_play_goes_on() {
    let tmp = scratch("bytes");
    let dir = tmp.path();
    let run = tempo(dir, &args(&HOTSEAT, &["--save", "g.pgn"]), b"e4\n\xff\xfe\xe9\ne5\nNf3\nquit\ny\n");
    let stdout = &run.stdout;
    assert!(!stdout.contains("End of input"), "{stdout}");
    assert!(stdout.contains("is not a move"), "{stdout}");
    assert!(pgn(&dir.join("g.pgn")).contains("1. e4 e5 2. Nf3 *"), "{}", pgn(&dir.join("g.pgn")));
}

#[test]
fn save_into_a_folder_is_refused_before_the_game() {
    let tmp = scratch("folder");
    let dir = tmp.path();
    std::fs::create_dir(dir.join("games")).unwrap();
    // No input: the program stops before it reads any (a write would meet a closed pipe).
    let run = tempo(dir, &args(&HOTSEAT, &["--save", "games"]), "");
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stderr.contains("--save games: that is a folder"), "{}", run.stderr);
    assert_eq!(std::fs::read_dir(dir.join("games")).unwrap().count(), 0);
}

#[test]
fn a_latin1_game_is_not_continued_and_its_file_is_left_alone() {
    let tmp = scratch("latin1");
    let dir = tmp.path();
    let file: &[u8] = b"[Event \"a\"]\r\n[White \"J\xf6rg\"]\r\n[Black \"B\"]\r\n[Result \"*\"]\r\n\r\n1. e4 *\r\n";
    std::fs::write(dir.join("latin.pgn"), file).unwrap();
    let run = tempo(dir, &args(&HOTSEAT, &["--pgn", "latin.pgn"]), "");
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stderr.contains("is not UTF-8 text (a Latin-1 file?)"), "{}", run.stderr);
    assert_eq!(std::fs::read(dir.join("latin.pgn")).unwrap(), file);
}
