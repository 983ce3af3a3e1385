//! An xboard client (the Chess Engine Communication Protocol, version 2): the protocol of
//! the classic engines (Fairy-Max, Phalanx, GNU Chess, HoiChess), driven behind the same
//! [`ExternalEngine`](crate::ExternalEngine) interface as UCI engines.
//!
//! The conversation: `xboard` and `protover 2`, answered by `feature` lines, each of which
//! is accepted or rejected, until `feature done=1` (an engine that sends `done=0` first is
//! waited for as long as the caller's patience). A game: `new`, `variant fischerandom` for
//! Chess960, `easy` (no pondering), `post` (thinking lines, read for the score), the time
//! control (`level`, `st` or `sd`), `force`, `setboard FEN` unless the game starts from the
//! standard position, then `ping`/`pong`. The engine is kept in force mode: each move it is
//! asked for, the moves since its last one are sent (`usermove` when it asks for that, SAN
//! when it asks for that), then `time` and `otim` in centiseconds, `go`, and after its
//! `move` (or the old `N. ... move` form) `force` again, so that it never thinks on its own.

use crate::client::ClientError;
use crate::engine::{Answer, Evaluation, GameSetup, MoveLimit};
use crate::process::EngineProcess;
use crate::EngineSpec;
use std::time::{Duration, Instant};
use tempo_core::clock::TimeControl;
use tempo_core::{CastlingMode, Color, Game, Move, Position, Score};
use tempo_engine::Limits;
use tempo_notation::{parse_san, parse_uci_move, san, uci_move};

/// How long an engine that has not said `feature done=0` is given to finish its features,
/// at most (the protocol suggests two seconds; a loaded machine gets more).
pub(crate) const FEATURE_WAIT: Duration = Duration::from_secs(5);

/// How long the client waits in silence, for features or a `pong`, before it sends an empty
/// line: GNU Chess 6 writes what a command made it say only when the next line comes in.
const NUDGE_AFTER: Duration = Duration::from_millis(500);

/// Thinking-output scores at or beyond this are mates: `100000 + N` is mate in N moves.
const MATE_SCORE: i32 = 100_000;

/// One line from an xboard engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum XboardMessage {
    /// `feature NAME=VALUE ...`, in order, with quotes removed from the values.
    Feature(Vec<(String, String)>),
    /// `pong N`.
    Pong(u32),
    /// `move X`, or the old form `N. ... X`.
    Move(String),
    /// `resign`.
    Resign,
    /// `1-0 {...}`, `0-1 {...}` or `1/2-1/2 {...}`: the whole line.
    Result(String),
    /// `Illegal move: X` or `Illegal move (REASON): X`: the engine refuses a move it was
    /// sent. The whole line.
    IllegalMove(String),
    /// A thinking line (`post`): `DEPTH SCORE TIME NODES PV...`, the score in centipawns
    /// from the engine's point of view.
    Thinking { depth: u32, score: Score },
    /// Anything else (`tellics`, `Error (...)`, comments starting with `#`).
    Other(String),
}

/// Whether `line` is an xboard engine's answer to a command it does not know, as these
/// engines answer UCI's `uci`: `Error (unknown command): uci` (Fairy-Max), `Illegal move:
/// uci` (Phalanx), `Invalid move: uci` (GNU Chess), or `feature` lines.
pub(crate) fn is_xboard_reply(line: &str) -> bool {
    let line = line.trim_start();
    ["Error", "Illegal move", "Invalid move", "feature ", "tellusererror", "telluser "]
        .iter()
        .any(|prefix| line.starts_with(prefix))
}

