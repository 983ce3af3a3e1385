//! The command-line contracts of `tempo-tools perft` and `tempo-tools fen check`.

use std::io::Write;
use std::process::{Command, Output};

fn tools(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo-tools")).args(args).output().expect("tempo-tools runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn perft_divide_lists_root_moves_and_total() {
    let out = tools(&[
        "perft",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "--depth",
        "3",
        "--divide",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 21, "{text}");
    assert!(lines.contains(&"e2e4: 600"), "{text}");
    assert!(lines.contains(&"g1f3: 440"), "{text}");
    assert_eq!(*lines.last().unwrap(), "Nodes searched: 8902");
}

#[test]
fn perft_divide_writes_standard_castling_as_king_destination() {
    let out = tools(&["perft", "--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "--depth", "1", "--divide"]);
    let text = stdout(&out);
    assert!(text.contains("e1g1: 1") && text.contains("e1c1: 1"), "{text}");
    assert!(text.ends_with("Nodes searched: 26\n"), "{text}");
}

#[test]
fn perft_divide_lists_moves_in_uci_or_san_as_tempo_perft_does() {
    let fen = "k7/8/8/8/8/8/4P3/4K3 w - - 0 1";
    // The listing `tempo perft --divide` writes too (its tests hold the same lines).
    let uci = "e1d1: 3\ne1f1: 3\ne1d2: 3\ne1f2: 3\ne2e3: 3\ne2e4: 3\n";
    let san = "Kd1: 3\nKf1: 3\nKd2: 3\nKf2: 3\ne3: 3\ne4: 3\n";
    for (more, listing) in [(&[][..], uci), (&["--notation", "uci"], uci), (&["--notation", "san"], san)] {
        let out = tools(&[&["perft", "--fen", fen, "--depth", "2", "--divide"][..], more].concat());
        assert!(out.status.success(), "{more:?}");
        assert_eq!(stdout(&out), format!("{listing}\nNodes searched: 18\n"), "{more:?}");
    }
    let out = tools(&[
        "perft",
        "--fen",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "--depth",
        "1",
        "--divide",
        "--notation",
        "san",
    ]);
    assert!(stdout(&out).contains("\nO-O: 1\nO-O-O: 1\n"), "{}", stdout(&out));
    let out = tools(&["perft", "--fen", fen, "--depth", "1", "--notation", "san"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("--divide"));
    let out = tools(&["perft", "--fen", fen, "--depth", "1", "--divide", "--notation", "lan"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown move notation \"lan\": use san or uci"));
}

#[test]
fn perft_without_divide_prints_only_the_total() {
    let out = tools(&["perft", "--fen", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "--depth", "4"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "Nodes searched: 43238\n");
}

#[test]
fn perft_refuses_depths_beyond_any_count() {
    let out =
        tools(&["perft", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "--depth", "100000"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--depth 100000 is above the deepest perft, 64"), "{err}");
}

#[test]
fn perft_suite_reports_failures_and_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.epd");
    let mut file = std::fs::File::create(&path).unwrap();
    writeln!(file, "# a comment").unwrap();
    writeln!(file, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902").unwrap();
    writeln!(file, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66").unwrap();
    drop(file);
    let out = tools(&["perft", "--epd", path.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert_eq!(text.lines().last().unwrap(), "5 passed, 0 failed");

    let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    writeln!(file, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 16").unwrap();
    writeln!(file, "not a fen ;D1 1").unwrap();
    drop(file);
    let out = tools(&["perft", "--epd", path.to_str().unwrap()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines.iter().any(|l| l.contains("expected 16, got 15")), "{text}");
    assert_eq!(*lines.last().unwrap(), "5 passed, 2 failed");

    // --max-nodes skips the bigger counts.
    let out = tools(&["perft", "--epd", path.to_str().unwrap(), "--max-nodes", "100"]);
    assert_eq!(stdout(&out).lines().last().unwrap(), "3 passed, 2 failed");
}

#[test]
fn perft_suite_detects_chess960_header() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("960.epd");
    std::fs::write(
        &path,
        "# CHESS960 semantics: Shredder-FEN castling\nbqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21 ;D2 528 ;D3 12189\n",
    )
    .unwrap();
    let out = tools(&["perft", "--epd", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert_eq!(stdout(&out).lines().last().unwrap(), "3 passed, 0 failed");
}

#[test]
fn fen_check_normalises_valid_and_explains_invalid() {
    let out = tools(&["fen", "check", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n");

    // Six separate arguments are joined.
    let out = tools(&["fen", "check", "8/8/8/8/8/8/8/k6K", "w", "-", "-", "0", "1"]);
    assert!(out.status.success());

    // A flag after the FEN is a flag, quoted FEN or not; a negative count is the FEN's error.
    let out = tools(&["fen", "check", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "--chess960"]);
    assert_eq!(stdout(&out), "4k3/8/8/8/8/8/8/4K2R w H - 0 1\n");
    let out = tools(&["fen", "check", "4k3/8/8/8/8/8/8/4K2R", "w", "K", "-", "0", "1", "--chess960"]);
    assert_eq!(stdout(&out), "4k3/8/8/8/8/8/8/4K2R w H - 0 1\n");
    let out = tools(&["fen", "check", "4k3/8/8/8/8/8/8/4K2R", "w", "K", "-", "-1", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).starts_with("invalid fen: "), "{}", stdout(&out));

    let out = tools(&["fen", "check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("6 space-separated fields"), "{}", stdout(&out));

    // Strict, but it says what a lenient reader makes of a FEN as people paste it.
    let four = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
    let out = tools(&["fen", "check", four]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        format!(
            "invalid fen: fen must have 6 space-separated fields, found 4 in {four:?}\n\
             lenient readers (tempo, --fen, Position::from_fen) read it as: {four} 0 1\n"
        )
    );
    let out = tools(&["fen", "check", &format!(" {START}\n")]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.starts_with("invalid fen: fen fields must be separated by single spaces"), "{text}");
    assert!(text.ends_with(&format!("read it as: {START}\n")), "{text}");

    let out = tools(&["fen", "check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("castling"), "{}", stdout(&out));

    // Playable (perft counts it) but unreachable: bishops on a8 and h1 both check along one
    // diagonal.
    let unreachable = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
    let out = tools(&["fen", "check", unreachable]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("no last move can have given this check"), "{}", stdout(&out));
    assert!(stdout(&out).contains(&format!("read it as: {unreachable}")), "{}", stdout(&out));
    let out = tools(&["perft", "--fen", unreachable, "--depth", "1"]);
    assert!(out.status.success(), "{}", stdout(&out));
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Runs `perft --epd` on a suite with the given text; (exit code, stdout lines).
fn suite(text: &str, extra: &[&str]) -> (Option<i32>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.epd");
    std::fs::write(&path, text).unwrap();
    let mut args = vec!["perft", "--epd", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = tools(&args);
    let lines = stdout(&out).lines().map(|l| l.replace(path.to_str().unwrap(), "suite.epd")).collect();
    (out.status.code(), lines)
}

#[test]
fn perft_suite_reports_lines_that_are_not_records() {
    let text = format!("# comment\n\ngarbage line here\n{START}\n{START} ;D1 20\n{START} ;D1 20 ;D2 abc\n");
    let (code, lines) = suite(&text, &[]);
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(
        lines,
        [
            "suite.epd:3: not a perft record (FEN ;D1 n ;D2 m ...): \"garbage line here\"",
            &format!("suite.epd:4: not a perft record (FEN ;D1 n ;D2 m ...): \"{START}\""),
            "suite.epd:6: malformed depth entry \"D2 abc\"",
            "2 passed, 3 failed",
        ]
    );
}

#[test]
fn perft_suite_accepts_tight_separators_a_bom_and_crlf() {
    let text = format!(
        "\u{feff}# CHESS960 is not mentioned here\r\n{START};D1 20;D2 400;\r\n\r\n{START}\t;D1 20\t;D2 400\r\n"
    );
    let (code, lines) = suite(&text, &[]);
    assert_eq!(code, Some(0), "{lines:?}");
    assert_eq!(lines, ["4 passed, 0 failed"]);
    // A byte order mark before a first line that is a record.
    let (code, lines) = suite(&format!("\u{feff}{START} ;D1 20\n"), &[]);
    assert_eq!((code, lines), (Some(0), vec!["1 passed, 0 failed".to_owned()]));
}

#[test]
fn perft_suite_stops_counting_past_the_expected_count() {
    // The true counts are 8,902 (depth 3) and astronomical (depth 64): counting the latter would
    // never end, but a wrong expected count is disproved as soon as the leaves exceed it.
    let text = format!("{START} ;D3 1000 ;D64 5\n");
    let (code, lines) = suite(&text, &["--max-nodes", "10000"]);
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(
        lines,
        [
            format!("suite.epd:1: {START} depth 3: expected 1000, got more than 1000"),
            format!("suite.epd:1: {START} depth 64: expected 5, got more than 5"),
            "0 passed, 2 failed".to_owned(),
        ]
    );
    // Absurd depths are malformed entries, not counts to try.
    let (code, lines) = suite(&format!("{START} ;D1 20 ;D300 5\n"), &[]);
    assert_eq!(code, Some(1), "{lines:?}");
    assert_eq!(lines, ["suite.epd:1: depth entry \"D300 5\": depth above 64", "1 passed, 1 failed"]);
    // A position without moves has no leaves at any depth.
    let (code, lines) = suite("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1 ;D1 0 ;D64 0\n", &[]);
    assert_eq!((code, lines), (Some(0), vec!["2 passed, 0 failed".to_owned()]));
}

#[test]
fn a_suite_without_records_is_an_error_not_a_pass() {
    for text in ["", "# only a comment\n\n"] {
        let (code, lines) = suite(text, &[]);
        assert_eq!(code, Some(1), "{text:?}: {lines:?}");
        assert!(lines.is_empty(), "no `0 passed, 0 failed` summary: {lines:?}");
    }
}

/// The mistakes of a first session end with a reason on stderr and a non-zero status: 2 for a
/// command line clap refuses, 1 for input the command refuses (as `--help` says).
#[test]
fn a_newcomer_s_mistakes_exit_non_zero_with_a_reason() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let cases: &[(&[&str], i32, &str)] = &[
        (&["perfft"], 2, "unrecognized subcommand 'perfft'"),
        (&["perft", "--fen", start], 2, "--depth <DEPTH>"),
        (&["perft", "--fen", start, "--depth", "x"], 2, "invalid value 'x' for '--depth <DEPTH>'"),
        (&["perft", "--fen", "not a fen", "--depth", "2"], 1, "error: invalid fen \"not a fen\": fen must have 6"),
        (&["perft", "--epd", "data/perft/missing.epd"], 1, "error: cannot read data/perft/missing.epd"),
        (&["perft"], 1, "error: give --epd FILE... or --fen FEN --depth D"),
        (&["fen", "check", "8/8/8/8/8/8/8/8 w - - 0 1"], 1, "white has no king"),
        (&["epd", "data/epd/missing.epd"], 1, "error: cannot read data/epd/missing.epd"),
    ];
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    for (args, status, reason) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_tempo-tools")).current_dir(root).args(*args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(*status), "tempo-tools {args:?}: {text}");
        assert!(text.contains(reason), "tempo-tools {args:?}: no {reason:?} in {text}");
    }
    let help = tools(&["--help"]);
    assert!(stdout(&help).contains("1 when a check fails or on an error, 2 for a command line that cannot be parsed"));
}
