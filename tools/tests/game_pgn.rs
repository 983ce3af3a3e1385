//! `tempo-tools game`, `pgn check` and `pgn convert` as scripts use them.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tools(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo-tools")).args(args).output().expect("tempo-tools runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/pgn").join(name).display().to_string()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(stdout(out).trim()).expect("one json object")
}

#[test]
fn game_checkmate() {
    let out = tools(&["game", "--moves", "f2f3 e7e5 g2g4 d8h4", "--json"]);
    assert!(out.status.success());
    assert!(stdout(&out).starts_with("{\"fen\":"));
    let v = json(&out);
    assert_eq!(v["result"], "0-1");
    assert_eq!(v["termination"], "checkmate");
    assert_eq!(v["check"], true);
    assert_eq!(v["legal_moves"], 0);
    assert_eq!(v["claimable"], serde_json::json!([]));
}

#[test]
fn game_repetitions() {
    let dance = "g1f3 g8f6 f3g1 f6g8 ";
    let out = tools(&["game", "--moves", &dance.repeat(2), "--json"]);
    let v = json(&out);
    assert_eq!(v["result"], "*");
    assert_eq!(v["termination"], serde_json::Value::Null);
    assert_eq!(v["claimable"], serde_json::json!(["threefold_repetition"]));
    let v = json(&tools(&["game", "--moves", &dance.repeat(4), "--json"]));
    assert_eq!(v["result"], "1/2-1/2");
    assert_eq!(v["termination"], "fivefold_repetition");
}

