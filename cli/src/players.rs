//! Who plays each side: a person at the keyboard, the built-in engine, or an external UCI
//! engine. Engines think in the background and are polled, so that the main loop can keep
//! the clocks ticking on screen and notice a flag fall while they think.

use anyhow::{bail, Context, Result};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use tempo_core::{Color, Game, Move, Position, Score};
use tempo_engine::{Engine, EngineOption, Event, Limits, MAX_ELO, MIN_ELO};
use tempo_notation::parse_uci_move;
use tempo_uci::{go_params, EngineSpec, StartError, UciClient, UciMessage};

use crate::args::MAX_LEVEL;

/// A player as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    Human,
    /// The built-in engine at a level from 1 to [`MAX_LEVEL`].
    Builtin(u8),
    /// An external UCI engine: the command line that starts it.
    Uci(String),
}

impl PlayerSpec {
    /// Reads `human`, `engine`, `engine:LEVEL` or `uci:COMMAND`; `level` is the default level.
    pub fn parse(text: &str, level: u8) -> Result<PlayerSpec> {
        let text = text.trim();
        let (kind, arg) = text.split_once(':').map_or((text, None), |(k, a)| (k, Some(a.trim())));
        match (kind.to_ascii_lowercase().as_str(), arg) {
            ("human" | "me" | "you", None) => Ok(PlayerSpec::Human),
            ("engine" | "tempo" | "computer", None) => Ok(PlayerSpec::Builtin(level)),
            ("engine" | "tempo" | "computer", Some(l)) => {
                let l: u8 = l
                    .parse()
                    .ok()
                    .filter(|l| (1..=MAX_LEVEL).contains(l))
                    .with_context(|| format!("engine level must be 1 to {MAX_LEVEL}, not {l:?}"))?;
                Ok(PlayerSpec::Builtin(l))
            }
            ("uci", Some(cmd)) if !cmd.is_empty() => Ok(PlayerSpec::Uci(cmd.to_owned())),
            _ => bail!("unknown player {text:?}: use human, engine, engine:LEVEL (1-{MAX_LEVEL}) or uci:COMMAND"),
        }
    }
}

/// The strength limiter's Elo for a level below the maximum: 1000 at level 1, 200 more per
/// level; the top level searches without the limiter.
pub fn level_elo(level: u8) -> Option<u32> {
    (level < MAX_LEVEL).then(|| (MIN_ELO + 200 * u32::from(level.saturating_sub(1))).min(MAX_ELO))
}

/// Lines the built-in engine reports below full strength (see [`EnginePlayer::builtin`]).
const LIMITED_LINES: usize = 4;

/// One principal variation reported by an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub multipv: u32,
    pub depth: u32,
    pub eval: Score,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// An upper bound on an engine's thinking time under `limits`, to detect a hung external
/// engine.
fn patience(limits: &Limits, turn_white: bool) -> Duration {
    let own = if turn_white { limits.wtime } else { limits.btime };
    let budget = limits.movetime.or(own).unwrap_or(Duration::from_secs(3600));
    budget + Duration::from_secs(30)
}

/// What a thinking engine reports when polled.
#[derive(Debug)]
pub enum Thought {
    Info(Line),
    /// The search is over: the move (`None` if the position has none).
    Done(Option<Move>),
}

enum Backend {
    Builtin { engine: Box<Engine>, events: Option<Receiver<Event>> },
    Uci { client: Box<UciClient>, searching: Option<(Position, Instant)> },
}

/// An engine playing one side (or analysing for the user).
pub struct EnginePlayer {
    backend: Backend,
    /// The name shown on screen and written to the PGN.
    pub name: String,
    /// The evaluation of the move its last completed search chose, for its own side; `None`
    /// when no line it reported starts with that move.
    pub last_eval: Option<Score>,
    /// The latest exact evaluation of each first move the running search reported a line for.
    pending_evals: Vec<(Move, Score)>,
}

impl EnginePlayer {
    /// The built-in engine at `level` (1..=[`MAX_LEVEL`]).
    pub fn builtin(level: u8, chess960: bool) -> Result<EnginePlayer> {
        let mut engine = Box::new(Engine::new());
        if let Some(elo) = level_elo(level) {
            engine.set_option(EngineOption::LimitStrength(true)).context("cannot limit the engine's strength")?;
            engine.set_option(EngineOption::Elo(elo)).context("cannot set the engine's level")?;
            // The limiter picks among the engine's best four lines (its `Skill::LINES`, which
            // it searches in any case); reporting all of them tells the evaluation of the move
            // picked. A move from a line not reported gets no evaluation rather than another's.
            engine.set_option(EngineOption::MultiPv(LIMITED_LINES)).context("cannot set MultiPV")?;
        }
        engine.set_option(EngineOption::Chess960(chess960)).context("cannot set Chess960")?;
        let name = if level == MAX_LEVEL { "Tempo".to_owned() } else { format!("Tempo level {level}") };
        Ok(EnginePlayer {
            backend: Backend::Builtin { engine, events: None },
            name,
            last_eval: None,
            pending_evals: Vec::new(),
        })
    }

