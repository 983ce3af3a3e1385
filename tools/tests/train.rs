//! `tempo-tools train` on self-play data: viriformat and text both train, and the network file
//! has the format's exact header and size.

use std::path::Path;
use std::process::{Command, Output};

fn tools() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tempo-tools"))
}

fn ok(out: Output) -> String {
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

fn datagen(out: &Path) {
    ok(tools()
        .args(["datagen", "--games", "6", "--soft-nodes", "200", "--random-plies", "8-10", "--max-plies", "60"])
        .args(["--seed", "5", "--threads", "2", "--out"])
        .arg(out)
        .output()
        .unwrap());
}

fn train(data: &Path, out: &Path, extra: &[&str]) -> String {
    ok(tools()
        .arg("train")
        .arg(data)
        .args(["--hidden", "16", "--epochs", "2", "--batch", "32", "--threads", "2", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap())
}

#[test]
fn self_play_data_trains_a_network_file() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.vf");
    datagen(&games);
    let net = dir.path().join("net.nnue");
    let text = train(&games, &net, &["--val", "0.3", "--mirror"]);
    assert!(text.contains("epoch 1: train ") && text.contains("epoch 2: train "), "{text}");
    let suggested = text.lines().find_map(|l| l.strip_prefix("suggested name: ")).expect("a suggested name");
    assert!(suggested.starts_with("tempo-") && suggested.ends_with(".nnue") && suggested.len() == 23, "{suggested}");

    let file = std::fs::read(&net).unwrap();
    assert_eq!(&file[..8], b"TEMPONNU");
    let word = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap());
    // Plain inputs: version 2 if every output bucket has one QB (in the header), version 3
    // (an input mapping word, and a QB per bucket after the weights) otherwise.
    let version = word(8);
    let (header, listed) = match version {
        2 => (40, 0),
        3 => (44, 4 * 8),
        _ => panic!("format version {version}"),
    };
    // Eight output buckets by default: B * (2H output weights and a bias).
    assert_eq!(file.len(), header + 2 * 768 * 16 + 2 * 16 + 8 * (4 * 16 + 4) + listed);
    assert_eq!([word(12), word(16), word(20), word(24), word(32), word(36)], [768, 16, 1, 255, 400, 8]);
    let scales: Vec<u32> = if version == 3 {
        assert_eq!((word(28), word(40)), (0, 0));
        (file.len() - listed..file.len()).step_by(4).map(word).collect()
    } else {
        vec![word(28)]
    };
    assert!(scales.iter().all(|qb| qb.is_power_of_two() && (64..=4096).contains(qb)), "{scales:?}");

    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("net.nnue.json")).unwrap()).unwrap();
    assert_eq!(summary["suggested_name"], suggested);
    assert_eq!(summary["epochs"].as_array().unwrap().len(), 2);
    assert!(summary["train_positions"].as_u64().unwrap() > 50, "{summary}");
    assert!(dir.path().join("net-epoch2.ckpt").exists());

    // The same games as text train too.
    let lines = dir.path().join("games.txt");
    ok(tools()
        .args(["datagen", "--games", "2", "--nodes", "200", "--max-plies", "40", "--seed", "5", "--out"])
        .arg(&lines)
        .output()
        .unwrap());
    train(&lines, &dir.path().join("text.nnue"), &["--val", "0"]);
    assert!(dir.path().join("text.nnue").exists());

    // CReLU trains but cannot be written in the network format.
    let text = train(&games, &dir.path().join("crelu.nnue"), &["--activation", "crelu"]);
    assert!(text.contains("only checkpoints are written"), "{text}");
    assert!(!dir.path().join("crelu.nnue").exists());
    assert!(dir.path().join("crelu-epoch2.ckpt").exists());
}

#[test]
fn unreadable_data_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "not a fen | 0 | 1.0\n").unwrap();
    let out = tools().arg("train").arg(&bad).arg("--out").arg(dir.path().join("n.nnue")).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.txt:1"));
}
