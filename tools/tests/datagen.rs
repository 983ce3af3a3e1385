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

fn viri_datagen(out: &std::path::Path, games: &str, threads: &str, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tempo-tools"))
        .args(["datagen", "--games", games, "--soft-nodes", "200", "--random-plies", "8-10", "--max-plies", "50"])
        .args(["--seed", "9", "--threads", threads])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn viriformat_output_is_deterministic_resumable_and_valid() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, resumed) = (dir.path().join("whole.vf"), dir.path().join("resumed.vf"));
    let run = viri_datagen(&whole, "6", "2", &[]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    // The same run in two parts, on another number of threads, with a torn write at the end
    // of the first part: the resumed file is the same, byte for byte.
    assert!(viri_datagen(&resumed, "3", "1", &[]).status.success());
    let mut torn = std::fs::OpenOptions::new().append(true).open(&resumed).unwrap();
    std::io::Write::write_all(&mut torn, &[1, 2, 3]).unwrap();
    let second = viri_datagen(&resumed, "6", "1", &["--resume"]);
    assert!(second.status.success(), "{}", String::from_utf8_lossy(&second.stderr));
    let bytes = std::fs::read(&whole).unwrap();
    assert!(bytes.len() > 100);
    assert_eq!(bytes, std::fs::read(&resumed).unwrap(), "resuming writes what one run would have");

    // A new run into a file that holds data is refused: it would throw the games away.
    let again = viri_datagen(&resumed, "6", "1", &[]);
    assert_eq!(again.status.code(), Some(1));
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(said.contains("bytes of data: continue that run with --resume, or name a new --out"), "{said}");
    assert_eq!(bytes, std::fs::read(&resumed).unwrap());

    // Resuming with other settings is refused and leaves the file alone.
    let refused = viri_datagen(&resumed, "8", "1", &["--resume", "--draw-score", "5"]);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("was made with other settings: draw_score 10 (given 5); resume it"), "{said}");
    assert_eq!(bytes, std::fs::read(&resumed).unwrap());

    let stats =
        Command::new(env!("CARGO_BIN_EXE_tempo-tools")).args(["data", "stats", "--json"]).arg(&whole).output().unwrap();
    assert!(stats.status.success(), "{}", String::from_utf8_lossy(&stats.stderr));
    let json: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    let games = json["games"].as_u64().unwrap();
    assert!((1..=6).contains(&games), "{json}");
    assert_eq!(
        json["white_wins"].as_u64().unwrap() + json["draws"].as_u64().unwrap() + json["black_wins"].as_u64().unwrap(),
        games
    );
    assert!(json["training_positions"].as_u64().unwrap() > 0);
    assert!(json["training_positions"].as_u64().unwrap() <= json["positions"].as_u64().unwrap());
    assert_eq!(json["errors"], 0);
    let summary = String::from_utf8(run.stdout).unwrap();
    assert!(summary.starts_with(&format!("{} positions from {games} games", json["training_positions"])), "{summary}");

    // A corrupted file is reported, and the exit status says so.
    let mut broken = bytes.clone();
    broken[33] ^= 0x3f; // the first move's destination
    let bad = dir.path().join("bad.vf");
    std::fs::write(&bad, broken).unwrap();
    let stats = Command::new(env!("CARGO_BIN_EXE_tempo-tools")).args(["data", "stats"]).arg(&bad).output().unwrap();
    assert_eq!(stats.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&stats.stderr).contains("not legal"), "{}", String::from_utf8_lossy(&stats.stderr));
}
