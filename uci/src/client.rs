//! A UCI client: spawns an external engine (Stockfish or any other UCI program), sends it
//! commands and parses what it answers. Used by `cli` and `tools` to play and analyse.

use crate::process::EngineProcess;
use std::time::{Duration, Instant};
use tempo_core::{CastlingMode, Game, Move, Position, Score};
use tempo_notation::uci_move;

/// An error talking to an external engine.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The program could not be started.
    #[error("cannot start engine {program:?}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// Writing to the engine failed (it probably exited).
    #[error("cannot write to the engine: {0}")]
    Write(std::io::Error),
    /// The engine closed its output.
    #[error("the engine closed its output")]
    Closed,
    /// The engine did not answer in time.
    #[error("the engine did not send {expected} within {timeout:?}")]
    Timeout {
        /// What was awaited.
        expected: &'static str,
        /// How long we waited.
        timeout: Duration,
    },
    /// The engine answered a command with this line, which refuses it (`Error (unknown
    /// command): uci`).
    #[error("the engine answered {0:?}")]
    Refused(String),
    /// The engine cannot do what the game needs (an xboard engine without `setboard` for a
    /// game from a FEN, an option it does not offer, a limit its protocol cannot express).
    #[error("the engine cannot {0}")]
    Unsupported(String),
    /// Protocol detection failed: the engine answered neither UCI's handshake nor xboard's.
    #[error("it speaks neither UCI ({uci}) nor xboard ({xboard})")]
    UnknownProtocol {
        /// What went wrong with `uci`.
        uci: Box<ClientError>,
        /// What went wrong with `xboard` and `protover 2`.
        xboard: Box<ClientError>,
    },
}

/// How to start an external engine: the program, its arguments, and the options to set
/// before the first game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program to run (a path, or a name looked up in `PATH`).
    pub command: String,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// `setoption` name and value pairs, sent in this order after the handshake.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// The engine a command line starts: the first word is the program, the others its
    /// arguments (split on whitespace, without shell quoting, as users type engines on the
    /// command line of `tempo play` and `tempo-tools match`). `None` if the line is blank.
    pub fn from_command_line(line: &str) -> Option<EngineSpec> {
        let mut words = line.split_whitespace().map(str::to_owned);
        let command = words.next()?;
        Some(EngineSpec { command, args: words.collect(), options: Vec::new() })
    }
}

/// Which step of starting an engine ([`UciClient::start`]) failed. Each variant shows as the
/// [`ClientError`] it holds, so callers that do not care about the step lose nothing.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The program could not be started.
    #[error(transparent)]
    Spawn(ClientError),
    /// `uci` was not answered by `uciok`: the program does not speak UCI.
    #[error(transparent)]
    Handshake(ClientError),
    /// Setting an option or starting the new game failed.
    #[error(transparent)]
    Setup(ClientError),
    /// `isready` was not answered by `readyok`.
    #[error(transparent)]
    Ready(ClientError),
}

impl StartError {
    /// The step that failed, in words: `spawn`, `handshake`, `setup` or `ready`.
    pub fn step(&self) -> &'static str {
        match self {
            StartError::Spawn(_) => "spawn",
            StartError::Handshake(_) => "handshake",
            StartError::Setup(_) => "setup",
            StartError::Ready(_) => "ready",
        }
    }

    /// The error of the step that failed.
    pub fn into_client_error(self) -> ClientError {
        match self {
            StartError::Spawn(e) | StartError::Handshake(e) | StartError::Setup(e) | StartError::Ready(e) => e,
        }
    }
}

/// The fields of an `info` line (those absent are `None` or empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoMessage {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv`.
    pub multipv: Option<u32>,
    /// `score cp|mate`, from the side to move's point of view.
    pub score: Option<Score>,
    /// `lowerbound`.
    pub lowerbound: bool,
    /// `upperbound`.
    pub upperbound: bool,
    /// `wdl W D L`.
    pub wdl: Option<(u32, u32, u32)>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `hashfull`.
    pub hashfull: Option<u32>,
    /// `time` in milliseconds.
    pub time_ms: Option<u64>,
    /// `currmove`.
    pub currmove: Option<String>,
    /// `pv`, in UCI notation.
    pub pv: Vec<String>,
    /// `string ...` (the rest of the line).
    pub string: Option<String>,
}

