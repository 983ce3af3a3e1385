//! `tempo-tools datagen`: labelled self-play positions, reproducible from the seed.

use std::process::Command;

fn datagen(out: &std::path::Path, threads: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_tempo-tools"))
        .args(["datagen", "--games", "3", "--nodes", "300", "--max-plies", "60", "--seed", "42", "--threads", threads])
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn writes_labelled_quiet_positions_deterministically() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    let summary = datagen(&a, "1");
    // "N positions from P games (...; D games discarded: ...)": every game is accounted for.
    let numbers: Vec<usize> = summary.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
    let (played, discarded) = (numbers[1], numbers[5]);
    assert!(played >= 1 && played + discarded == 3, "{summary}");
    datagen(&b, "2");
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap(), "the seed alone decides the output");
    assert!(text.lines().count() > 10, "{text}");
    for line in text.lines() {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        let pos: tempo_core::Position = fields[0].parse().unwrap();
        assert!(!pos.is_check(), "{line}");
        fields[1].parse::<i32>().unwrap();
        assert!(["1.0", "0.5", "0.0"].contains(&fields[2]), "{line}");
    }
}
