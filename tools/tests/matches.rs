//! `tempo-tools match` against the built-in engine, at a fixed depth so the games are
//! quick and need no wall-clock assumptions.

use std::path::PathBuf;
use std::process::Command;

fn tools() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tempo-tools"))
}

/// The built-in engine beside tempo-tools; `cargo test --workspace` builds it, a lone
/// `cargo test -p tempo-tools` may not, so build it then.
fn engine() -> PathBuf {
    let path = tools().with_file_name(format!("tempo-uci{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let status = Command::new(env!("CARGO")).args(["build", "-p", "tempo-uci"]).status().unwrap();
        assert!(status.success());
    }
    assert!(path.exists(), "{} missing", path.display());
    path
}

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
    assert!(text.contains("Elo difference:"), "{text}");
    assert!(text.contains("0 time forfeits, 0 illegal moves, 0 crashes"), "{text}");
    assert!(text.contains("SPRT [0, 10]"), "{text}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event \"tempo-tools match\"]").count(), 2, "{games}");
    // Both games start from the first opening, colours swapped.
    assert_eq!(
        games.matches("[FEN \"rn1q1rk1/pbp2ppp/1p1ppn2/6B1/2PP4/P1Q2P2/1P2P1PP/R3KBNR w KQ - 0 9\"]").count(),
        2
    );
}

#[test]
fn an_engine_that_cannot_start_loses_and_is_counted() {
    let engine = engine();
    let out = Command::new(tools())
        .args(["match", "--engine"])
        .arg(&engine)
        .args(["--engine", "/nonexistent/engine", "--depth", "1", "--games", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("W/D/L 2/0/0"), "{text}");
    assert!(text.contains("engine: 0 time forfeits, 0 illegal moves, 2 crashes"), "{text}");
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
