//! `EvalFile` and `UseNNUE`: the server loads network files, reports bad ones and keeps the
//! network it had; `eval` and the search use the network when asked to.

mod common;

use common::{bestmoves, transcript};
use std::path::{Path, PathBuf};
use tempo_core::Position;
use tempo_engine::{nnue_evaluate, Network, EMBEDDED_NETWORK, HIDDEN};
use tempo_notation::parse_uci_move;

/// A version 1 network file for `hidden` neurons with deterministic pseudo-random weights
/// in the trainer's clipping range, written byte by byte from the format description.
fn network_file(hidden: usize, seed: u64) -> Vec<u8> {
    let mut state = seed;
    let mut next = move |lo: i32, hi: i32| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        lo + ((state >> 33) % (hi - lo + 1) as u64) as i32
    };
    let mut bytes = b"TEMPONNU".to_vec();
    for v in [1u32, 768, hidden as u32, 1] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    for v in [255i32, 64, 400, 0] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let h = hidden;
    for _ in 0..768 * h {
        bytes.extend_from_slice(&(next(-80, 80) as i16).to_le_bytes());
    }
    for _ in 0..h {
        bytes.extend_from_slice(&(next(-50, 250) as i16).to_le_bytes());
    }
    for _ in 0..2 * h {
        bytes.extend_from_slice(&(next(-127, 127) as i16).to_le_bytes());
    }
    bytes.extend_from_slice(&next(-5000, 5000).to_le_bytes());
    assert_eq!(bytes.len(), 40 + 2 * 768 * h + 2 * h + 4 * h + 4);
    bytes
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn set_eval_file(path: &Path) -> String {
    format!("setoption name EvalFile value {}", path.display())
}

/// The built-in network file, as the engine embeds it.
fn built_in_bytes() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/nets").join(EMBEDDED_NETWORK);
    std::fs::read(path).unwrap()
}

/// Centipawns as `eval` prints them: pawns with a sign and two decimals.
fn pawns(cp: i32) -> String {
    format!("{:+.2}", f64::from(cp) / 100.0)
}

/// The last `Final evaluation` line of a transcript.
fn final_line(text: &str) -> &str {
    text.lines().rfind(|l| l.starts_with("Final evaluation")).unwrap()
}

#[test]
fn bad_network_files_are_reported_and_the_engine_keeps_running() {
    let dir = tempfile::tempdir().unwrap();
    let good = network_file(HIDDEN, 1);
    let mut truncated = good.clone();
    truncated.truncate(1234);
    let mut bad_magic = good.clone();
    bad_magic[..8].copy_from_slice(b"NOTANNUE");
    let wide_message = format!("network has {} hidden neurons; this build expects {HIDDEN}", 2 * HIDDEN);
    let short_message = format!(
        "file is 1,234 bytes; a version 1 file of a {HIDDEN}-neuron network with plain inputs and 1 output bucket is "
    );
    let cases = [
        (write(dir.path(), "wide.nnue", &network_file(2 * HIDDEN, 2)), wide_message.as_str()),
        (write(dir.path(), "short.nnue", &truncated), short_message.as_str()),
        (write(dir.path(), "magic.nnue", &bad_magic), "not a Tempo network"),
        (dir.path().join("missing.nnue"), "not loaded"),
    ];
    let pos: Position = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".parse().unwrap();
    let built_in = nnue_evaluate(&Network::from_bytes(&built_in_bytes()).unwrap(), &pos);
    for (path, message) in cases {
        let text =
            transcript(&[&set_eval_file(&path), "isready", "position startpos moves e2e4", "eval", "go depth 4"]);
        let expected = format!("info string network {} not loaded: ", path.display());
        let report = text.lines().find(|l| l.starts_with(&expected)).unwrap_or_else(|| panic!("{text}"));
        assert!(report.contains(message), "{report}");
        let kept = format!("; the engine keeps its built-in network {EMBEDDED_NETWORK}");
        assert!(report.ends_with(&kept), "{report}");
        assert!(text.contains("readyok"), "{text}");
        // The built-in network is still the one that evaluates.
        assert_eq!(final_line(&text), format!("Final evaluation: {} (white side) [NNUE]", pawns(-built_in)));
        assert_eq!(bestmoves(&text).len(), 1, "{text}");
    }
}

