//! Every engine process a client starts is waited for, whatever happens to it: it exits at
//! once, never answers (killed), crashes while thinking, quits, or is dropped. This file
//! holds one test, so that the process running it has no other children.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::time::Duration;
use tempo_core::{Game, Position};
use tempo_engine::Limits;
use tempo_uci::{EngineSpec, ExternalEngine, GameSetup, MoveLimit, Protocol};

/// The children of this process, from every thread's `/proc` entry: running or zombies.
fn children() -> Vec<String> {
    let mut pids = Vec::new();
    for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
        let list = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        pids.extend(list.split_whitespace().map(str::to_owned));
    }
    pids
}

fn script(dir: &Path, name: &str, body: &str) -> EngineSpec {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    EngineSpec { command: "sh".to_owned(), args: vec![path.display().to_string()], options: Vec::new() }
}

#[test]
fn no_engine_process_outlives_its_client() {
    let dir = tempfile::tempdir().unwrap();
    let start = Position::startpos();
    let limit = MoveLimit::Depth(1);
    let setup = GameSetup { start: &start, limit: &limit };
    let patience = Duration::from_millis(300);
    let exits = script(dir.path(), "exits.sh", "exit 3\n");
    let silent = script(dir.path(), "silent.sh", "while read -r line; do :; done\n");
    let crashes = script(
        dir.path(),
        "crashes.sh",
        "while read -r line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; go*) exit 2;; esac; done\n",
    );
    // Answers everything but `quit`, which it ignores: it has to be killed.
    let stubborn = script(
        dir.path(),
        "stubborn.sh",
        "while read -r line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; esac; done\n",
    );

    for (spec, protocol) in
        [(&exits, None), (&silent, Some(Protocol::Uci)), (&silent, Some(Protocol::Xboard)), (&silent, None)]
    {
        assert!(ExternalEngine::start(spec, protocol, &setup, patience).is_err());
        assert_eq!(children(), Vec::<String>::new(), "{:?} {protocol:?}", spec.args);
    }

    let mut engine = ExternalEngine::start(&crashes, None, &setup, patience).unwrap();
    let game = Game::new(start);
    assert!(engine.think(&game, &Limits::depth(1), patience, |_| {}).is_err());
    drop(engine);
    assert_eq!(children(), Vec::<String>::new(), "crashed while thinking");

    let engine = ExternalEngine::start(&stubborn, None, &setup, patience).unwrap();
    assert_eq!(children().len(), 1);
    engine.quit();
    assert_eq!(children(), Vec::<String>::new(), "quit, then killed");

    let engine = ExternalEngine::start(&stubborn, Some(Protocol::Uci), &setup, patience).unwrap();
    drop(engine);
    assert_eq!(children(), Vec::<String>::new(), "dropped");
}
