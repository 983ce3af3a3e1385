//! `tempo-tools epd` and `tempo-tools bench`.

use std::process::Command;

fn tools(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tempo-tools")).args(args).output().expect("tempo-tools runs")
}

#[test]
fn epd_suite_reports_each_position_and_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.epd");
    // Mates in one, which any search finds: the verdicts do not depend on timing.
    std::fs::write(
        &path,
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"back rank\";\n\
         r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id \"scholar\";\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - am Kf1; id \"avoid\";\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - am Ra8#; id \"forbidden mate\";\n",
    )
    .unwrap();
    let out = tools(&["epd", path.to_str().unwrap(), "--movetime", "100"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[0].starts_with("back rank: expected bm Ra8#, found Ra8#: ok"), "{text}");
    assert!(lines[1].starts_with("scholar: expected bm Qxf7#, found Qxf7#: ok"), "{text}");
    assert!(lines[2].ends_with(": ok"), "{text}");
    // The engine mates with Ra8#, which this line forbids.
    assert!(lines[3].ends_with(": FAIL"), "{text}");
    assert_eq!(lines[4], "3 passed, 1 failed");
}

#[test]
fn bench_prints_the_signature_line() {
    let out = tools(&["bench", "--depth", "3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    let last = text.lines().last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words[0], "Bench:");
    assert_eq!(words[2], "nodes");
    assert_eq!(words[4], "nps");
    let nodes: u64 = words[1].parse().unwrap();
    assert!(nodes > 0);
    // Deterministic: the same count twice.
    let again = String::from_utf8(tools(&["bench", "--depth", "3"]).stdout).unwrap();
    assert_eq!(again.lines().last().unwrap().split_whitespace().nth(1), Some(words[1]));
}
