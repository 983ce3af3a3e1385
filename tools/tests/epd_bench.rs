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
fn epd_movetime_takes_units_and_a_bare_number_is_milliseconds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.epd");
    std::fs::write(&path, "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"back rank\";\n").unwrap();
    for movetime in ["50", "50ms", "0.05s"] {
        let out = tools(&["epd", path.to_str().unwrap(), "--movetime", movetime]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "--movetime {movetime}: {text}");
        assert!(text.ends_with("1 passed, 0 failed\n"), "--movetime {movetime}: {text}");
    }
    for (movetime, why) in [("0", "a time must be more than zero"), ("5x", "unknown time unit \"x\"")] {
        let out = tools(&["epd", path.to_str().unwrap(), "--movetime", movetime]);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "--movetime {movetime}");
        assert!(err.contains(why), "--movetime {movetime}: {err}");
    }
    let help = String::from_utf8(tools(&["epd", "--help"]).stdout).unwrap();
    assert!(help.contains("A bare number is milliseconds"), "{help}");
}

#[test]
fn epd_takes_engine_options_and_rejects_unknown_ones() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.epd");
    std::fs::write(&path, "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"back rank\";\n").unwrap();
    // A valid option is taken (which evaluation searched cannot be seen from outside: both
    // find this mate); an invalid one stops the command before any search.
    let out = tools(&["epd", path.to_str().unwrap(), "--movetime", "50", "--option", "UseNNUE=false"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert_eq!(text.lines().last(), Some("1 passed, 0 failed"), "{text}");
    for bad in ["UseNNUE", "NoSuchOption=1", "Hash=lots"] {
        let out = tools(&["epd", path.to_str().unwrap(), "--movetime", "50", "--option", bad]);
        assert!(!out.status.success(), "{bad}");
        assert!(out.stdout.is_empty(), "{bad}: no position is searched with a bad option");
        assert!(String::from_utf8_lossy(&out.stderr).contains(bad), "{bad}");
    }
}

#[test]
fn epd_node_limited_runs_are_reproducible_and_jobs_keep_the_file_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.epd");
    // Ten positions of Win At Chess: real searches, whose moves depend on every node.
    let wac = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/epd/wac.epd")).unwrap();
    std::fs::write(&path, wac.lines().take(10).collect::<Vec<_>>().join("\n")).unwrap();
    let suite = path.to_str().unwrap();
    let one = tools(&["epd", suite, "--nodes", "20000"]);
    let again = tools(&["epd", suite, "--nodes", "20000"]);
    let three = tools(&["epd", suite, "--nodes", "20000", "--jobs", "3"]);
    let text = String::from_utf8(one.stdout).unwrap();
    assert!(one.status.success(), "{text}");
    let ids: Vec<&str> = text.lines().take(10).map(|line| line.split(':').next().unwrap()).collect();
    let expected: Vec<String> = (1..=10).map(|n| format!("WAC.{n:03}")).collect();
    assert_eq!(ids, expected, "{text}");
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
    assert_eq!(String::from_utf8(three.stdout).unwrap(), text, "three jobs, the same lines in the same order");
    let depth = tools(&["epd", suite, "--depth", "3", "--jobs", "2"]);
    assert!(depth.status.success());
    assert_eq!(String::from_utf8(depth.stdout).unwrap().lines().count(), 11);
    let both = tools(&["epd", suite, "--nodes", "1000", "--movetime", "10"]);
    assert!(!both.status.success(), "one limit at a time");
}

#[test]
fn epd_suite_reports_unreadable_records_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.epd");
    // A byte order mark first; then a move that is not legal, a line that is not EPD and a
    // position without a white king, between positions that run.
    std::fs::write(
        &path,
        "\u{feff}6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"first\";\n\
         # a comment\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qd8#; id \"illegal bm\";\n\
         garbage line\n\
         6k1/5ppp/8/8/8/8/8/R6k w - - bm Ra8#;\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;\n",
    )
    .unwrap();
    let out = tools(&["epd", path.to_str().unwrap(), "--movetime", "50"]);
    let text = String::from_utf8(out.stdout).unwrap().replace(path.to_str().unwrap(), "suite.epd");
    // Unreadable records make the suite itself broken: exit status 1.
    assert_eq!(out.status.code(), Some(1), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[0].starts_with("first: expected bm Ra8#, found Ra8#: ok"), "{text}");
    assert_eq!(lines[1], "suite.epd:3: unreadable record (operand \"Qd8#\" of bm: no such move \"Qd8#\"): FAIL");
    assert!(lines[2].starts_with("suite.epd:4: unreadable record (epd \"garbage line\""), "{text}");
    assert!(lines[2].ends_with("): FAIL"), "{text}");
    assert!(lines[3].starts_with("suite.epd:5: unreadable record (invalid position"), "{text}");
    assert!(lines[3].ends_with("): FAIL"), "{text}");
    // A record without an id is named by its line.
    assert!(lines[4].starts_with("line 6: expected bm Ra8#, found Ra8#: ok"), "{text}");
    assert_eq!(lines[5], "2 passed, 3 failed");
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

#[test]
fn an_epd_suite_without_cases_is_an_error_not_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.epd");
    // Blank, a comment, and a position with neither `bm` nor `am`.
    std::fs::write(&path, "\n# nothing\n6k1/5ppp/8/8/8/8/8/R5K1 w - - id \"no verdict\";\n").unwrap();
    let out = tools(&["epd", path.to_str().unwrap(), "--nodes", "100"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("holds no record with a `bm` or `am` operation: nothing to test"), "{stderr}");
}
