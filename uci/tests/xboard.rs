//! The xboard side of `ExternalEngine`, against scripted engines (shell scripts that log what
//! they are sent): the handshake and its feature answers, protocol detection, a game's
//! set-up, moves, clocks and thinking lines, and the failures a start reports.

#![cfg(unix)]

use std::path::Path;
use std::time::Duration;
use tempo_core::clock::TimeControl;
use tempo_core::{CastlingMode, Game, Position, Score};
use tempo_engine::Limits;
use tempo_notation::parse_uci_move;
use tempo_uci::{Answer, ClientError, EngineSpec, ExternalEngine, GameSetup, MoveLimit, Protocol, StartError};

const PATIENCE: Duration = Duration::from_secs(10);

/// An xboard engine in `sh` that logs every line it is sent to `dir/input`, announces
/// `features` (after `feature done=0`, so the client must wait for `done=1`) and answers
/// `go` with a thinking line and `reply`.
fn scripted_xboard(dir: &Path, features: &str, reply: &str) -> EngineSpec {
    let script = dir.join("xboard.sh");
    std::fs::write(
        &script,
        format!(
            "while read -r line; do echo \"$line\" >> {log}; case \"$line\" in \
             uci) echo 'Error (unknown command): uci';; \
             'protover 2') echo 'feature done=0'; echo '{features}'; echo 'feature done=1';; \
             ping*) echo \"pong ${{line#ping }}\";; \
             go) echo ' 3   -25   10   1000 e7e5 g1f3'; echo '{reply}';; \
             quit) exit 0;; esac; done\n",
            log = dir.join("input").display()
        ),
    )
    .unwrap();
    EngineSpec { command: "sh".to_owned(), args: vec![script.display().to_string()], options: Vec::new() }
}

fn input(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("input")).unwrap().lines().map(str::to_owned).collect()
}

/// The game after 1. e4 with White's clock charged `spent`.
fn after_e4(control: &TimeControl, spent: Duration) -> Game {
    let start = Position::startpos();
    let mut game = Game::with_time_control(start, control.clone());
    game.play_timed(parse_uci_move(&start, "e2e4").unwrap(), spent).unwrap();
    game
}

#[test]
fn an_xboard_engine_is_detected_set_up_and_asked_for_moves() {
    let dir = tempfile::tempdir().unwrap();
    let features = r#"feature myname="Scripted 1.0" ping=1 usermove=1 setboard=1 analyze=1 sigint=0 option="Style -combo a /// b""#;
    let mut spec = scripted_xboard(dir.path(), features, "move e7e5");
    spec.options.push(("Style".to_owned(), "b".to_owned()));
    let control: TimeControl = "60+1".parse().unwrap();
    let limit = MoveLimit::Clock(control.clone());
    let start = Position::startpos();
    let mut engine = ExternalEngine::start(&spec, None, &GameSetup { start: &start, limit: &limit }, PATIENCE).unwrap();
    assert_eq!(engine.protocol(), Protocol::Xboard);
    assert_eq!(engine.name(), Some("Scripted 1.0"));

    let game = after_e4(&control, Duration::from_millis(2500));
    let mut scores = Vec::new();
    let answer = engine.think(&game, &Limits::from_clock(game.clock().unwrap()), PATIENCE, |e| scores.push(e.score));
    let e5 = parse_uci_move(game.position(), "e7e5").unwrap();
    assert_eq!(answer.unwrap(), Answer::Move(e5));
    assert_eq!(scores, [Score::Cp(-25)]);
    engine.quit();

    let sent = input(dir.path());
    // The detection's `uci` went to a first process, which was then replaced.
    assert_eq!(sent[0], "uci");
    let conversation = &sent[1..];
    let expected = [
        "xboard",
        "protover 2",
        "accepted done",
        "accepted myname",
        "accepted ping",
        "accepted usermove",
        "accepted setboard",
        "rejected analyze",
        "accepted sigint",
        "accepted option",
        "accepted done",
        "option Style=b",
        "new",
        "easy",
        "post",
        "level 0 1 1",
        "force",
        "ping 1",
        "usermove e2e4",
        // White spent 2.5 s of 60 and gained 1; Black has 60 (centiseconds).
        "time 6000",
        "otim 5850",
        "go",
        "force",
        "quit",
    ];
    // Empty lines nudge engines that write only when input comes; they are no command.
    let commands: Vec<&str> = conversation.iter().map(String::as_str).filter(|l| !l.is_empty()).collect();
    assert_eq!(commands, expected);
}