/// Parses one line an xboard engine wrote.
pub(crate) fn parse_line(line: &str) -> XboardMessage {
    let trimmed = line.trim();
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    match words.as_slice() {
        ["feature", ..] => XboardMessage::Feature(parse_features(trimmed["feature".len()..].trim_start())),
        ["pong", n, ..] if n.parse::<u32>().is_ok() => XboardMessage::Pong(n.parse().unwrap_or_default()),
        ["move", m, ..] => XboardMessage::Move((*m).to_owned()),
        [number, "...", m, ..] if number.trim_end_matches('.').parse::<u32>().is_ok() => {
            XboardMessage::Move((*m).to_owned())
        }
        ["resign", ..] => XboardMessage::Resign,
        [first, ..] if ["1-0", "0-1", "1/2-1/2"].contains(first) => XboardMessage::Result(trimmed.to_owned()),
        _ if trimmed.starts_with("Illegal move") => XboardMessage::IllegalMove(trimmed.to_owned()),
        [depth, score, time, nodes, ..] => match (
            depth.trim_end_matches(|c: char| !c.is_ascii_digit()).parse::<u32>(),
            score.parse::<i32>(),
            time.parse::<i64>(),
            nodes.parse::<u64>(),
        ) {
            (Ok(depth), Ok(score), Ok(_), Ok(_)) => XboardMessage::Thinking { depth, score: thinking_score(score) },
            _ => XboardMessage::Other(line.to_owned()),
        },
        _ => XboardMessage::Other(line.to_owned()),
    }
}

/// A thinking line's score: centipawns, or `±(100000 + N)` for mate in N moves.
fn thinking_score(value: i32) -> Score {
    if value >= MATE_SCORE {
        Score::Mate(value - MATE_SCORE)
    } else if value <= -MATE_SCORE {
        Score::Mate(-(value.saturating_neg() - MATE_SCORE))
    } else {
        Score::Cp(value)
    }
}

/// The `NAME=VALUE` pairs of a feature line, values unquoted (`myname="Fairy-Max 5.0b"`).
fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut rest = text.trim_start();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_owned();
        let after = &rest[eq + 1..];
        let (value, next) = match after.strip_prefix('"') {
            Some(quoted) => match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            },
            None => match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            },
        };
        if name.is_empty() || name.contains(char::is_whitespace) {
            break;
        }
        pairs.push((name, value.to_owned()));
        rest = next.trim_start();
    }
    pairs
}

/// What the engine announced with `feature`, with the protocol's defaults for the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Features {
    pub ping: bool,
    pub setboard: bool,
    pub san: bool,
    pub usermove: bool,
    pub time: bool,
    pub memory: bool,
    pub smp: bool,
    pub myname: Option<String>,
    /// `variants`, or `None` for "normal" only.
    pub variants: Option<Vec<String>>,
    /// The names of the options announced with `feature option="NAME -TYPE ..."`.
    pub options: Vec<String>,
    /// `done=1` was received.
    pub done: bool,
    /// Some feature line was received (a version 2 engine).
    pub any: bool,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            ping: false,
            setboard: false,
            san: false,
            usermove: false,
            time: true,
            memory: false,
            smp: false,
            myname: None,
            variants: None,
            options: Vec::new(),
            done: false,
            any: false,
        }
    }
}

/// The option kinds of `feature option=`, which end its name.
const OPTION_KINDS: [&str; 8] = ["-check", "-spin", "-combo", "-string", "-file", "-path", "-button", "-slider"];

impl Features {
    /// Records one announced feature; `true` if this client honours it (`accepted`), `false`
    /// if not (`rejected`, and the engine must do without it).
    fn record(&mut self, name: &str, value: &str) -> bool {
        self.any = true;
        let on = value == "1";
        match name {
            "ping" => self.ping = on,
            "setboard" => self.setboard = on,
            "san" => self.san = on,
            "usermove" => self.usermove = on,
            "time" => self.time = on,
            "memory" => self.memory = on,
            "smp" => self.smp = on,
            "myname" => self.myname = Some(value.to_owned()),
            "variants" => self.variants = Some(value.split(',').map(|v| v.trim().to_owned()).collect()),
            "option" => {
                let end = OPTION_KINDS.iter().filter_map(|kind| value.find(&format!(" {kind}"))).min();
                self.options.push(value[..end.unwrap_or(value.len())].trim().to_owned());
            }
            "done" => self.done = on,
            // This client never sends signals, and tells the engine so by accepting only
            // "no signals".
            "sigint" | "sigterm" => return !on,
            // Harmless to accept: the client sends nothing these would change.
            "colors" | "draw" | "reuse" | "debug" | "name" | "pause" | "exclude" | "nps" => {}
            _ => return false,
        }
        true
    }

    fn plays(&self, variant: &str) -> bool {
        self.variants.as_ref().map_or(variant == "normal", |vs| vs.iter().any(|v| v == variant))
    }
}

