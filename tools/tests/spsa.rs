//! `tempo-tools spsa` end to end against the built-in engine of a default build, tuning an
//! option every build has (`Hash`), at fixed nodes so the games are quick; and the refusal
//! of an engine that lacks the parameters' options.

mod bins;

use bins::{engine, tools};
use std::process::Command;

fn spsa(args: &[&str]) -> (bool, String) {
    let engine = engine();
    let out = Command::new(tools())
        .args(["spsa", "--engine", engine.to_str().unwrap(), "--nodes", "1000"])
        .args(["--resign-score", "400", "--draw-score", "20"])
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn a_run_plays_pairs_writes_its_state_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let params = dir.path().join("params.txt");
    std::fs::write(&params, "Hash, int, 8, 1, 16, 2, 0.002\n").unwrap();
    let state = dir.path().join("state.json");
    let (state_arg, params_arg) = (state.to_str().unwrap(), params.to_str().unwrap());

    let (ok, text) =
        spsa(&["--params", params_arg, "--state", state_arg, "--iterations", "3", "--max-iterations", "2"]);
    assert!(ok, "{text}");
    assert!(text.contains("SPSA: 1 parameters, iteration 0 of 3"), "{text}");
    assert!(text.contains("iteration 1/3: theta+ scored ") && text.contains("iteration 2/3: "), "{text}");
    assert!(!text.contains("iteration 3/3"), "{text}");
    assert!(text.contains("# SPSA input at the current values (2 of 3 iterations)\nHash, int, "), "{text}");
    assert!(text.contains("setoption name Hash value "), "{text}");

    // A new run refuses to overwrite the state; --resume finishes it.
    let (ok, text) = spsa(&["--params", params_arg, "--state", state_arg, "--iterations", "3"]);
    assert!(!ok && text.contains("already holds a run"), "{text}");
    let (ok, text) = spsa(&["--state", state_arg, "--resume"]);
    assert!(ok, "{text}");
    assert!(text.contains("iteration 2 of 3") && text.contains("iteration 3/3: "), "{text}");
    assert!(text.contains("(3 of 3 iterations)"), "{text}");
}

#[test]
fn an_engine_without_the_options_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let params = dir.path().join("params.txt");
    std::fs::write(&params, "lmr_base, int, 75, 0, 200, 10, 0.002\n").unwrap();
    let state = dir.path().join("state.json");
    let args = ["--params", params.to_str().unwrap(), "--state", state.to_str().unwrap(), "--iterations", "2"];
    let (ok, text) = spsa(&args);
    assert!(!ok && text.contains("has no option lmr_base (is it a tune build"), "{text}");
    assert!(!state.exists());
}
