//! `tempo-tools match` against the built-in engine, at a fixed depth so the games are
//! quick and need no wall-clock assumptions.

mod bins;

use bins::{engine, tools};
use std::path::PathBuf;
use std::process::Command;

#[test]
fn a_short_match_reports_results_and_writes_pgn() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/openings/openings.epd");
    let out = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--depth", "2", "--games", "2", "--max-moves", "30", "--openings", openings, "--sprt", "0,10"])
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Game 1/2:") && text.contains("Game 2/2:"), "{text}");
    assert!(text.contains(": 2 games, W/D/L"), "{text}");
    // One opening each way: one game pair, which the interval and the SPRT are made of.
    assert!(text.contains("Pentanomial (pairs in which"), "{text}");
    assert!(text.contains("(95%, from 1 game pair)"), "{text}");
    assert!(text.contains("0 time forfeits, 0 illegal moves, 0 crashes"), "{text}");
    assert!(text.contains("SPRT [0, 10]"), "{text}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event \"tempo-tools match\"]").count(), 2, "{games}");
    // Both games start from the first opening, colours swapped.
    assert_eq!(
        games.matches("[FEN \"rn1q1rk1/pbp2ppp/1p1ppn2/6B1/2PP4/P1Q2P2/1P2P1PP/R3KBNR w KQ - 0 9\"]").count(),
        2
    );
    assert!(games.contains("[MoveLimit \"depth 2\"]"), "{games}");
    // Every engine move carries its evaluation at depth 2 and its time, which `data
    // import-pgn` reads back as training data.
    let words = games.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("9. ") && words.contains("/2 0.0"), "{games}");
    let vf = dir.path().join("games.vf");
    let out = Command::new(tools()).args(["data", "import-pgn"]).arg(&pgn).arg("--out").arg(&vf).output().unwrap();
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains(": 2 games, ") && said.contains("0 broken games skipped"), "{said}");
}