/// The commands that set the time control of `limit` (`level`, `st` or `sd`).
///
/// # Errors
/// [`ClientError::Unsupported`] for a limit xboard cannot express: a node limit, a control
/// of several periods, a sandclock.
pub(crate) fn time_control_commands(limit: &MoveLimit) -> Result<Vec<String>, ClientError> {
    let unsupported = |what: &str| Err(ClientError::Unsupported(format!("{what} over xboard")));
    match limit {
        MoveLimit::Depth(depth) => Ok(vec![format!("sd {depth}")]),
        MoveLimit::MoveTime(time) | MoveLimit::Clock(TimeControl::MoveTime(time)) => {
            // `st` takes whole seconds: rounded up, so the engine never aims below the limit
            // it is given; the runner waits the move time plus its patience anyway.
            Ok(vec![format!("st {}", time.as_millis().div_ceil(1000).max(1))])
        }
        MoveLimit::Clock(TimeControl::Stages(stages)) => match stages.as_slice() {
            [stage] => Ok(vec![format!(
                "level {} {} {}",
                stage.moves.unwrap_or(0),
                level_base(stage.time),
                seconds(stage.increment)
            )]),
            _ => unsupported("play a time control of several periods (`level` takes one)"),
        },
        MoveLimit::Clock(_) => unsupported("play this time control"),
        MoveLimit::Nodes(_) => Err(ClientError::Unsupported(
            "play to a node limit over xboard (use a depth, a move time or a clock)".to_owned(),
        )),
    }
}