#[test]
fn san_fens_and_the_old_move_form() {
    let dir = tempfile::tempdir().unwrap();
    let spec = scripted_xboard(dir.path(), "feature san=1 setboard=1 ping=1", "2. ... Nf6");
    let start =
        Position::from_fen("r1bqkbnr/pppppppp/2n5/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 2 2", CastlingMode::Standard)
            .unwrap();
    let limit = MoveLimit::Depth(3);
    let mut engine =
        ExternalEngine::start(&spec, Some(Protocol::Xboard), &GameSetup { start: &start, limit: &limit }, PATIENCE)
            .unwrap();
    let mut game = Game::new(start);
    game.play(parse_uci_move(&start, "c3b1").unwrap()).unwrap();
    let answer = engine.think(&game, &Limits::depth(3), PATIENCE, |_| {}).unwrap();
    // The old form of a move, in SAN.
    assert_eq!(answer, Answer::Move(parse_uci_move(game.position(), "g8f6").unwrap()));
    engine.quit();
    let sent = input(dir.path());
    assert!(sent.contains(&"sd 3".to_owned()), "{sent:?}");
    assert!(sent.contains(&format!("setboard {}", start.fen())), "{sent:?}");
    assert!(sent.contains(&"Nb1".to_owned()), "SAN without usermove: {sent:?}");
    assert!(!sent.iter().any(|l| l.starts_with("time ")), "no clock, no time: {sent:?}");
}

#[test]
fn resignations_claims_and_refusals_are_answers() {
    let control: TimeControl = "10+0".parse().unwrap();
    let limit = MoveLimit::Clock(control.clone());
    let start = Position::startpos();
    for (reply, expected) in [
        ("resign", Answer::Resign),
        ("1-0 {White mates}", Answer::Claim("1-0 {White mates}".to_owned())),
        ("Illegal move: e2e4", Answer::RefusedMove("Illegal move: e2e4".to_owned())),
        ("move e2e5", Answer::IllegalMove("e2e5".to_owned())),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let spec = scripted_xboard(dir.path(), "feature ping=1", reply);
        let mut engine =
            ExternalEngine::start(&spec, Some(Protocol::Xboard), &GameSetup { start: &start, limit: &limit }, PATIENCE)
                .unwrap();
        let game = after_e4(&control, Duration::ZERO);
        let answer = engine.think(&game, &Limits::from_clock(game.clock().unwrap()), PATIENCE, |_| {}).unwrap();
        assert_eq!(answer, expected);
        engine.quit();
        // Without `usermove=1`, moves go bare.
        assert!(input(dir.path()).contains(&"e2e4".to_owned()));
    }
}

#[test]
fn what_an_xboard_engine_cannot_do_fails_its_start_with_the_step() {
    let dir = tempfile::tempdir().unwrap();
    let spec = scripted_xboard(dir.path(), "feature ping=1 setboard=0", "move e7e5");
    let startpos = Position::startpos();
    let fen = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", CastlingMode::Standard).unwrap();
    let chess960 = Position::from_fen(&startpos.fen(), CastlingMode::Chess960).unwrap();
    let depth = MoveLimit::Depth(1);
    let cases = [
        (
            &fen,
            depth.clone(),
            "the engine cannot start a game from 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 (it does not offer setboard=1)",
        ),
        (&chess960, depth.clone(), "the engine cannot play Chess960 (no fischerandom among its variants)"),
        (&startpos, MoveLimit::Nodes(100), "the engine cannot play to a node limit"),
    ];
    for (start, limit, expected) in cases {
        let Err(err) =
            ExternalEngine::start(&spec, Some(Protocol::Xboard), &GameSetup { start, limit: &limit }, PATIENCE)
        else {
            panic!("started: {expected}")
        };
        assert!(matches!(err, StartError::Setup(ClientError::Unsupported(_))), "{err:?}");
        assert!(err.to_string().starts_with(expected), "{err}");
        assert_eq!(err.step(), "setup");
    }
}