/// The xboard engine of `tests/engines/xboard.rs`, built as an example of this crate
/// (`cargo test --workspace` builds it; a lone `cargo test --test matches` may not).
fn xboard_engine() -> PathBuf {
    let path = tools().with_file_name("examples").join(format!("xboard-test-engine{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let status = Command::new(env!("CARGO"))
            .args(["build", "-p", "tempo-tools", "--example", "xboard-test-engine"])
            .status()
            .unwrap();
        assert!(status.success());
    }
    assert!(path.exists(), "{} missing", path.display());
    path
}

/// `tempo-tools match` with `args`: its exit status, stdout and stderr.
fn run_match(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(tools()).arg("match").args(args).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// An engine that cannot be started stops the run before any game: no result is invented,
/// nothing is written to the PGN file, and the SPRT cannot pass.
#[test]
fn an_engine_that_cannot_start_stops_the_run_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let pgn = pgn.to_str().unwrap();
    let engine = engine();
    for extra in [&["--games", "2", "--tc", "1+0.01"][..], &["--games", "16", "--tc", "1+0.01", "--sprt", "0,10"]] {
        let mut args = vec!["--engine", engine.to_str().unwrap(), "--engine", "/nonexistent", "--pgn", pgn];
        args.extend_from_slice(extra);
        let (ok, out, err) = run_match(&args);
        assert!(!ok, "{out}");
        assert!(!out.contains("Game ") && !out.contains("W/D/L") && !out.contains("accepted"), "{out}");
        assert!(
            err.contains("engine 2 (nonexistent, command `/nonexistent`) could not be started (step: spawn)"),
            "{err}"
        );
        assert!(err.contains("no game was played"), "{err}");
        assert_eq!(std::fs::read_to_string(pgn).unwrap_or_default(), "", "no game in the PGN file");
    }
    // The same with the built-in engine: the README's `--engine stockfish` where there is none.
    let (ok, _, err) = run_match(&["--engine", "/nonexistent", "--games", "2", "--tc", "1+0.01"]);
    assert!(!ok && err.contains("could not be started (step: spawn)"), "{err}");
}

/// An engine that exits at once, or never answers `uciok` (nor xboard's `protover 2`),
/// stops the run before any game, with the step named.
#[cfg(unix)]
#[test]
fn an_engine_that_exits_or_never_answers_stops_the_run_before_any_game() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let exits = dir.path().join("exits.sh");
    std::fs::write(&exits, "exit 3\n").unwrap();
    let silent = dir.path().join("silent.sh");
    std::fs::write(&silent, "while read -r line; do :; done\n").unwrap();
    // The engine that exits may be gone before `uci` is written (a broken pipe) or after
    // (its output closed): either way it speaks neither protocol.
    let cases = [
        (format!("sh {}", exits.display()), None, "(step: handshake): it speaks neither UCI ("),
        (format!("sh {}", silent.display()), None, "(step: handshake): it speaks neither UCI (the engine did not send uciok within 1s) nor xboard (the engine did not send feature lines after protover 2 within 1s)"),
        (format!("sh {}", silent.display()), Some("uci"), "(step: handshake): the engine did not send uciok within 1s"),
        (format!("sh {}", silent.display()), Some("2:xboard"), "(step: handshake): the engine did not send feature lines after protover 2 within 1s"),
    ];
    for (command, protocol, expected) in cases {
        let mut args = vec!["--engine", engine.to_str().unwrap(), "--engine", &command, "--depth", "1"];
        args.extend(["--games", "2", "--hang-timeout", "1s", "--pgn", pgn.to_str().unwrap()]);
        if let Some(protocol) = protocol {
            args.extend(["--protocol", protocol]);
        }
        let (ok, out, err) = run_match(&args);
        assert!(!ok, "{command}: {out}");
        assert!(!out.contains("Game "), "{out}");
        assert!(err.contains("engine 2 (sh, command `sh ") && err.contains(expected), "{command} {protocol:?}: {err}");
        assert_eq!(std::fs::read_to_string(&pgn).unwrap_or_default(), "", "no game in the PGN file");
    }
}

