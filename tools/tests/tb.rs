//! `tempo-tools tb probe` on python-chess's 3- and 4-men tables (fetched by the Syzygy
//! tests' support module into the cache): the 200 positions of `endgame.epd` as JSON lines.

#[path = "../../syzygy/tests/support/mod.rs"]
mod support;

use std::process::{Command, Output};
use tempo_core::Position;

fn tools(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo-tools")).args(args).output().expect("tempo-tools runs")
}

fn op(line: &str, name: &str) -> i64 {
    let at = line.find(&format!("{name} ")).unwrap();
    line[at + name.len() + 1..].split(';').next().unwrap().trim().parse().unwrap()
}

#[test]
fn probes_endgame_epd_as_json_lines() {
    let Some(tree) = support::python_chess() else { return };
    let tables = tree.join("data/syzygy/regular");
    let epd = tree.join("data/endgame.epd");
    let out = tools(&["tb", "probe", "--path", tables.to_str().unwrap(), "--epd", epd.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let expected = std::fs::read_to_string(&epd).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let records: Vec<&str> = expected.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), records.len());
    for (line, record) in lines.iter().zip(records) {
        let json: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(json["wdl"].as_i64(), Some(op(record, "wdl")), "{record}");
        assert_eq!(json["dtz"].as_i64(), Some(op(record, "dtz")), "{record}");
        let pos: Position = json["fen"].as_str().unwrap().parse().unwrap();
        if let Some(best) = json["best_move"].as_str() {
            let m = pos.legal_moves().iter().copied().find(|m| m.to_string() == best).expect("a legal best move");
            assert_eq!(json["best_move_san"].as_str(), Some(tempo_notation::san(&pos, m).as_str()));
        } else {
            assert!(pos.legal_moves().is_empty(), "no best move only when the game is over: {line}");
        }
    }
}

#[test]
fn a_position_beyond_the_tables_is_an_error_line_and_status_1() {
    let Some(tables) = support::tables() else { return };
    let out = tools(&["tb", "probe", "--path", tables.to_str().unwrap(), "8/8/8/8/8/8/2PPP3/k1K5 w - - 0 1"]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "8/8/8/8/8/8/2PPP3/k1K5 w - - 0 1: error: the position has 5 men, the largest table present 4\n"
    );
}

#[test]
fn flags_may_follow_the_fen() {
    let Some(tables) = support::tables() else { return };
    let path = tables.to_str().unwrap();
    let quoted = tools(&["tb", "probe", "--path", path, "8/8/8/8/8/4k3/8/R3K3 w - - 0 1", "--json"]);
    let split = tools(&["tb", "probe", "--path", path, "8/8/8/8/8/4k3/8/R3K3", "w", "-", "-", "0", "1", "--json"]);
    for out in [quoted, split] {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.starts_with("{\"fen\":\"8/8/8/8/8/4k3/8/R3K3 w - - 0 1\",\"wdl\":2"), "{text}");
    }
}