    /// The built-in engine at full strength with `lines` principal variations (analysis).
    pub fn analyst(lines: u32, threads: u32, chess960: bool) -> Result<EnginePlayer> {
        let mut player = EnginePlayer::builtin(MAX_LEVEL, chess960)?;
        if let Backend::Builtin { engine, .. } = &mut player.backend {
            engine.set_option(EngineOption::MultiPv(lines as usize)).context("cannot set MultiPV")?;
            engine.set_option(EngineOption::Threads(threads as usize)).context("cannot set the threads")?;
        }
        Ok(player)
    }

    /// Starts an external UCI engine with `command` (program and arguments, split on spaces).
    pub fn uci(command: &str, chess960: bool) -> Result<EnginePlayer> {
        let mut spec = EngineSpec::from_command_line(command).context("empty UCI engine command")?;
        if chess960 {
            spec.options.push(("UCI_Chess960".to_owned(), "true".to_owned()));
        }
        let client = UciClient::start(&spec, Duration::from_secs(10)).map_err(|e| match e {
            // The spawn error names the program and repeats its cause in its own message, so
            // it is flattened rather than chained (which would print the cause twice).
            StartError::Spawn(e) => anyhow::anyhow!("{e}"),
            StartError::Handshake(e) => anyhow::Error::new(e).context(format!("{command:?} does not speak UCI")),
            StartError::Setup(e) => anyhow::Error::new(e).context("cannot talk to the engine"),
            StartError::Ready(e) => anyhow::Error::new(e).context(format!("{command:?} is not ready")),
        })?;
        let name = client.name.clone().unwrap_or_else(|| spec.command.clone());
        Ok(EnginePlayer {
            backend: Backend::Uci { client: Box::new(client), searching: None },
            name,
            last_eval: None,
            pending_evals: Vec::new(),
        })
    }

    /// Starts thinking about the game's current position.
    pub fn start(&mut self, game: &Game, limits: &Limits) -> Result<()> {
        self.pending_evals.clear();
        match &mut self.backend {
            Backend::Builtin { engine, events } => {
                engine
                    .set_position(*game.initial_position(), game.moves())
                    .context("the engine refused the position")?;
                let (tx, rx) = mpsc::channel();
                engine
                    .go(limits.clone(), move |e| {
                        // The receiver is gone only if the game was abandoned meanwhile.
                        let _ = tx.send(e);
                    })
                    .context("the engine cannot start searching")?;
                *events = Some(rx);
            }
            Backend::Uci { client, searching } => {
                let pos = *game.position();
                client.set_game(game).context("the engine stopped answering")?;
                client
                    .send(format!("go {}", go_params(&pos, limits)).trim_end())
                    .context("the engine stopped answering")?;
                let deadline = Instant::now() + patience(limits, pos.turn() == Color::White);
                *searching = Some((pos, deadline));
            }
        }
        Ok(())
    }

    /// Waits up to `wait` for news from the search started by [`EnginePlayer::start`].
    /// `Ok(None)` means still thinking.
    pub fn poll(&mut self, wait: Duration) -> Result<Option<Thought>> {
        match &mut self.backend {
            Backend::Builtin { engine, events } => {
                let Some(rx) = events else { bail!("the engine is not searching") };
                let event = match rx.recv_timeout(wait) {
                    Ok(e) => e,
                    Err(RecvTimeoutError::Timeout) => return Ok(None),
                    Err(RecvTimeoutError::Disconnected) => {
                        *events = None;
                        bail!("the engine's search ended without a move");
                    }
                };
                match event {
                    Event::Info(info) => {
                        let line = Line {
                            multipv: info.multipv,
                            depth: info.depth,
                            eval: info.score,
                            nodes: info.nodes,
                            pv: info.pv,
                        };
                        if info.bound.is_none() {
                            self.note_eval(&line);
                        }
                        Ok(Some(Thought::Info(line)))
                    }
                    Event::CurrMove { .. } | Event::TablebaseError(_) => Ok(None),
                    Event::BestMove { best, .. } => {
                        *events = None;
                        engine.wait();
                        self.last_eval = self.eval_of(best);
                        Ok(Some(Thought::Done(best)))
                    }
                }
            }
            Backend::Uci { client, searching } => {
                let Some((pos, deadline)) = *searching else { bail!("the engine is not searching") };
                if Instant::now() > deadline {
                    *searching = None;
                    bail!("{} did not answer in time", self.name);
                }
                let msg = client.recv(wait).with_context(|| format!("{} stopped answering", self.name))?;
                match msg {
                    Some(UciMessage::Info(info)) => {
                        let Some(eval) = info.score else { return Ok(None) };
                        let mut pv = Vec::new();
                        let mut at = pos;
                        for text in &info.pv {
                            let Ok(m) = parse_uci_move(&at, text) else { break };
                            if m.is_null() {
                                break;
                            }
                            at.play_unchecked(m);
                            pv.push(m);
                        }
                        let line = Line {
                            multipv: info.multipv.unwrap_or(1),
                            depth: info.depth.unwrap_or(0),
                            eval,
                            nodes: info.nodes.unwrap_or(0),
                            pv,
                        };
                        if !info.lowerbound && !info.upperbound {
                            self.note_eval(&line);
                        }
                        Ok(Some(Thought::Info(line)))
                    }
                    Some(UciMessage::BestMove { best, .. }) => {
                        *searching = None;
                        if best == "(none)" || best == "0000" {
                            self.last_eval = None;
                            return Ok(Some(Thought::Done(None)));
                        }
                        let m = parse_uci_move(&pos, &best)
                            .with_context(|| format!("{} played an illegal move {best:?}", self.name))?;
                        self.last_eval = self.eval_of(Some(m));
                        Ok(Some(Thought::Done(Some(m))))
                    }
                    _ => Ok(None),
                }
            }
        }
    }