/// `level`'s base time: minutes, or `minutes:seconds` (whole seconds, rounded down).
fn level_base(time: Duration) -> String {
    let secs = time.as_secs();
    if secs % 60 == 0 {
        (secs / 60).to_string()
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// Seconds as `level` writes its increment: a whole number when it is one (`2`), else with
/// the decimals it needs (`0.05`).
fn seconds(time: Duration) -> String {
    if time.subsec_nanos() == 0 {
        time.as_secs().to_string()
    } else {
        let text = format!("{:.3}", time.as_secs_f64());
        text.trim_end_matches('0').to_owned()
    }
}

/// Centiseconds, as `time` and `otim` count.
fn centiseconds(time: Duration) -> u128 {
    time.as_millis() / 10
}

/// A running xboard engine. Dropping it kills the process if it still runs and waits for it.
pub(crate) struct XboardClient {
    process: EngineProcess,
    pub(crate) features: Features,
    /// The game's start position and how many of its moves the engine has on its board.
    start: Position,
    sent: usize,
    pings: u32,
}

impl XboardClient {
    /// Starts the program of `spec` and makes the handshake (`xboard`, `protover 2`, the
    /// features).
    ///
    /// # Errors
    /// [`ClientError::Spawn`], or the handshake's errors: [`ClientError::Closed`], or
    /// [`ClientError::Timeout`] when no feature came.
    pub(crate) fn spawn(spec: &EngineSpec) -> Result<XboardClient, ClientError> {
        let process = EngineProcess::spawn(&spec.command, &spec.args)?;
        Ok(XboardClient { process, features: Features::default(), start: Position::startpos(), sent: 0, pings: 0 })
    }

    fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.process.send(line)
    }

    /// The next message, waiting until `deadline`; `Ok(None)` once it has passed.
    fn recv_until(&mut self, deadline: Instant) -> Result<Option<XboardMessage>, ClientError> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(None);
        }
        Ok(self.process.recv(left)?.map(|line| parse_line(&line)))
    }

    /// [`XboardClient::recv_until`], sending an empty line after each [`NUDGE_AFTER`] of
    /// silence (never while the engine thinks: it could take any input as "move now").
    fn recv_nudging(&mut self, deadline: Instant) -> Result<Option<XboardMessage>, ClientError> {
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            if let Some(line) = self.process.recv((deadline - now).min(NUDGE_AFTER))? {
                return Ok(Some(parse_line(&line)));
            }
            self.send("")?;
        }
    }

    /// `xboard`, `protover 2`, and the features until `done=1`: at most [`FEATURE_WAIT`]
    /// (or `patience` if shorter), or `patience` once the engine said `done=0`. Without any
    /// feature line the engine is no version 2 engine, and this fails.
    ///
    /// # Errors
    /// Write errors, [`ClientError::Closed`], or [`ClientError::Timeout`] when no feature
    /// line came in time.
    pub(crate) fn handshake(&mut self, patience: Duration) -> Result<(), ClientError> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let began = Instant::now();
        let mut deadline = began + FEATURE_WAIT.min(patience);
        loop {
            let Some(message) = self.recv_nudging(deadline)? else {
                if self.features.any {
                    // A version 2 engine that never said `done=1`: the protocol says to go
                    // on once the wait is over.
                    return Ok(());
                }
                let waited = deadline.saturating_duration_since(began);
                return Err(ClientError::Timeout { expected: "feature lines after protover 2", timeout: waited });
            };
            let XboardMessage::Feature(pairs) = message else { continue };
            for (name, value) in pairs {
                if name == "done" && value == "0" {
                    self.features.any = true;
                    deadline = began + patience;
                    self.send("accepted done")?;
                    continue;
                }
                let verdict = if self.features.record(&name, &value) { "accepted" } else { "rejected" };
                self.send(&format!("{verdict} {name}"))?;
            }
            if self.features.done {
                return Ok(());
            }
        }
    }

    /// The engine's name (`feature myname`).
    pub(crate) fn name(&self) -> Option<&str> {
        self.features.myname.as_deref()
    }

    /// Sets each option: `option NAME=VALUE` for one the engine announced, `memory` for
    /// `Hash` and `cores` for `Threads` when the engine asked for those.
    ///
    /// # Errors
    /// Write errors, or [`ClientError::Unsupported`] for an option the engine does not offer.
    pub(crate) fn set_options(&mut self, options: &[(String, String)]) -> Result<(), ClientError> {
        for (name, value) in options {
            let line = if self.features.options.iter().any(|o| o == name) {
                format!("option {name}={value}")
            } else if name.eq_ignore_ascii_case("Hash") && self.features.memory {
                format!("memory {value}")
            } else if name.eq_ignore_ascii_case("Threads") && self.features.smp {
                format!("cores {value}")
            } else {
                let offered =
                    if self.features.options.is_empty() { "none".to_owned() } else { self.features.options.join(", ") };
                return Err(ClientError::Unsupported(format!("set option {name:?} (it offers: {offered})")));
            };
            self.send(&line)?;
        }
        Ok(())
    }

    /// Sets up a new game from `setup`'s start under its limit, leaving the engine in force
    /// mode.
    ///
    /// # Errors
    /// Write errors, or [`ClientError::Unsupported`]: a Chess960 game for an engine without
    /// the `fischerandom` variant, a game from another position than the standard one for an
    /// engine without `setboard`, a limit xboard cannot express.
    pub(crate) fn new_game(&mut self, setup: &GameSetup<'_>) -> Result<(), ClientError> {
        let chess960 = setup.start.castling_mode() == CastlingMode::Chess960;
        if chess960 && !self.features.plays("fischerandom") {
            return Err(ClientError::Unsupported("play Chess960 (no fischerandom among its variants)".to_owned()));
        }
        let standard = *setup.start == Position::startpos() && !chess960;
        if !standard && !self.features.setboard {
            return Err(ClientError::Unsupported(format!(
                "start a game from {} (it does not offer setboard=1)",
                setup.start.fen()
            )));
        }
        let level = time_control_commands(setup.limit)?;
        self.send("new")?;
        if chess960 {
            self.send("variant fischerandom")?;
        }
        self.send("easy")?;
        self.send("post")?;
        for line in &level {
            self.send(line)?;
        }
        self.send("force")?;
        if !standard {
            self.send(&format!("setboard {}", setup.start.fen()))?;
        }
        self.start = *setup.start;
        self.sent = 0;
        Ok(())
    }

    /// `ping N` … `pong N`, when the engine offers `ping`; otherwise nothing to wait for.
    ///
    /// # Errors
    /// Write errors, [`ClientError::Closed`], or [`ClientError::Timeout`].
    pub(crate) fn ready(&mut self, patience: Duration) -> Result<(), ClientError> {
        if !self.features.ping {
            return Ok(());
        }
        self.pings += 1;
        let n = self.pings;
        self.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + patience;
        loop {
            match self.recv_nudging(deadline)? {
                Some(XboardMessage::Pong(m)) if m == n => return Ok(()),
                Some(_) => {}
                None => return Err(ClientError::Timeout { expected: "pong", timeout: patience }),
            }
        }
    }

    /// The text of `m` (played in `pos`) as this engine reads it: SAN if it asked for SAN,
    /// else coordinates, with Chess960 castling as `O-O`/`O-O-O`.
    fn move_text(&self, pos: &Position, m: Move) -> String {
        let text = if self.features.san || (m.is_castle() && pos.castling_mode() == CastlingMode::Chess960) {
            san(pos, m).trim_end_matches(['+', '#']).to_owned()
        } else {
            uci_move(pos, m)
        };
        if self.features.usermove {
            format!("usermove {text}")
        } else {
            text
        }
    }

    /// Asks for a move in `game` (whose start is the one of [`XboardClient::new_game`]):
    /// sends the moves the engine has not seen, the clocks of `limits` if any, `go`, and
    /// waits at most `timeout` for the answer; `on_evaluation` gets each thinking line's score
    /// and depth.
    ///
    /// # Errors
    /// Write errors, [`ClientError::Closed`] or [`ClientError::Timeout`].
    pub(crate) fn think(
        &mut self,
        game: &Game,
        limits: &Limits,
        timeout: Duration,
        mut on_evaluation: impl FnMut(Evaluation),
    ) -> Result<Answer, ClientError> {
        // What the engine said after its last move (a claim about that move, thinking) is
        // no answer to this one: read it first. An engine that is gone shows when written to.
        while let Ok(Some(_)) = self.process.recv(Duration::ZERO) {}
        let mut pos = self.start;
        for (i, &m) in game.moves().iter().enumerate() {
            if i >= self.sent {
                let text = self.move_text(&pos, m);
                self.send(&text)?;
            }
            pos.play_unchecked(m);
        }
        self.sent = game.moves().len();
        let side = pos.turn();
        let (own, other) = match side {
            Color::White => (limits.wtime, limits.btime),
            Color::Black => (limits.btime, limits.wtime),
        };
        if let (true, Some(own), Some(other)) = (self.features.time, own, other) {
            self.send(&format!("time {}", centiseconds(own)))?;
            self.send(&format!("otim {}", centiseconds(other)))?;
        }
        self.send("go")?;
        let deadline = Instant::now() + timeout;
        let answer = loop {
            let Some(message) = self.recv_until(deadline)? else {
                return Err(ClientError::Timeout { expected: "move", timeout });
            };
            match message {
                XboardMessage::Thinking { score, depth } => on_evaluation(Evaluation { score, depth: Some(depth) }),
                XboardMessage::Move(text) => break read_move(&pos, &text),
                XboardMessage::Resign => break Answer::Resign,
                XboardMessage::Result(line) => break Answer::Claim(line),
                XboardMessage::IllegalMove(line) => break Answer::RefusedMove(line),
                XboardMessage::Feature(_) | XboardMessage::Pong(_) | XboardMessage::Other(_) => {}
            }
        };
        // Back to force mode, so that the engine does not think on the opponent's time; the
        // move it made is on its board. An engine that has exited (after resigning, say)
        // cannot be told, and need not be: the answer stands.
        let _ = self.send("force");
        if matches!(answer, Answer::Move(_)) {
            self.sent += 1;
        }
        Ok(answer)
    }

    /// Sends `quit` and waits briefly for the process to exit, killing it otherwise.
    pub(crate) fn quit(self) {
        self.process.quit("quit");
    }
}