/// A UCI engine that crashes mid-game loses that game; when it then cannot be started
/// again, the match stops with the games played of those scheduled and a non-zero exit, the
/// PGN file holds the game played and a resumed match replays the game that was not.
/// Each engine, when it starts, finds no zombie among the runner's children: every engine
/// of the earlier games (the one that crashed included) was waited for.
#[cfg(target_os = "linux")]
#[test]
fn an_engine_that_crashes_and_cannot_restart_stops_the_match() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let state = dir.path();
    // Start 1 is the preflight; start 2 plays game 1 and dies at its second move; starts 3
    // and 4 (game 2, tried twice) exit at once. Each start first lists the runner's children that are zombies
    // (the state follows the command name in /proc/PID/stat; `sh` and `tempo-uci` have no
    // spaces).
    let script = dir.path().join("crash.sh");
    std::fs::write(
        &script,
        format!(
            "for c in $(cat /proc/$PPID/task/*/children); do \
             [ \"$(cut -d' ' -f3 /proc/$c/stat 2>/dev/null)\" = Z ] && echo $c >> {d}/zombies; done\n\
             n=$(( $(cat {d}/starts 2>/dev/null || echo 0) + 1 )); echo $n > {d}/starts\n\
             [ $n -ge 3 ] && exit 1\n\
             while read -r line; do case \"$line\" in \
             uci) echo 'id name Crash'; echo uciok;; isready) echo readyok;; \
             go*) [ -e {d}/moved ] && exit 2; : > {d}/moved; echo 'bestmove e7e5';; quit) exit 0;; esac; done\n",
            d = state.display()
        ),
    )
    .unwrap();
    let command = format!("sh {}", script.display());
    let out = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--engine", &command, "--depth", "1", "--games", "4", "--pgn"])
        .arg(&pgn)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("Engine 2: sh speaks UCI (detected), calls itself \"Crash\""), "{text}");
    assert!(
        text.contains("Game 1/4: tempo-uci vs sh: 1-0 (sh crashed or hung: the engine closed its output)"),
        "{text}"
    );
    assert!(!text.contains("Game 2/4"), "{text}");
    assert!(text.contains(": 1 games, W/D/L 1/0/0"), "{text}");
    assert!(text.contains("sh: 0 time forfeits, 0 illegal moves, 1 crashes"), "{text}");
    assert!(
        err.contains("the match stopped after 1 of 4 scheduled games: engine 2 (sh, command `sh ")
            && err.contains("could not be started again for game 1.2 (step: handshake): the engine closed its output"),
        "{err}"
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event ").count(), 1, "{games}");
    assert!(games.contains("[Round \"1.1\"]") && games.contains("[Termination \"abandoned\"]"), "{games}");
    assert_eq!(std::fs::read_to_string(state.join("starts")).unwrap().trim(), "4");
    assert!(err.contains("warning: engine 2 (sh, command `sh ") && err.contains("; starting it once more"), "{err}");
    let zombies = std::fs::read_to_string(state.join("zombies")).unwrap_or_default();
    assert_eq!(zombies, "", "zombie engines");

    // Resumed with an engine that works, the match plays the three games left.
    let bad = scripted_engine(dir.path(), "Bad", "a1a8", "0");
    let (ok, text, err) = run_match(&[
        "--engine",
        engine.to_str().unwrap(),
        "--engine",
        &bad,
        "--name",
        "tempo-uci",
        "--name",
        "sh",
        "--depth",
        "1",
        "--games",
        "4",
        "--pgn",
        pgn.to_str().unwrap(),
        "--resume",
    ]);
    assert!(ok, "{text}\n{err}");
    assert!(text.contains("Resuming: 1 games already played"), "{text}");
    assert!(text.contains(": 4 games, W/D/L 4/0/0"), "{text}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap().matches("[Event ").count(), 4);
}

/// An engine that starts but crashes in every game stops the match after
/// `MAX_FAILURES_IN_A_ROW` (3) games, which are scored; with two games at once, both
/// workers stop, and the PGN file holds only whole games.
#[cfg(unix)]
#[test]
fn an_engine_that_keeps_crashing_stops_the_match() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("dies.sh");
    std::fs::write(
        &script,
        "while read -r line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; go*) exit 2;; esac; done\n",
    )
    .unwrap();
    let command = format!("sh {}", script.display());
    for concurrency in ["1", "2"] {
        let pgn = dir.path().join(format!("games-{concurrency}.pgn"));
        let (ok, text, err) = run_match(&[
            "--engine",
            engine.to_str().unwrap(),
            "--engine",
            &command,
            "--depth",
            "1",
            "--games",
            "20",
            "--concurrency",
            concurrency,
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        assert!(!ok, "{text}");
        let summary = text.lines().find(|l| l.contains(" games, W/D/L ")).expect("summary");
        let games: usize = summary.split(": ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        // Three in a row stop it; a game already running on the other worker finishes.
        let most = if concurrency == "1" { 3 } else { 4 };
        assert!((3..=most).contains(&games), "{concurrency}: {text}");
        assert!(
            err.contains(&format!("the match stopped after {games} of 20 scheduled games: engine 2 (sh, command `sh "))
                && err.contains("crashed or hung in 3 games in a row, the last: sh crashed or hung"),
            "{err}"
        );
        let written = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(written.matches("[Event ").count(), games, "{written}");
        assert_eq!(written.matches("[Termination \"abandoned\"]").count(), games, "{written}");
    }
}

/// xboard engines play games to the end: detected without --protocol, or named; with a
/// clock (`level`, `time`, `otim`) or a depth (`sd`); from FENs with `setboard`; in
/// coordinates, SAN or the old `N. ... MOVE` form.
#[test]
fn xboard_engines_play_games_to_the_end() {
    let engine = engine();
    let xboard = xboard_engine();
    let xboard = xboard.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/openings/openings.epd");
    let san = format!("{xboard} --san --old-form");
    let runs: [(&[&str], &str); 3] = [
        (
            &["--engine", xboard, "--depth", "1", "--max-moves", "40"],
            "speaks xboard (detected), calls itself \"xboard test engine\"",
        ),
        (
            &[
                "--engine",
                &san,
                "--protocol",
                "2:xboard",
                "--tc",
                "10+0.1",
                "--max-moves",
                "30",
                "--openings",
                openings,
            ],
            "speaks xboard, calls",
        ),
        (
            &[
                "--engine",
                xboard,
                "--engine",
                &san,
                "--movetime",
                "50",
                "--max-moves",
                "30",
                "--option",
                "1:Style=wild",
            ],
            "speaks xboard (detected)",
        ),
    ];
    for (run, (args, speaks)) in runs.into_iter().enumerate() {
        let pgn = dir.path().join(format!("games-{run}.pgn"));
        let mut all: Vec<&str> = args.to_vec();
        let builtin = ["--engine", engine.to_str().unwrap()];
        if args.iter().filter(|a| **a == "--engine").count() == 1 {
            all.splice(0..0, builtin);
        }
        all.extend(["--games", "2", "--pgn", pgn.to_str().unwrap()]);
        let (ok, text, err) = run_match(&all);
        assert!(ok, "{args:?}: {text}\n{err}");
        assert!(text.contains(speaks), "{text}");
        assert!(text.contains(": 2 games, W/D/L"), "{text}");
        assert_eq!(text.matches("0 time forfeits, 0 illegal moves, 0 crashes").count(), 2, "{text}");
        let games = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(games.matches("[Event ").count(), 2, "{games}");
        // Every game ended by the rules or the move limit (no engine's fault: no crash,
        // illegal move or forfeit above).
        for termination in games.lines().filter(|l| l.starts_with("[Termination ")) {
            assert!(termination.contains("normal") || termination.contains("adjudication"), "{games}");
        }
    }
}

/// An xboard engine that cannot do what the match needs is refused before any game: a
/// game from a FEN without `setboard`, a node limit, an option it does not offer.
#[test]
fn an_xboard_engine_that_cannot_play_the_match_is_refused_before_any_game() {
    let engine = engine();
    let xboard = xboard_engine();
    let no_setboard = format!("{} --no-setboard", xboard.display());
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/openings/openings.epd");
    let cases: [(&[&str], &str); 3] = [
        (
            &["--engine", &no_setboard, "--depth", "1", "--openings", openings],
            "(step: setup): the engine cannot start a game from rn1q1rk1/",
        ),
        (
            &["--engine", xboard.to_str().unwrap(), "--nodes", "1000"],
            "(step: setup): the engine cannot play to a node limit",
        ),
        (
            &["--engine", xboard.to_str().unwrap(), "--depth", "1", "--option", "2:Hash=16"],
            "(step: setup): the engine cannot set option \"Hash\" (it offers: Style)",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["--engine", engine.to_str().unwrap(), "--games", "2"];
        all.extend_from_slice(args);
        let (ok, text, err) = run_match(&all);
        assert!(!ok && !text.contains("Game "), "{text}");
        assert!(err.contains("no game was played: engine 2 (xboard-test-engine") && err.contains(expected), "{err}");
    }
}

/// An xboard engine's resignation ends the game, normally, in its opponent's favour.
#[test]
fn an_xboard_engine_that_resigns_loses() {
    let engine = engine();
    let resigns = format!("{} --resign-after 2", xboard_engine().display());
    let (ok, text, err) =
        run_match(&["--engine", engine.to_str().unwrap(), "--engine", &resigns, "--depth", "1", "--games", "2"]);
    assert!(ok, "{text}\n{err}");
    assert!(text.contains("(xboard-test-engine resigns)"), "{text}");
    assert!(text.contains(": 2 games, W/D/L 2/0/0"), "{text}");
    assert!(text.contains("xboard-test-engine: 0 time forfeits, 0 illegal moves, 0 crashes"), "{text}");
}

#[test]
fn bad_arguments_are_errors() {
    let out =
        Command::new(tools()).args(["match", "--engine", "x", "--engine", "y", "--tc", "nonsense"]).output().unwrap();
    assert!(!out.status.success());
    let out =
        Command::new(tools()).args(["match", "--engine", "x", "--engine", "y", "--sprt", "5,0"]).output().unwrap();
    assert!(!out.status.success());
    let out = Command::new(tools()).args(["match", "--engine", "x", "--engine", "y", "--tc", "5x+3"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown time unit \"x\""), "{err}");
}

/// `--tc` with units is the same clock as bare seconds: the PGN records `10+0.1` both ways.
#[cfg(unix)]
#[test]
fn tc_with_units_is_the_bare_seconds_clock() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    // An engine that answers an illegal move ends each game at once.
    let bad = scripted_engine(dir.path(), "Bad", "a1a8", "0");
    for tc in ["10s+0.1s", "10+0.1"] {
        let pgn = dir.path().join(format!("{tc}.pgn"));
        let out = Command::new(tools())
            .args(["match", "--engine"])
            .arg(&engine)
            .args(["--engine", &bad, "--tc", tc, "--games", "2", "--pgn"])
            .arg(&pgn)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
        let games = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(games.matches("[TimeControl \"10+0.1\"]").count(), 2, "{tc}: {games}");
    }
}

/// A scripted UCI engine (the match names it `sh`, after its program): answers the handshake and plays `reply` to every `go` after
/// sleeping `delay` seconds.
#[cfg(unix)]
fn scripted_engine(dir: &std::path::Path, name: &str, reply: &str, delay: &str) -> String {
    let script = dir.join(format!("{name}.sh"));
    std::fs::write(
        &script,
        format!(
            "while read -r line; do case \"$line\" in \
             uci) echo 'id name {name}'; echo uciok;; isready) echo readyok;; \
             go*) sleep {delay}; echo 'bestmove {reply}';; quit) exit 0;; esac; done\n"
        ),
    )
    .unwrap();
    format!("sh {}", script.display())
}

/// A move that leaves the position dead ends the game as a draw by the rules, and the PGN
/// says why.
#[cfg(unix)]
#[test]
fn a_dead_position_is_a_draw() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    // Black's g6-g5 locks the last pawn: kings and bishop can never cross the chain
    // (the position after it is in data/unwinnable/cases.txt, labelled `--`).
    let openings = dir.path().join("dead.fen");
    std::fs::write(&openings, "8/2k5/6p1/p1p1p3/P1P1P1P1/2K5/6B1/8 b - - 0 1\n").unwrap();
    let locker = scripted_engine(dir.path(), "Locker", "g6g5", "0");
    let pgn = dir.path().join("games.pgn");
    let out = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--engine", &locker, "--depth", "1", "--games", "1", "--openings"])
        .arg(&openings)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("W/D/L 0/1/0"), "{text}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert!(games.contains("[Result \"1/2-1/2\"]") && games.contains("[Termination \"normal\"]"), "{games}");
    let words = games.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("} {Draw by dead position: neither side can checkmate (the pawns are locked"), "{games}");
}

#[cfg(unix)]
#[test]
fn illegal_moves_lose_and_a_clean_sweep_stops_the_sprt_early() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    // a1a8 is never legal from the start position (or for Black's first move).
    let bad = scripted_engine(dir.path(), "Bad", "a1a8", "0");
    let out = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--engine", &bad, "--depth", "1", "--games", "200", "--sprt", "0,10"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    let summary = text.lines().find(|l| l.contains(" games, W/D/L ")).expect("summary");
    let games: u64 = summary.split(": ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(games < 200, "the SPRT should stop a clean sweep early: {summary}");
    assert!(summary.contains(&format!("W/D/L {games}/0/0")), "{summary}");
    assert!(text.contains(&format!("sh: 0 time forfeits, {games} illegal moves, 0 crashes")), "{text}");
    assert!(text.contains("H1 accepted at game"), "{text}");
    let elo = text.lines().find(|l| l.starts_with("Elo difference:")).unwrap();
    assert!(elo.starts_with("Elo difference: inf [") && !elo.contains("[inf"), "{elo}");
}

/// Resuming a match whose SPRT the earlier sitting decided plays no more games.
#[cfg(unix)]
#[test]
fn a_decided_sprt_stays_decided_when_resumed() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let bad = scripted_engine(dir.path(), "Bad", "a1a8", "0");
    let pgn = dir.path().join("games.pgn");
    let sitting = |resume: bool| {
        let mut command = Command::new(tools());
        command.args(["match", "--engine"]).arg(&engine);
        command.args(["--engine", &bad, "--depth", "1", "--games", "200", "--sprt", "0,10", "--pgn"]).arg(&pgn);
        if resume {
            command.arg("--resume");
        }
        let out = command.output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let first = sitting(false);
    let decided = first.lines().find(|l| l.contains("H1 accepted at game")).expect("decided").to_owned();
    let played = std::fs::read_to_string(&pgn).unwrap();
    let second = sitting(true);
    assert!(!second.contains("Game "), "{second}");
    assert!(second.contains(&decided), "{second}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), played);
}

#[cfg(unix)]
#[test]
fn an_engine_past_its_clock_forfeits() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let slow = scripted_engine(dir.path(), "Slow", "e7e5", "3");
    let pgn = dir.path().join("games.pgn");
    let out = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--engine", &slow, "--tc", "1+0", "--games", "2", "--pgn"])
        .arg(&pgn)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("W/D/L 2/0/0"), "{text}");
    assert!(text.contains("sh: 2 time forfeits, 0 illegal moves"), "{text}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Termination \"time forfeit\"]").count(), 2, "{games}");
    // The built-in engine's moves carry the clock the runner kept.
    assert!(games.contains("[%clk 0:00:00"), "{games}");
    assert!(games.contains("[Date \"20") && !games.contains("[Date \"?"), "{games}");
}

