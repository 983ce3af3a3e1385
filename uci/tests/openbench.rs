//! OpenBench's contract, as its client drives the binary: `genfens` for DATAGEN openings and
//! `bench` read with the client's own patterns (Client/genfens.py, Client/bench.py).

use std::process::Command;
use tempo_core::{CastlingMode, Position, Role};

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tempo-uci")).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The FENs as genfens.py reads them: lines starting `info string genfens `.
fn genfens(args: &str) -> Vec<String> {
    run(&[args, "quit"])
        .lines()
        .filter_map(|line| line.strip_prefix("info string genfens "))
        .map(|fen| fen.trim_end().to_owned())
        .collect()
}

fn playable(fen: &str) -> Position {
    assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
    let pos = Position::from_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert!(pos.has_legal_moves(), "{fen}");
    pos
}

#[test]
fn genfens_prints_n_varied_legal_openings_determined_by_the_seed() {
    let fens = genfens("genfens 6 seed 3 book None");
    assert_eq!(fens.len(), 6, "{fens:?}");
    for fen in &fens {
        playable(fen);
    }
    let mut distinct = fens.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 6, "{fens:?}");
    assert_eq!(genfens("genfens 6 seed 3 book None"), fens);
    assert_ne!(genfens("genfens 6 seed 4 book None"), fens);
}

#[test]
fn genfens_starts_from_the_book() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.epd");
    // Queenless middlegames, in OpenBench's EPD form: every opening from them has no queen.
    std::fs::write(
        &book,
        "r1b1kbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNB1KB1R w KQkq - hmvc 2; fmvn 3;\n\n\
         rnb1kbnr/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/RNB1KBNR w KQkq -\n",
    )
    .unwrap();
    let fens = genfens(&format!("genfens 5 seed 9 book {}", book.display()));
    assert_eq!(fens.len(), 5, "{fens:?}");
    for fen in &fens {
        assert!(playable(fen).by_role(Role::Queen).is_empty(), "{fen}");
    }
}

#[test]
fn bad_genfens_arguments_are_reported_and_the_engine_goes_on() {
    let out = run(&[
        "genfens",
        "genfens x seed 1 book None",
        "genfens 2 seed 1 book /no/such/book.epd",
        "isready",
        "position startpos moves e2e4",
        "go depth 2",
    ]);
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("info string genfens: ")).collect();
    assert_eq!(errors.len(), 3, "{out}");
    assert!(errors[2].contains("/no/such/book.epd"), "{out}");
    assert!(!out.contains("info string genfens "), "no opening from bad arguments: {out}");
    assert!(out.contains("readyok") && out.lines().last().unwrap().starts_with("bestmove "), "{out}");
}

/// Client/bench.py: each line with non-alphanumerics blanked; the last match of each pattern.
fn openbench_bench(output: &str) -> (Option<u64>, Option<u64>) {
    let blank = regex::Regex::new(r"[^a-zA-Z0-9 ]+").unwrap();
    let nps_pattern = regex::RegexBuilder::new(r"(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)")
        .case_insensitive(true)
        .build()
        .unwrap();
    let bench_pattern = regex::RegexBuilder::new(r"(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)")
        .case_insensitive(true)
        .build()
        .unwrap();
    let number = regex::Regex::new(r"\d+").unwrap();
    let (mut nps, mut bench) = (None, None);
    for line in output.lines().rev() {
        let line = blank.replace_all(line, " ");
        let value = |m: regex::Match| number.find(m.as_str()).unwrap().as_str().parse().unwrap();
        nps = nps.or_else(|| nps_pattern.find(&line).map(value));
        bench = bench.or_else(|| bench_pattern.find(&line).map(value));
    }
    (bench, nps)
}

#[test]
fn bench_reads_as_openbench_reads_it() {
    let out = run(&["bench", "3"]);
    let (nodes, nps) = openbench_bench(&out);
    let last = out.lines().last().unwrap();
    let reported: Vec<u64> = last.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    assert_eq!(nodes, Some(reported[0]), "{out}");
    assert_eq!(nps, Some(reported[1]), "{out}");
    assert!(nodes.unwrap() > 0, "{out}");
    assert_eq!(openbench_bench(&run(&["bench", "3"])).0, nodes, "the node count is the signature");
}