/// The engine's move `text` in `pos`: coordinates (`e2e4`, `e7e8q`, `e1g1`) or SAN (`Nf3`,
/// `O-O`).
fn read_move(pos: &Position, text: &str) -> Answer {
    let parsed = parse_uci_move(pos, text).ok().or_else(|| parse_san(pos, text).ok());
    match parsed.filter(|m| !m.is_null()) {
        Some(m) => Answer::Move(m),
        None => Answer::IllegalMove(text.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::clock::Stage;

    #[test]
    fn reads_features_with_quoted_values() {
        let line = r#"feature myname="Fairy-Max 5.0b" setboard=1 option="Resign Threshold -spin 800 200 1200" done=1"#;
        let XboardMessage::Feature(pairs) = parse_line(line) else { panic!("not a feature line") };
        let names: Vec<&str> = pairs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["myname", "setboard", "option", "done"]);
        assert_eq!(pairs[0].1, "Fairy-Max 5.0b");
        let mut features = Features::default();
        for (name, value) in &pairs {
            assert!(features.record(name, value), "{name}");
        }
        assert_eq!(features.options, ["Resign Threshold"]);
        assert!(features.setboard && features.done && !features.ping);
        assert!(!features.record("analyze", "1"), "unknown features are rejected");
        assert!(!features.record("sigint", "1") && features.record("sigint", "0"));
    }

    #[test]
    fn reads_moves_claims_and_thinking() {
        assert_eq!(parse_line("move e2e4"), XboardMessage::Move("e2e4".into()));
        assert_eq!(parse_line("12. ... Nf3"), XboardMessage::Move("Nf3".into()));
        // GNU Chess echoes the moves it receives: not its own.
        assert_eq!(parse_line("1. e2e4"), XboardMessage::Other("1. e2e4".into()));
        assert_eq!(parse_line("resign"), XboardMessage::Resign);
        assert_eq!(parse_line("1-0 {White mates}"), XboardMessage::Result("1-0 {White mates}".into()));
        assert_eq!(parse_line("Illegal move: e2e5"), XboardMessage::IllegalMove("Illegal move: e2e5".into()));
        assert_eq!(parse_line("pong 3"), XboardMessage::Pong(3));
        assert_eq!(
            parse_line(" 9   -156   1084   48000 Nf3 Nc6"),
            XboardMessage::Thinking { depth: 9, score: Score::Cp(-156) }
        );
        assert_eq!(parse_line("5 100003 10 400 Qh5"), XboardMessage::Thinking { depth: 5, score: Score::Mate(3) });
        assert_eq!(parse_line("5 -100002 10 400"), XboardMessage::Thinking { depth: 5, score: Score::Mate(-2) });
        assert!(matches!(parse_line("tellics say hello"), XboardMessage::Other(_)));
        assert!(is_xboard_reply("Error (unknown command): uci"));
        assert!(is_xboard_reply("Illegal move: uci") && is_xboard_reply("Invalid move: uci"));
        assert!(!is_xboard_reply("Stockfish 16 by the Stockfish developers"));
    }

    #[test]
    fn time_controls_become_level_st_and_sd() {
        let fischer = |base: u64, inc_ms: u64| {
            MoveLimit::Clock(TimeControl::fischer(Duration::from_secs(base), Duration::from_millis(inc_ms)))
        };
        assert_eq!(time_control_commands(&fischer(5, 50)).unwrap(), ["level 0 0:05 0.05"]);
        assert_eq!(time_control_commands(&fischer(120, 2000)).unwrap(), ["level 0 2 2"]);
        assert_eq!(time_control_commands(&fischer(90, 0)).unwrap(), ["level 0 1:30 0"]);
        let periods = TimeControl::Stages(vec![Stage {
            moves: Some(40),
            time: Duration::from_secs(300),
            increment: Duration::ZERO,
        }]);
        assert_eq!(time_control_commands(&MoveLimit::Clock(periods)).unwrap(), ["level 40 5 0"]);
        assert_eq!(time_control_commands(&MoveLimit::MoveTime(Duration::from_millis(1500))).unwrap(), ["st 2"]);
        assert_eq!(time_control_commands(&MoveLimit::MoveTime(Duration::from_millis(100))).unwrap(), ["st 1"]);
        assert_eq!(time_control_commands(&MoveLimit::Depth(7)).unwrap(), ["sd 7"]);
        let Err(err) = time_control_commands(&MoveLimit::Nodes(1000)) else { panic!("nodes over xboard") };
        assert!(err.to_string().contains("node limit"), "{err}");
        let two: TimeControl = "40/60+0.5:30".parse().unwrap();
        assert!(time_control_commands(&MoveLimit::Clock(two)).is_err());
    }

    #[test]
    fn engine_moves_in_coordinates_or_san() {
        let pos = Position::startpos();
        let e4 = parse_uci_move(&pos, "e2e4").unwrap();
        assert_eq!(read_move(&pos, "e2e4"), Answer::Move(e4));
        assert_eq!(read_move(&pos, "e4"), Answer::Move(e4));
        assert_eq!(read_move(&pos, "e2e5"), Answer::IllegalMove("e2e5".into()));
        assert_eq!(read_move(&pos, "0000"), Answer::IllegalMove("0000".into()));
    }
}
