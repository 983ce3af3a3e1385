//! The one-shot commands stop quietly (status 0, nothing on stderr) when their standard output
//! is closed, as with `tempo perft --divide | head -1`, instead of panicking on the next write.

use std::process::{Command, Output, Stdio};

/// Runs tempo with a stdout pipe whose reading end is closed as soon as the program starts,
/// before it has written anything: its first write fails with a broken pipe.
fn with_closed_stdout(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tempo runs");
    drop(child.stdout.take());
    child.wait_with_output().expect("tempo ends")
}

#[test]
fn one_shot_commands_stop_quietly() {
    for args in [
        &["perft", "--depth", "3", "--divide"][..],
        &["perft", "--depth", "2", "--json"],
        &["show"],
        &["show", "--json"],
        &["analyze", "--depth", "2"],
    ] {
        let out = with_closed_stdout(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?}, stderr: {stderr}", out.status);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}