#[test]
fn a_good_network_file_is_loaded_and_used() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = network_file(HIDDEN, 3);
    let path = write(dir.path(), "net.nnue", &bytes);
    let network = Network::from_bytes(&bytes).unwrap();
    let mut pos = Position::startpos();
    for m in ["e2e4", "c7c5", "g1f3"] {
        let m = parse_uci_move(&pos, m).unwrap();
        pos.play_unchecked(m);
    }
    let expected = nnue_evaluate(&network, &pos);
    let white = -expected; // Black to move.

    let text = transcript(&[
        "setoption name UseNNUE value false",
        &set_eval_file(&path),
        "position startpos moves e2e4 c7c5 g1f3",
        "eval",
        "setoption name UseNNUE value true",
        "eval",
        "go depth 5",
    ]);
    let loaded = format!("info string network {} loaded: {HIDDEN} hidden neurons; set UseNNUE to true", path.display());
    assert!(text.contains(&loaded), "{text}");
    // With UseNNUE off the hand-crafted evaluation is the final one; on, the network's.
    let finals: Vec<&str> = text.lines().filter(|l| l.starts_with("Final evaluation")).collect();
    assert_eq!(finals.len(), 2, "{text}");
    assert!(finals[0].ends_with("(side to move)"), "{text}");
    assert_eq!(finals[1], format!("Final evaluation: {} (white side) [NNUE]", pawns(white)));
    let nnue_line = format!("NNUE evaluation: {} (white side), {} (side to move)", pawns(white), pawns(expected));
    assert!(text.contains(&nnue_line), "{text}");
    assert!(text.contains("(not used: UseNNUE is on)"), "{text}");
    let best = bestmoves(&text);
    assert_eq!(best.len(), 1, "{text}");
    let mv = best[0].split(' ').nth(1).unwrap();
    assert!(parse_uci_move(&pos, mv).is_ok_and(|m| pos.is_legal(m)), "{text}");

    // A bad file afterwards changes nothing: the loaded network stays in use.
    let missing = dir.path().join("missing.nnue");
    let text = transcript(&[
        &set_eval_file(&path),
        &set_eval_file(&missing),
        "position startpos moves e2e4 c7c5 g1f3",
        "eval",
    ]);
    assert!(text.contains("not loaded") && text.contains("; the engine keeps the network it had loaded"), "{text}");
    assert!(text.contains(&nnue_line), "{text}");

    // `<empty>`, empty and the option's default (the built-in network's name, which GUIs send
    // back) all go back to the built-in network.
    let built_in = -nnue_evaluate(&Network::from_bytes(&built_in_bytes()).unwrap(), &pos);
    for value in ["<empty>", "", EMBEDDED_NETWORK] {
        let text = transcript(&[
            &set_eval_file(&path),
            &format!("setoption name EvalFile value {value}"),
            "position startpos moves e2e4 c7c5 g1f3",
            "eval",
        ]);
        assert_eq!(final_line(&text), format!("Final evaluation: {} (white side) [NNUE]", pawns(built_in)), "{value}");
        assert!(!text.contains("not loaded"), "{text}");
    }
}

#[test]
fn bench_searches_with_the_network_when_it_is_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "net.nnue", &network_file(HIDDEN, 4));
    let nodes = |text: &str| -> u64 {
        let line = text.lines().find(|l| l.starts_with("Nodes searched")).unwrap();
        line.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let built_in = transcript(&["bench 5"]);
    let hce = transcript(&["setoption name UseNNUE value false", "bench 5"]);
    let loaded_but_off = transcript(&["setoption name UseNNUE value false", &set_eval_file(&path), "bench 5"]);
    let loaded = transcript(&[&set_eval_file(&path), "bench 5"]);
    assert_eq!(nodes(&hce), nodes(&loaded_but_off));
    assert_ne!(nodes(&hce), nodes(&built_in));
    assert_ne!(nodes(&loaded), nodes(&built_in));
    assert_ne!(nodes(&loaded), nodes(&hce));
}