    /// Keeps `line`'s evaluation (an exact one) as its first move's.
    fn note_eval(&mut self, line: &Line) {
        let Some(&first) = line.pv.first() else { return };
        match self.pending_evals.iter_mut().find(|(m, _)| *m == first) {
            Some(entry) => entry.1 = line.eval,
            None => self.pending_evals.push((first, line.eval)),
        }
    }

    /// The evaluation of `best`, the move the search chose, ending the search's notes.
    fn eval_of(&mut self, best: Option<Move>) -> Option<Score> {
        let evals = std::mem::take(&mut self.pending_evals);
        best.and_then(|b| evals.into_iter().find(|(m, _)| *m == b).map(|(_, e)| e))
    }

    /// Asks a running search to finish now (its move follows through [`EnginePlayer::poll`]).
    pub fn stop(&mut self) {
        match &mut self.backend {
            Backend::Builtin { engine, .. } => engine.stop(),
            Backend::Uci { client, searching } => {
                if searching.is_some() {
                    // If the engine is gone there is nothing left to stop.
                    let _ = client.send("stop");
                }
            }
        }
    }

    /// Stops any search and waits for its end, discarding the result (the game moved on).
    pub fn abandon(&mut self) {
        self.stop();
        let patience = Instant::now() + Duration::from_secs(5);
        while self.is_searching() && Instant::now() < patience {
            if self.poll(Duration::from_millis(50)).is_err() {
                break;
            }
        }
    }

    fn is_searching(&self) -> bool {
        match &self.backend {
            Backend::Builtin { events, .. } => events.is_some(),
            Backend::Uci { searching, .. } => searching.is_some(),
        }
    }

    /// Searches the game's position to the end and returns the final lines (best first)
    /// and the best move. Blocks: for hints, analysis and draw decisions.
    pub fn search(&mut self, game: &Game, limits: &Limits) -> Result<(Vec<Line>, Option<Move>)> {
        self.start(game, limits)?;
        let mut lines: Vec<Line> = Vec::new();
        loop {
            match self.poll(Duration::from_millis(100))? {
                Some(Thought::Info(line)) => {
                    let index = line.multipv.saturating_sub(1) as usize;
                    if lines.len() <= index {
                        lines.resize(index + 1, line.clone());
                    }
                    lines[index] = line;
                }
                Some(Thought::Done(best)) => {
                    lines.retain(|l| !l.pv.is_empty());
                    return Ok((lines, best));
                }
                None => {}
            }
        }
    }

    /// Leaves the engine (an external one is asked to quit).
    pub fn close(self) {
        if let Backend::Uci { client, .. } = self.backend {
            client.quit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_notation::uci_move;

    #[test]
    fn player_specs() {
        assert_eq!(PlayerSpec::parse("human", 5).unwrap(), PlayerSpec::Human);
        assert_eq!(PlayerSpec::parse("Engine", 5).unwrap(), PlayerSpec::Builtin(5));
        assert_eq!(PlayerSpec::parse("engine:2", 5).unwrap(), PlayerSpec::Builtin(2));
        assert_eq!(PlayerSpec::parse("uci:stockfish -x", 5).unwrap(), PlayerSpec::Uci("stockfish -x".into()));
        assert!(PlayerSpec::parse("engine:0", 5).is_err());
        assert!(PlayerSpec::parse("engine:11", 5).is_err());
        assert!(PlayerSpec::parse("robot", 5).is_err());
        assert!(PlayerSpec::parse("uci:", 5).is_err());
    }

    #[test]
    fn levels() {
        assert_eq!(level_elo(1), Some(1000));
        assert_eq!(level_elo(9), Some(2600));
        assert_eq!(level_elo(MAX_LEVEL), None);
    }

    #[test]
    fn builtin_finds_mate_in_one() {
        let pos: Position = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1".parse().unwrap();
        let game = Game::new(pos);
        let mut engine = EnginePlayer::builtin(MAX_LEVEL, false).unwrap();
        let (lines, best) = engine.search(&game, &Limits::depth(3)).unwrap();
        assert_eq!(best.map(|m| uci_move(&pos, m)), Some("a1a8".to_owned()));
        assert_eq!(lines[0].eval, Score::Mate(1));
        assert_eq!(engine.last_eval, Some(Score::Mate(1)));
    }
}