#[cfg(target_os = "linux")]
/// A new match never writes over the games of an earlier one.
#[test]
fn a_pgn_file_that_holds_games_is_continued_or_refused_never_emptied() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("earlier.pgn");
    let earlier = "[Event \"An earlier match\"]\n\n1. e4 e5 1/2-1/2\n";
    std::fs::write(&pgn, earlier).unwrap();
    let engine = engine();
    let (ok, out, err) = run_match(&[
        "--engine",
        engine.to_str().unwrap(),
        "--depth",
        "1",
        "--games",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(!ok, "{out}");
    assert!(err.contains("is not empty (a match's games, or some other file): continue that match with --resume, or name a new --pgn file"), "{err}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), earlier);
}

#[test]
fn a_pgn_file_that_cannot_be_written_stops_the_match_with_an_error() {
    let engine = engine();
    let out = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--depth", "1", "--games", "4", "--max-moves", "10", "--pgn", "/dev/full"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("writing a game to the PGN file"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_round_robin_stops_each_pairing_when_its_sprt_decides() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let bad = scripted_engine(dir.path(), "Bad", "a1a8", "0");
    let worse = scripted_engine(dir.path(), "Worse", "h1h8", "0");
    let out = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--engine", &bad, "--engine", &worse, "--depth", "1", "--games", "40", "--sprt", "0,10"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    // The built-in engine beats both at once; the scripted pair, each losing with White, is
    // even and plays all its games.
    let summaries: Vec<&str> = text.lines().filter(|l| l.contains(" games, W/D/L ")).collect();
    assert_eq!(summaries.len(), 3, "{text}");
    assert!(summaries[0].starts_with("tempo-uci vs sh: ") && !summaries[0].contains(": 40 games"), "{text}");
    assert!(summaries[1].starts_with("tempo-uci vs sh-3: ") && !summaries[1].contains(": 40 games"), "{text}");
    assert!(summaries[2].contains("sh vs sh-3: 40 games, W/D/L 20/0/20"), "{text}");
    assert_eq!(text.matches("H1 accepted at game").count(), 2, "{text}");
    assert!(text.contains("Elo difference: 0.0 ["), "{text}");
}

/// A match in two sittings: the second (`--resume`) counts the first's games, replays the
/// game the first was writing when it stopped, and plays the rest; a resume with other
/// engines is refused.
#[cfg(unix)]
#[test]
fn a_resumed_match_counts_the_games_already_played() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/openings/openings.epd");
    let bad = scripted_engine(dir.path(), "Bad", "a1a8", "0");
    let sitting = |games: &str, resume: bool, second: &str| {
        let mut command = Command::new(tools());
        command.args(["match", "--engine"]).arg(&engine).args(["--engine", second]);
        command.args(["--depth", "1", "--games", games, "--max-moves", "20", "--openings", openings]);
        command.arg("--pgn").arg(&pgn);
        if resume {
            command.arg("--resume");
        }
        command.output().unwrap()
    };
    let first = sitting("4", false, &bad);
    assert!(first.status.success());
    // The first sitting was killed while writing its fourth game.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let fourth = text.match_indices("[Event ").nth(3).unwrap().0;
    std::fs::write(&pgn, &text[..fourth + 60]).unwrap();

    let second = sitting("6", true, &bad);
    let out = String::from_utf8(second.stdout).unwrap();
    assert!(second.status.success(), "{out}\n{}", String::from_utf8_lossy(&second.stderr));
    assert!(out.contains("Resuming: 3 games already played"), "{out}");
    assert!(out.contains("cut short"), "{out}");
    assert!(out.contains("Game 4/6:") && out.contains("Game 6/6:") && !out.contains("Game 3/6:"), "{out}");
    // Every game is won by the built-in engine (the other one's moves are illegal), and
    // the illegal moves of the first sitting are counted from the PGN.
    assert!(out.contains(": 6 games, W/D/L 6/0/0"), "{out}");
    assert!(out.contains("sh: 0 time forfeits, 6 illegal moves, 0 crashes"), "{out}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event \"tempo-tools match\"]").count(), 6, "{games}");
    for round in 1..=6 {
        assert_eq!(games.matches(&format!("[Round \"1.{round}\"]")).count(), 1, "{games}");
    }

    // Under other names the games are not this match's: refused, and the file is kept.
    let refused = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--engine", &bad, "--name", "tempo", "--name", "someone", "--depth", "1"])
        .args(["--games", "8", "--openings", openings, "--resume", "--pgn"])
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(error.contains("same --engine and --name"), "{error}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), games);
}

/// Every time flag of `match` reads a bare number as milliseconds (except --tc, whose
/// `BASE+INC` is seconds as in cutechess) and takes units; its --help says so, and a value
/// that cannot be meant is refused before anything starts.
#[test]
fn time_flags_take_units_and_a_bare_number_is_milliseconds() {
    let engine = engine();
    let engine = engine.to_str().unwrap();
    let (ok, text, err) = run_match(&[
        "--engine",
        engine,
        "--movetime",
        "20ms",
        "--time-margin",
        "0.5s",
        "--hang-timeout",
        "30s",
        "--games",
        "2",
        "--max-moves",
        "8",
    ]);
    assert!(ok, "{text}\n{err}");
    assert!(text.contains("0 time forfeits, 0 illegal moves, 0 crashes"), "{text}");
    for (flag, value, why) in [
        ("--movetime", "0", "a time must be more than zero"),
        ("--movetime", "1x", "unknown time unit \"x\""),
        ("--time-margin", "1m30", "every part of a time needs a unit"),
        // The hang timeout was in seconds: an old script's `60` is refused, not read as 60 ms.
        ("--hang-timeout", "60", "\"60\" is 60 ms, less than the 1s an engine may need to start"),
        ("--hang-timeout", "25h", "is more than a day"),
    ] {
        let (ok, _, err) = run_match(&["--engine", engine, flag, value]);
        assert!(!ok, "{flag} {value}");
        assert!(err.contains(why), "{flag} {value}: {err}");
    }
    let (_, help, _) = run_match(&["--help"]);
    for flag in ["--movetime", "--time-margin", "--hang-timeout"] {
        let text = help.split(&format!("      {flag} <TIME>")).nth(1).expect(flag);
        let text = text.split("\n      --").next().unwrap();
        assert!(text.contains("A bare number is milliseconds"), "{flag}: {text}");
    }
    assert!(help.contains("with bare numbers in seconds (`10+0.1`"), "{help}");
}

/// Ctrl-C at a terminal (SIGINT to the runner's whole process group): the game in progress
/// ends on the board, since the engines run in process groups of their own; then the games
/// played are reported as a finished match's are, the run says it was interrupted, and
/// `--resume` continues it. No game is scored that did not end.
#[cfg(unix)]
#[test]
fn ctrl_c_lets_the_game_in_progress_end_reports_and_resumes() {
    use std::io::{BufRead, BufReader, Read};
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;

    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/openings/openings.epd");
    let args = |games: usize| {
        let mut args = vec!["--engine".to_owned(), engine.to_str().unwrap().to_owned()];
        for a in ["--depth", "4", "--max-moves", "60", "--openings", openings, "--pgn", pgn.to_str().unwrap()] {
            args.push(a.to_owned());
        }
        args.extend(["--games".to_owned(), games.to_string()]);
        args
    };
    let mut child = Command::new(tools())
        .arg("match")
        .args(args(400))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut out = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let second = line.starts_with("Game 2/");
        out.push(line);
        if second {
            break;
        }
    }
    // Into the third game, so that an engine in the runner's group would die mid-game.
    std::thread::sleep(std::time::Duration::from_millis(250));
    let group = format!("-{}", child.id());
    assert!(Command::new("kill").args(["-s", "INT", "--", &group]).status().unwrap().success());
    out.extend(lines.map(Result::unwrap));
    let status = child.wait().unwrap();
    let (out, err) = (out.join("\n"), err.join().unwrap());
    assert!(!status.success(), "{out}");
    let played = out.lines().filter(|l| l.starts_with("Game ")).count();
    assert!((2..400).contains(&played), "{out}");
    assert!(
        err.contains(&format!("interrupted after {played} of 400 scheduled games: --resume continues it")),
        "{err}"
    );
    assert!(out.contains(&format!(": {played} games, W/D/L")), "{out}");
    // Each engine's line: the interrupt killed neither in the middle of a game.
    let incidents: Vec<&str> = out.lines().filter(|l| l.contains("crashes")).collect();
    assert_eq!(incidents.len(), 2, "{out}");
    assert!(incidents.iter().all(|l| l.contains(": 0 time forfeits, 0 illegal moves, 0 crashes")), "{out}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event \"tempo-tools match\"]").count(), played, "{games}");

    let mut resumed = args(played + 2);
    resumed.push("--resume".to_owned());
    let resumed: Vec<&str> = resumed.iter().map(String::as_str).collect();
    let (ok, out, err) = run_match(&resumed);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains(&format!("Resuming: {played} games already played")), "{out}");
    assert!(out.contains(&format!(": {} games, W/D/L", played + 2)), "{out}");
}