/// One line from an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciMessage {
    /// `id name ...`
    IdName(String),
    /// `id author ...`
    IdAuthor(String),
    /// `uciok`
    UciOk,
    /// `readyok`
    ReadyOk,
    /// `option ...` (kept as the text after `option `).
    Option(String),
    /// `info ...`
    Info(InfoMessage),
    /// `bestmove X [ponder Y]`
    BestMove {
        /// The move, in UCI notation (`0000` or `(none)` when there is none).
        best: String,
        /// The ponder move.
        ponder: Option<String>,
    },
    /// Anything else.
    Other(String),
}

/// Parses one line an engine wrote.
pub fn parse_message(line: &str) -> UciMessage {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.first().copied() {
        Some("id") if words.get(1) == Some(&"name") => UciMessage::IdName(words[2..].join(" ")),
        Some("id") if words.get(1) == Some(&"author") => UciMessage::IdAuthor(words[2..].join(" ")),
        Some("uciok") => UciMessage::UciOk,
        Some("readyok") => UciMessage::ReadyOk,
        Some("option") => UciMessage::Option(words[1..].join(" ")),
        Some("bestmove") if words.len() >= 2 => UciMessage::BestMove {
            best: words[1].to_owned(),
            ponder: (words.get(2) == Some(&"ponder")).then(|| words.get(3).map(|s| (*s).to_owned())).flatten(),
        },
        Some("info") => UciMessage::Info(parse_info(&words[1..])),
        _ => UciMessage::Other(line.to_owned()),
    }
}