#[test]
fn game_claims_by_announcing_a_move() {
    let v = json(&tools(&["game", "--json"]));
    assert_eq!(v["claimable_with_move"], serde_json::json!([]));
    // Black's Ng8 would make the start position stand for the third time: claimable by
    // announcing it, not yet in the position itself.
    let v = json(&tools(&["game", "--moves", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1", "--json"]));
    assert_eq!(v["claimable"], serde_json::json!([]));
    assert_eq!(v["claimable_with_move"], serde_json::json!([{"claim": "threefold_repetition", "moves": ["f6g8"]}]));
    let out = tools(&["game", "--moves", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1"]);
    assert!(stdout(&out).contains("\nclaimable with move: threefold_repetition (f6g8)\n"), "{}", stdout(&out));

    // 99 half-moves: every move reaches the 100th except a capture, a pawn move, or the mate.
    let v = json(&tools(&["game", "--fen", "k7/8/1K6/8/8/8/8/7R w - - 99 80", "--json"]));
    assert_eq!(v["claimable"], serde_json::json!([]));
    let entries = v["claimable_with_move"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{v}");
    assert_eq!(entries[0]["claim"], "fifty_moves");
    let moves: Vec<&str> = entries[0]["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(moves.contains(&"h1h2") && moves.contains(&"b6c7") && !moves.contains(&"h1h8"), "{moves:?}");
    assert_eq!(moves.len() as u64 + 1, v["legal_moves"].as_u64().unwrap());
    let v = json(&tools(&["game", "--fen", "k7/8/1K6/8/8/8/8/7R w - - 98 80", "--json"]));
    assert_eq!(v["claimable_with_move"], serde_json::json!([]));
}

#[test]
fn game_fen_fifty_and_seventy_five() {
    let v = json(&tools(&["game", "--fen", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "--moves", "a1a2", "--json"]));
    assert_eq!(v["claimable"], serde_json::json!(["fifty_moves"]));
    let v = json(&tools(&["game", "--fen", "4k3/8/8/8/8/8/8/R3K3 w - - 149 80", "--moves", "a1a2", "--json"]));
    assert_eq!(v["termination"], "seventyfive_moves");
    let v = json(&tools(&["game", "--fen", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 60", "--moves", "f1f7", "--json"]));
    assert_eq!(v["termination"], "stalemate");
    let v = json(&tools(&["game", "--fen", "8/8/8/4k3/8/8/3p4/4K3 w - - 0 1", "--moves", "e1d2", "--json"]));
    assert_eq!(v["termination"], "insufficient_material");
}

#[test]
fn game_flag_fall() {
    let v = json(&tools(&["game", "--moves", "e2e4", "--flag", "black", "--json"]));
    assert_eq!((v["result"].as_str(), v["termination"].as_str()), (Some("1-0"), Some("time_forfeit")));
    let lone = "4k3/8/8/8/8/8/8/4K2Q w - - 0 1";
    let v = json(&tools(&["game", "--fen", lone, "--flag", "white", "--json"]));
    assert_eq!((v["result"].as_str(), v["termination"].as_str()), (Some("1/2-1/2"), Some("time_forfeit")));
    let v = json(&tools(&["game", "--fen", lone, "--flag", "black", "--json"]));
    assert_eq!(v["result"], "1-0");
    // A lone bishop against a rook: the rook that would block a flight square of its king
    // could always take the bishop or block the check, so White can never mate, and
    // Black's flag fall is a draw (article 6.9).
    let bishop = "4k3/8/8/8/8/8/3r4/4KB2 w - - 0 1";
    let v = json(&tools(&["game", "--fen", bishop, "--flag", "black", "--json"]));
    assert_eq!((v["result"].as_str(), v["termination"].as_str()), (Some("1/2-1/2"), Some("time_forfeit")));
    // A knight against a rook can mate with the rook's help: the flag loses.
    let knight = "4k3/8/8/8/8/8/3r4/4KN2 w - - 0 1";
    let v = json(&tools(&["game", "--fen", knight, "--flag", "black", "--json"]));
    assert_eq!((v["result"].as_str(), v["termination"].as_str()), (Some("1-0"), Some("time_forfeit")));
    // Every pawn locked and Black's bishop shut in: Black can never mate, so White's flag
    // fall is a draw, though material alone says Black could mate.
    let locked = "kB4b1/7p/4p1pP/1p1pP1P1/1P1P4/6K1/8/8 w - - 0 1";
    let v = json(&tools(&["game", "--fen", locked, "--flag", "white", "--json"]));
    assert_eq!((v["result"].as_str(), v["termination"].as_str()), (Some("1/2-1/2"), Some("time_forfeit")));
}

#[test]
fn game_can_mate() {
    // Pawns locked across the board, kings unable to cross: dead, though material says not.
    let locked = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1";
    let v = json(&tools(&["game", "--fen", locked, "--json"]));
    assert_eq!(v["can_mate"], serde_json::json!({"white": false, "black": false}));
    assert!(v.get("helpmate").is_none(), "{v}");
    // After 1.f3 e5 2.g4 Black mates at once; White needs help, and gets a line.
    let v = json(&tools(&["game", "--moves", "f2f3 e7e5 g2g4", "--json", "--helpmate"]));
    assert_eq!(v["can_mate"], serde_json::json!({"white": true, "black": true}));
    assert_eq!(v["helpmate"]["black"], serde_json::json!(["d8h4"]));
    let white = v["helpmate"]["white"].as_array().unwrap();
    assert!(!white.is_empty() && white.len() % 2 == 0 && white.iter().all(|m| m.is_string()), "{v}");
    let out = tools(&["game", "--fen", locked]);
    let text = stdout(&out);
    assert!(text.contains("white can mate: no (") && text.contains("black can mate: no ("), "{text}");
}

#[test]
fn game_fen_shows_en_passant_only_when_capturable() {
    let v = json(&tools(&["game", "--moves", "e2e4", "--json"]));
    assert_eq!(v["fen"], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let v = json(&tools(&["game", "--moves", "e2e4 a7a6 e4e5 d7d5", "--json"]));
    assert_eq!(v["fen"], "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
}

#[test]
fn game_illegal_move() {
    let out = tools(&["game", "--moves", "e2e4 e7e5 e1e3", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("e1e3") && err.contains("index 2"), "{err}");
    assert!(err.contains("the king on e1 cannot move to e3"), "{err}");
}

#[test]
fn game_takes_its_fen_as_an_argument_and_as_people_paste_it() {
    let back_rank = "6k1/5ppp/8/8/8/8/8/R5K1 w - -";
    let positional: &[&str] = &["game", back_rank, "--moves", "Ra8#", "--json"];
    let flag: &[&str] = &["game", "--fen", back_rank, "--moves", "a1a8", "--json"];
    for args in [positional, flag] {
        let v = json(&tools(args));
        assert_eq!((v["result"].as_str(), v["termination"].as_str()), (Some("1-0"), Some("checkmate")), "{args:?}");
    }
}

#[test]
fn game_takes_san_as_tempo_does_and_says_why_a_move_is_illegal() {
    // Scholar's mate typed in SAN, in UCI, and in a mix of the two.
    for moves in ["e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#", "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7", "e4 e7e5 Qh5 Nc6 f1c4 nf6 Qxf7"]
    {
        let v = json(&tools(&["game", "--moves", moves, "--json"]));
        assert_eq!((v["result"].as_str(), v["termination"].as_str()), (Some("1-0"), Some("checkmate")), "{moves}");
    }
    let illegal = |moves: &str| {
        let out = tools(&["game", "--moves", moves]);
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = illegal("e4 e5 Qxf7");
    assert!(err.contains("illegal move \"Qxf7\" at index 2: the queen on d1 cannot move to f7"), "{err}");
    let err = illegal("e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf8");
    assert!(err.contains("illegal move \"Qxf8\" at index 6: the queen on h5 cannot move to f8"), "{err}");
    let err = illegal("e4 e5 Qh5 Nc6 Qxe8");
    assert!(err.contains("the queen on h5 is blocked by the pawn on f7"), "{err}");
    let err = illegal("e4 banana");
    assert!(err.contains("illegal move \"banana\" at index 1: neither a UCI move nor SAN"), "{err}");
}

#[test]
fn pgn_check_fixtures_and_broken_files() {
    let out = tools(&["pgn", "check", &data("edge-cases.pgn")]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).trim(), "8 games ok, 0 with errors");

    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.pgn");
    std::fs::write(
        &broken,
        "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 2. Kf3 *\n\n[Event \"c\"]\n\n1. d4 *\n",
    )
    .unwrap();
    let out = tools(&["pgn", "check", broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("game 2, line 7, column 7: no such move \"Ke7\""), "{text}");
    assert_eq!(lines[1], "2 games ok, 1 with errors");
}

#[test]
fn pgn_convert_forms() {
    let file = data("molinari-bordais-1979.pgn");
    let uci = stdout(&tools(&["pgn", "convert", &file, "--to", "uci"]));
    assert_eq!(uci.trim(), "startpos moves e2e4 c7c5 c2c4 b8c6 g1e2 g8f6 b1c3 c6b4 g2g3 b4d3");
    let fen = stdout(&tools(&["pgn", "convert", &file, "--to", "fen"]));
    assert_eq!(fen.trim(), "r1bqkb1r/pp1ppppp/5n2/2p5/2P1P3/2Nn2P1/PP1PNP1P/R1BQKB1R w KQkq - 1 6");
    let json: serde_json::Value =
        serde_json::from_str(stdout(&tools(&["pgn", "convert", &file, "--to", "json"])).trim()).unwrap();
    assert_eq!(json["moves_san"][9], "Nd3#");
    assert_eq!(json["result"], "0-1");
    let pgn = stdout(&tools(&["pgn", "convert", &data("edge-cases.pgn"), "--to", "pgn"]));
    assert!(pgn.starts_with("[Event \"Edge case 1"));
    assert!(pgn.lines().all(|l| l.starts_with('[') || l.chars().count() <= 80));
    assert_eq!(pgn.matches("[Event ").count(), 8);
}

/// The tag names of every game of a PGN text, in file order.
fn tag_names(pgn: &str) -> Vec<Vec<String>> {
    let mut games: Vec<Vec<String>> = Vec::new();
    let mut in_tags = false;
    for line in pgn.lines() {
        let Some(name) = line.strip_prefix('[').and_then(|l| l.split_whitespace().next()) else {
            in_tags = false;
            continue;
        };
        if !in_tags {
            games.push(Vec::new());
            in_tags = true;
        }
        games.last_mut().unwrap().push(name.to_owned());
    }
    games
}

#[test]
fn pgn_convert_json_keeps_tags_in_file_order() {
    // Not alphabetical, and not the Seven Tag Roster's order either: EventDate before Round,
    // Result before White.
    let file = data("kasparov-deep-blue-1997.pgn");
    let expected = tag_names(&std::fs::read_to_string(&file).unwrap());
    let text = stdout(&tools(&["pgn", "convert", &file, "--to", "json"]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), expected.len());
    for (line, names) in lines.iter().zip(&expected) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["tags"].as_object().unwrap().len(), names.len(), "{line}");
        // serde_json::Value sorts keys: read the order from the text itself.
        let at: Vec<usize> = names.iter().map(|n| line.find(&format!("\"{n}\":")).expect("tag in line")).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "tags out of file order: {line}");
        assert!(line.starts_with("{\"tags\":{\"Event\":"), "{line}");
    }
}

#[test]
fn pgn_convert_json_repeated_tags_and_result_from_the_tag() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::write(
        &path,
        "[White \"w\"]\n[Event \"e\"]\n[Result \"0-1\"]\n[Event \"again\"]\n\n1. e4 e5\n\n\
         [Event \"marker wins\"]\n[Result \"1-0\"]\n\n1. e4 e5 1/2-1/2\n\n\
         [Event \"neither\"]\n\n1. e4 e5\n",
    )
    .unwrap();
    let json = stdout(&tools(&["pgn", "convert", path.to_str().unwrap(), "--to", "json"]));
    let lines: Vec<&str> = json.lines().collect();
    assert_eq!(lines.len(), 3, "{json}");
    // File order; a repeated tag keeps its first value.
    assert!(lines[0].starts_with("{\"tags\":{\"White\":\"w\",\"Event\":\"e\",\"Result\":\"0-1\"},"), "{json}");
    let results: Vec<serde_json::Value> =
        lines.iter().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["result"].clone()).collect();
    assert_eq!(results, ["0-1", "1/2-1/2", "*"]);
    // --to pgn ends each game with the same result.
    let pgn = stdout(&tools(&["pgn", "convert", path.to_str().unwrap(), "--to", "pgn"]));
    let ends: Vec<&str> = pgn.lines().filter(|l| l.starts_with("1. ")).map(|l| l.rsplit(' ').next().unwrap()).collect();
    assert_eq!(ends, ["0-1", "1/2-1/2", "*"], "{pgn}");
}

#[test]
fn pgn_check_a_directory_is_a_file_error() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["check", "convert"] {
        let mut args = vec!["pgn", command, dir.path().to_str().unwrap()];
        if command == "convert" {
            args.extend(["--to", "uci"]);
        }
        let out = tools(&args);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert_eq!(stdout(&out), "", "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: cannot read ") && err.contains("it is a directory"), "{command}: {err}");
        assert!(!err.contains("game 0"), "{command}: {err}");
    }
}

#[test]
fn pgn_check_audit_repros() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("audit.pgn");
    // A tag pair quoted in a comment, inferred Chess960 (Shredder-FEN, no Variant tag), UCI
    // king-takes-rook castling, and old Mac line ends throughout.
    let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 {see game\n[Event \"Foo\"] for details} d5 *\n\n\
                [Event \"c\"]\n[SetUp \"1\"]\n[FEN \"nrk3rn/pppppppp/8/8/8/8/PPPPPPPP/NRK3RN w GBgb - 0 1\"]\n\n\
                1. O-O c8b8 2. Kf1 *\n";
    std::fs::write(&file, text.replace('\n', "\r")).unwrap();
    let out = tools(&["pgn", "check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    // Only the genuinely illegal `Kf1` (the king castled to g1, the f1 rook is in the way).
    assert_eq!(stdout(&out), "game 3, line 14, column 16: no such move \"Kf1\"\n2 games ok, 1 with errors\n");
}

#[test]
fn a_result_tag_that_contradicts_the_moves_is_warned_of_and_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mismatch.pgn");
    let text = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 0-1\n\n\
                [Event \"b\"]\n[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n\n\
                [Event \"c\"]\n[Result \"?\"]\n\n1. c4 *\n";
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();
    let out = tools(&["pgn", "check", path]);
    assert!(out.status.success(), "a warning is no error");
    assert_eq!(
        stdout(&out),
        "game 1: warning: the Result tag says 1-0 but the moves end with 0-1 (the marker counts)\n\
         3 games ok, 0 with errors\n"
    );
    // Export format: the tag agrees with the marker.
    let out = tools(&["pgn", "convert", path, "--to", "pgn"]);
    let text = stdout(&out);
    assert!(text.contains("[Result \"0-1\"]") && !text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
}

#[test]
fn pgn_commands_say_a_file_without_games_holds_no_game() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("empty.pgn", ""), ("blank.pgn", "  \n\n \t\r\n")] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let out = tools(&["pgn", "check", path]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        // The summary stays as scripts read it; the verdict comes after it.
        assert_eq!(stdout(&out), "0 games ok, 0 with errors\n");
        assert_eq!(String::from_utf8_lossy(&out.stderr), format!("error: {path} holds no PGN game\n"));
        for form in ["pgn", "uci", "fen", "json"] {
            let out = tools(&["pgn", "convert", path, "--to", form]);
            assert_eq!(out.status.code(), Some(1), "{name} {form}");
            assert!(out.stdout.is_empty(), "{name} {form}");
            assert_eq!(String::from_utf8_lossy(&out.stderr), format!("error: {path} holds no PGN game\n"));
        }
    }
    // Standard input, likewise.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo-tools"))
        .args(["pgn", "check", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"\n\n").unwrap();
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "error: standard input holds no PGN game\n");
}

#[test]
fn pgn_convert_writes_a_moves_nags_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("annotated.pgn");
    std::fs::write(&path, "1. e4! $1 e5?? $4 2. Nf3 $5 !? *\n").unwrap();
    let out = tools(&["pgn", "convert", path.to_str().unwrap(), "--to", "pgn"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("\n1. e4 $1 e5 $4 2. Nf3 $5 *\n"), "{text}");
    // And what it wrote reads and writes back the same.
    let again = dir.path().join("again.pgn");
    std::fs::write(&again, &text).unwrap();
    assert_eq!(stdout(&tools(&["pgn", "convert", again.to_str().unwrap(), "--to", "pgn"])), text);
}
