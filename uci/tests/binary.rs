//! The `tempo-uci` binary's command line: arguments run as commands, `--help`, bad commands.

use std::process::{Command, Stdio};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tempo-uci")).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn arguments_run_as_commands() {
    let (code, stdout, _) = run(&["position startpos moves e2e4", "go depth 3"]);
    assert_eq!(code, 0);
    assert!(stdout.lines().last().unwrap().starts_with("bestmove "), "{stdout}");
}

#[test]
fn help_and_bad_commands() {
    let (code, stdout, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("tempo-uci bench"), "{stdout}");
    let (code, stdout, stderr) = run(&["foo"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty() && stderr.contains("unknown command \"foo\""), "{stderr}");
}

#[test]
fn a_closed_stderr_does_not_stop_the_bench() {
    // `tempo-uci bench 2>&1 | head -1` closes the pipe that the progress lines go to.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo-uci"))
        .args(["bench", "3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains(" nodes "), "{stdout}");
}
