//! `tempo show --tb` and `tempo analyze --tb` on python-chess's 3- and 4-men Syzygy set
//! (fetched by the Syzygy tests' support module into the cache).

#[path = "../../syzygy/tests/support/mod.rs"]
mod support;

use std::process::Command;

fn tempo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tempo")).args(args).env("NO_COLOR", "1").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn show_and_analyze_give_the_tables_verdict() {
    let Some(tables) = support::tables() else { return };
    let tables = tables.to_str().unwrap();
    let lost = "8/8/8/3k4/8/8/8/1R2K3 b - - 0 1";
    let text = tempo(&["show", "--tb", tables, "--ascii", lost]);
    // python-chess: WDL -2, DTZ -30 (Black loses).
    assert!(text.contains("Tablebase: White wins (WDL -2, DTZ -30); best move "), "{text}");
    let json: serde_json::Value = serde_json::from_str(&tempo(&["show", "--tb", tables, "--json", lost])).unwrap();
    assert_eq!(json["tablebase"]["wdl"], -2);
    assert_eq!(json["tablebase"]["dtz"], -30);
    // Beyond the tables: the reason instead of a verdict.
    let five = tempo(&["show", "--tb", tables, "--ascii", "8/8/8/3k4/8/8/2PP4/1R2K3 b - - 0 1"]);
    assert!(five.contains("Tablebase: no verdict (the position has 5 men, the largest table present 4)."), "{five}");
    let json: serde_json::Value =
        serde_json::from_str(&tempo(&["analyze", "--tb", tables, "--depth", "3", "--json", lost])).unwrap();
    assert_eq!(json["tablebase"]["dtz"], -30);
}
