//! `tempo-tools tune` on self-play data: the loss falls and the weights are written as Rust
//! source in the engine's format.

use std::process::Command;

fn tools() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tempo-tools"))
}

#[test]
fn tuning_lowers_the_loss_and_writes_weights() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data.txt");
    let out = tools()
        .args(["datagen", "--games", "8", "--nodes", "300", "--max-plies", "80", "--seed", "3", "--out"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let tables = dir.path().join("tuned_weights.rs");
    // No hold-out set: the weights kept are those with the best training loss, so that loss
    // must fall (with a hold-out set of a few games, the start weights may rightly be kept).
    let out = tools()
        .arg("tune")
        .arg(&data)
        .args(["--epochs", "20", "--validation", "0", "--write"])
        .arg(&tables)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let last = text.lines().find(|l| l.starts_with("tuned (rounded)")).expect("summary line");
    // "tuned (rounded): loss A / B (from C / D)": the training loss A is below C.
    let numbers: Vec<f64> =
        last.split(|c: char| !(c.is_ascii_digit() || c == '.')).filter_map(|w| w.parse().ok()).collect();
    assert_eq!(numbers.len(), 4, "{last}");
    assert!(numbers[0] < numbers[2], "{last}");

    let source = std::fs::read_to_string(&tables).unwrap();
    assert!(source.contains("pub const WEIGHTS: [S; WEIGHT_COUNT] = ["), "{source}");
    for section in tempo_engine::hce::WEIGHT_SECTIONS {
        assert!(source.contains(&format!("    // {}\n", section.name)), "{}", section.name);
    }
    assert_eq!(source.matches(" S(").count(), tempo_engine::hce::WEIGHT_COUNT);

    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "not a fen | 0 | 1.0\n").unwrap();
    let out = tools().arg("tune").arg(&bad).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.txt:1"));
}