fn parse_info(words: &[&str]) -> InfoMessage {
    let mut info = InfoMessage::default();
    let mut i = 0;
    let num = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
    while i < words.len() {
        match words[i] {
            "depth" => info.depth = num(i).map(|v| v as u32),
            "seldepth" => info.seldepth = num(i).map(|v| v as u32),
            "multipv" => info.multipv = num(i).map(|v| v as u32),
            "nodes" => info.nodes = num(i),
            "nps" => info.nps = num(i),
            "hashfull" => info.hashfull = num(i).map(|v| v as u32),
            "time" => info.time_ms = num(i),
            "currmove" => info.currmove = words.get(i + 1).map(|s| (*s).to_owned()),
            "lowerbound" => info.lowerbound = true,
            "upperbound" => info.upperbound = true,
            "score" => {
                let value = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                info.score = match (words.get(i + 1), value) {
                    (Some(&"cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some(&"mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
                i += 3;
                continue;
            }
            "wdl" => {
                let n = |k: usize| words.get(i + k).and_then(|w| w.parse::<u32>().ok());
                if let (Some(w), Some(d), Some(l)) = (n(1), n(2), n(3)) {
                    info.wdl = Some((w, d, l));
                }
                i += 4;
                continue;
            }
            "pv" => {
                info.pv = words[i + 1..].iter().map(|s| (*s).to_owned()).collect();
                break;
            }
            "string" => {
                info.string = Some(words[i + 1..].join(" "));
                break;
            }
            _ => {}
        }
        i += 1;
    }
    info
}

/// The UCI `position` command for a game that started at `start` and continued with `moves`
/// (legal in turn): `position startpos` for the standard start in standard notation, else
/// `position fen F`, then ` moves ...` with castling written in the start position's
/// castling mode (king to rook in Chess960). Every driver of an external engine writes its
/// games through this one function, so all of them send the same text.
pub fn position_command(start: &Position, moves: &[Move]) -> String {
    // `startpos` names the standard array in standard notation only: a Chess960 game that
    // starts from it (position 518) is still sent as a FEN, as any other Chess960 start.
    let mut line = if *start == Position::startpos() && start.castling_mode() == CastlingMode::Standard {
        "position startpos".to_owned()
    } else {
        format!("position fen {}", start.fen())
    };
    if !moves.is_empty() {
        line.push_str(" moves");
        let mut pos = *start;
        for &m in moves {
            line.push(' ');
            line.push_str(&uci_move(&pos, m));
            pos.play_unchecked(m);
        }
    }
    line
}

/// A running external UCI engine. Dropping it kills the process if it still runs and waits
/// for it; [`UciClient::quit`] asks it to exit first.
pub struct UciClient {
    process: EngineProcess,
    /// The name the engine announced (after [`UciClient::handshake`]).
    pub name: Option<String>,
    /// The option lines the engine announced.
    pub options: Vec<String>,
}

impl UciClient {
    /// Starts `program` with `args`. Its stderr is inherited.
    ///
    /// # Errors
    /// [`ClientError::Spawn`] if the program cannot be started.
    pub(crate) fn spawn(program: &str, args: &[String]) -> Result<UciClient, ClientError> {
        let process = EngineProcess::spawn(program, args)?;
        Ok(UciClient { process, name: None, options: Vec::new() })
    }

    /// Starts the engine `spec` describes and makes it ready for a game: the `uci` handshake,
    /// every option in order, `ucinewgame`, then `isready`. Each wait for an answer lasts at
    /// most `patience`.
    ///
    /// # Errors
    /// The failed step, as a [`StartError`] around the [`ClientError`]: [`StartError::Spawn`],
    /// [`StartError::Handshake`], [`StartError::Setup`] or [`StartError::Ready`].
    pub fn start(spec: &EngineSpec, patience: Duration) -> Result<UciClient, StartError> {
        let mut client = UciClient::spawn(&spec.command, &spec.args).map_err(StartError::Spawn)?;
        client.handshake(patience).map_err(StartError::Handshake)?;
        client.prepare(spec, patience)?;
        Ok(client)
    }

    /// The steps of [`UciClient::start`] after the handshake: options, `ucinewgame`, ready.
    ///
    /// # Errors
    /// [`StartError::Setup`] or [`StartError::Ready`].
    pub(crate) fn prepare(&mut self, spec: &EngineSpec, patience: Duration) -> Result<(), StartError> {
        for (name, value) in &spec.options {
            self.set_option(name, value).map_err(StartError::Setup)?;
        }
        self.send("ucinewgame").map_err(StartError::Setup)?;
        self.ready(patience).map_err(StartError::Ready)
    }

    /// Sends one command line.
    ///
    /// # Errors
    /// [`ClientError::Write`] if the engine's input is closed.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.process.send(line)
    }

    /// The next message, waiting at most `timeout`; `Ok(None)` on timeout.
    ///
    /// # Errors
    /// [`ClientError::Closed`] if the engine has closed its output.
    pub fn recv(&mut self, timeout: Duration) -> Result<Option<UciMessage>, ClientError> {
        Ok(self.process.recv(timeout)?.map(|line| parse_message(&line)))
    }

    fn wait_for(
        &mut self,
        expected: &'static str,
        timeout: Duration,
        mut accept: impl FnMut(&mut UciClient, UciMessage) -> bool,
    ) -> Result<(), ClientError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ClientError::Timeout { expected, timeout });
            }
            if let Some(msg) = self.recv(left)? {
                if accept(self, msg) {
                    return Ok(());
                }
            }
        }
    }

    /// `uci` … `uciok`, recording name and options.
    ///
    /// # Errors
    /// Write errors, [`ClientError::Closed`] or [`ClientError::Timeout`].
    pub fn handshake(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.handshake_unless(timeout, |_| false)
    }

    /// [`UciClient::handshake`], given up as soon as the engine writes a line for which
    /// `refusal` holds (another protocol's answer to `uci`): then
    /// [`ClientError::Refused`] with that line.
    pub(crate) fn handshake_unless(
        &mut self,
        timeout: Duration,
        refusal: impl Fn(&str) -> bool,
    ) -> Result<(), ClientError> {
        self.send("uci")?;
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ClientError::Timeout { expected: "uciok", timeout });
            }
            match self.recv(left)? {
                Some(UciMessage::IdName(name)) => self.name = Some(name),
                Some(UciMessage::Option(text)) => self.options.push(text),
                Some(UciMessage::UciOk) => return Ok(()),
                Some(UciMessage::Other(line)) if refusal(&line) => return Err(ClientError::Refused(line)),
                _ => {}
            }
        }
    }

    /// `isready` … `readyok`.
    ///
    /// # Errors
    /// Write errors, [`ClientError::Closed`] or [`ClientError::Timeout`].
    pub fn ready(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send("isready")?;
        self.wait_for("readyok", timeout, |_, msg| msg == UciMessage::ReadyOk)
    }

    /// `setoption name N value V`.
    ///
    /// # Errors
    /// [`ClientError::Write`].
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// Sends the `position` command for `start` followed by `moves` (see
    /// [`position_command`]).
    ///
    /// # Errors
    /// [`ClientError::Write`].
    pub fn set_position(&mut self, start: &Position, moves: &[Move]) -> Result<(), ClientError> {
        self.send(&position_command(start, moves))
    }

    /// Sends the `position` command for `game`: its start position and every move played.
    ///
    /// # Errors
    /// [`ClientError::Write`].
    pub fn set_game(&mut self, game: &Game) -> Result<(), ClientError> {
        self.set_position(game.initial_position(), game.moves())
    }

    /// Sends `go <params>` and collects messages until `bestmove`, calling `on_info` for each
    /// info line. Returns `(best, ponder)`.
    ///
    /// # Errors
    /// Write errors, [`ClientError::Closed`] or [`ClientError::Timeout`].
    pub fn go(
        &mut self,
        params: &str,
        timeout: Duration,
        mut on_info: impl FnMut(&InfoMessage),
    ) -> Result<(String, Option<String>), ClientError> {
        self.send(format!("go {params}").trim_end())?;
        let mut result = None;
        self.wait_for("bestmove", timeout, |_, msg| match msg {
            UciMessage::Info(info) => {
                on_info(&info);
                false
            }
            UciMessage::BestMove { best, ponder } => {
                result = Some((best, ponder));
                true
            }
            _ => false,
        })?;
        result.ok_or(ClientError::Closed)
    }

    /// Sends `quit` and waits briefly for the process to exit, killing it otherwise; either
    /// way the process is waited for.
    pub fn quit(self) {
        self.process.quit("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_engine_output() {
        assert_eq!(parse_message("id name Stockfish 16"), UciMessage::IdName("Stockfish 16".into()));
        assert_eq!(
            parse_message("bestmove e2e4 ponder e7e5"),
            UciMessage::BestMove { best: "e2e4".into(), ponder: Some("e7e5".into()) }
        );
        let UciMessage::Info(info) = parse_message(
            "info depth 12 seldepth 18 multipv 1 score cp -31 upperbound nodes 1000 nps 5 time 7 pv e7e5 g1f3",
        ) else {
            panic!("not info");
        };
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.score, Some(Score::Cp(-31)));
        assert!(info.upperbound);
        assert_eq!(info.pv, vec!["e7e5", "g1f3"]);
        let UciMessage::Info(info) = parse_message("info string hello world") else { panic!("not info") };
        assert_eq!(info.string.as_deref(), Some("hello world"));
        assert_eq!(parse_message("garbage"), UciMessage::Other("garbage".into()));
    }

    /// The moves `texts`, read in turn from `start`.
    fn moves(start: &Position, texts: &[&str]) -> Vec<Move> {
        let mut pos = *start;
        texts
            .iter()
            .map(|text| {
                let m = tempo_notation::parse_uci_move(&pos, text).unwrap();
                pos.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn engine_spec_from_command_line() {
        let spec = EngineSpec::from_command_line("  stockfish --threads 2 ").unwrap();
        assert_eq!(spec.command, "stockfish");
        assert_eq!(spec.args, ["--threads", "2"]);
        assert!(spec.options.is_empty());
        assert_eq!(EngineSpec::from_command_line(" \t"), None);
    }

    #[test]
    fn start_reports_the_failed_step() {
        let spec = EngineSpec::from_command_line("/nonexistent/tempo-no-such-engine").unwrap();
        let Err(err) = UciClient::start(&spec, Duration::from_secs(1)) else { panic!("started") };
        assert!(matches!(err, StartError::Spawn(_)), "{err:?}");
        // The step adds no words of its own.
        let text = err.to_string();
        assert_eq!(text, err.into_client_error().to_string());
    }

    #[test]
    fn position_command_for_standard_games() {
        let start = Position::startpos();
        assert_eq!(position_command(&start, &[]), "position startpos");
        let line = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"];
        assert_eq!(
            position_command(&start, &moves(&start, &line)),
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1"
        );
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let start = Position::from_fen(fen, CastlingMode::Standard).unwrap();
        assert_eq!(
            position_command(&start, &moves(&start, &["e1c1", "e8g8"])),
            format!("position fen {fen} moves e1c1 e8g8")
        );
        let mut game = Game::new(start);
        for m in moves(&start, &["e1c1", "e8g8"]) {
            game.play(m).unwrap();
        }
        assert_eq!(
            position_command(game.initial_position(), game.moves()),
            format!("position fen {fen} moves e1c1 e8g8")
        );
    }

    #[test]
    fn position_command_writes_chess960_castling_as_king_takes_rook() {
        let start = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Chess960).unwrap();
        let line = position_command(&start, &moves(&start, &["e1a1", "e8h8"]));
        assert_eq!(line, format!("position fen {} moves e1a1 e8h8", start.fen()));
        // The standard array in Chess960 mode is not `startpos`, which would lose the mode.
        let fen = tempo_core::fen::STARTING_FEN;
        let start = Position::from_fen(fen, CastlingMode::Chess960).unwrap();
        assert!(position_command(&start, &[]).starts_with("position fen "));
    }
}
