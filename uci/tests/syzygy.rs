//! `SyzygyPath` and the search with tables, on python-chess's 3- and 4-men set (fetched by
//! the Syzygy tests' support module into the cache).

#[path = "../../syzygy/tests/support/mod.rs"]
mod support;

use std::process::Command;
use tempo_core::Position;
use tempo_syzygy::Tablebase;

/// Runs `tempo-uci` with these commands as arguments (each runs to completion).
fn uci(commands: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tempo-uci")).args(commands).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

fn best_move(output: &str) -> &str {
    output.lines().last().and_then(|l| l.strip_prefix("bestmove ")).unwrap().split(' ').next().unwrap()
}

#[test]
fn in_the_tables_the_engine_plays_their_move_and_reports_their_result() {
    let Some(folder) = support::tables() else { return };
    let path = format!("setoption name SyzygyPath value {}", folder.display());
    let tables = Tablebase::open(&folder).unwrap();
    // KRvK, Black to move and lost; then White to move with a draw in hand (KBvKP).
    for (fen, result) in
        [("8/8/8/3k4/8/8/8/1R2K3 b - - 0 1", "cp -31743"), ("8/8/4k3/8/8/8/1p6/1BK5 w - - 0 1", "cp 0")]
    {
        let out = uci(&[&path, &format!("position fen {fen}"), "go depth 6"]);
        assert!(out.contains("info string SyzygyPath: 35 tables found, up to 4 men"), "{out}");
        let last_info = out.lines().rfind(|l| l.starts_with("info depth")).unwrap();
        assert!(last_info.contains(&format!("score {result} ")), "{fen}: {last_info}");
        let pos: Position = fen.parse().unwrap();
        let best: Vec<String> = tables.best_moves(&pos, true).unwrap().iter().map(|m| m.mv.to_string()).collect();
        assert!(best.contains(&best_move(&out).to_owned()), "{fen}: {} not among {best:?}", best_move(&out));
    }
}

#[test]
fn the_search_counts_its_probes_and_finds_the_win_they_show() {
    let Some(folder) = support::tables() else { return };
    let path = format!("setoption name SyzygyPath value {}", folder.display());
    // Five men: White wins the rook (Qa4+ forks king and rook) into a won KQvK.
    let fen = "position fen 8/8/8/8/1k6/8/4r3/2Q1K3 w - - 0 1";
    let with = uci(&[&path, fen, "go depth 8"]);
    let last = with.lines().rfind(|l| l.starts_with("info depth")).unwrap();
    let hits: u64 = last.split(" tbhits ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(hits > 0, "{last}");
    let without = uci(&[fen, "go depth 8"]);
    assert!(without.lines().filter(|l| l.starts_with("info depth")).all(|l| l.contains(" tbhits 0 ")));
}

#[test]
fn missing_folders_and_broken_tables_are_reported_and_the_engine_plays_on() {
    let Some(folder) = support::tables() else { return };
    let dir = std::env::temp_dir().join(format!("tempo-uci-syzygy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for table in ["KRvK.rtbw", "KRvK.rtbz"] {
        std::fs::copy(folder.join(table), dir.join(table)).unwrap();
    }
    std::fs::write(dir.join("KQvK.rtbw"), b"garbage").unwrap();
    let path = format!("setoption name SyzygyPath value /no/such/folder:{}", dir.display());
    let out = uci(&[&path, "position fen 8/8/8/3k4/8/8/8/1Q2K3 w - - 0 1", "go depth 5"]);
    assert!(out.contains("info string SyzygyPath: cannot read the tablebase folder /no/such/folder"), "{out}");
    assert!(out.contains("info string SyzygyPath: 2 tables found, up to 3 men"), "{out}");
    assert!(out.contains("info string tablebase probe failed, searched on without the tables there:"), "{out}");
    assert!(out.contains("KQvK.rtbw: not a Syzygy WDL table (magic number)"), "{out}");
    assert!(out.lines().last().unwrap().starts_with("bestmove "), "{out}");
    // `<empty>` removes the tables: nothing more is said about them.
    let out = uci(&[
        &path,
        "setoption name SyzygyPath value <empty>",
        "position fen 8/8/8/3k4/8/8/8/1Q2K3 w - - 0 1",
        "go depth 3",
    ]);
    assert_eq!(out.matches("tablebase probe failed").count(), 0, "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_probe_that_fails_inside_the_search_is_reported_once_and_the_search_goes_on() {
    let Some(folder) = support::tables() else { return };
    let dir = std::env::temp_dir().join(format!("tempo-uci-syzygy-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Only KRvKN: the root (five men) is out of reach, and the captures of the knight lead to
    // KRvKP, whose table is missing.
    for table in ["KRvKN.rtbw", "KRvKN.rtbz"] {
        std::fs::copy(folder.join(table), dir.join(table)).unwrap();
    }
    let path = format!("setoption name SyzygyPath value {}", dir.display());
    let out = uci(&[&path, "position fen 8/8/8/3k3p/8/8/1R1n4/4K3 w - - 0 1", "go depth 6"]);
    assert!(out.contains("info string SyzygyPath: 1 table found, up to 4 men"), "{out}");
    let failures: Vec<&str> = out.lines().filter(|l| l.contains("tablebase probe failed")).collect();
    assert_eq!(failures.len(), 1, "{out}");
    assert!(failures[0].contains("no WDL table KRvKP"), "{out}");
    assert!(out.lines().last().unwrap().starts_with("bestmove "), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
