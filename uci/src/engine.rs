//! One interface to an external engine for a game, whatever protocol it speaks: UCI
//! ([`UciClient`]) or xboard ([`XboardClient`](crate::xboard)). A runner starts it for a
//! game ([`ExternalEngine::start`], which detects the protocol when it is not given), asks
//! it for moves ([`ExternalEngine::think`]) and quits it; the protocol's differences (how a
//! game and its limits are told, how a move is read) stay here.

use crate::client::{ClientError, EngineSpec, StartError, UciClient};
use crate::format::go_params;
use crate::xboard::{is_xboard_reply, XboardClient, FEATURE_WAIT};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use tempo_core::clock::TimeControl;
use tempo_core::{CastlingMode, Game, Move, Position, Score};
use tempo_engine::Limits;
use tempo_notation::parse_uci_move;

/// How long an engine whose protocol is not known is given to answer `uci` with `uciok`
/// before it is started again as an xboard engine (at most the caller's patience).
pub const DETECT_WAIT: Duration = FEATURE_WAIT;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// The Universal Chess Interface.
    Uci,
    /// The Chess Engine Communication Protocol (xboard, WinBoard), version 2.
    Xboard,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Uci => "UCI",
            Protocol::Xboard => "xboard",
        })
    }
}

/// A protocol name that is neither `uci` nor `xboard`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown protocol {0:?} (expected uci or xboard)")]
pub struct ParseProtocolError(String);

impl FromStr for Protocol {
    type Err = ParseProtocolError;

    fn from_str(text: &str) -> Result<Protocol, ParseProtocolError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "uci" => Ok(Protocol::Uci),
            "xboard" | "cecp" | "winboard" => Ok(Protocol::Xboard),
            _ => Err(ParseProtocolError(text.to_owned())),
        }
    }
}

/// What limits each move of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// A real clock for each side.
    Clock(TimeControl),
    /// A fixed number of nodes (UCI only).
    Nodes(u64),
    /// A fixed depth.
    Depth(u32),
    /// A fixed time per move.
    MoveTime(Duration),
}

/// What an engine is told before the first move of a game.
#[derive(Clone, Copy, Debug)]
pub struct GameSetup<'a> {
    /// The start position (its castling mode tells a Chess960 game).
    pub start: &'a Position,
    /// What limits each move.
    pub limit: &'a MoveLimit,
}

/// A main-line evaluation an engine reported while thinking, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The score.
    pub score: Score,
    /// The depth it was searched to, when the engine said.
    pub depth: Option<u32>,
}

/// An engine's answer when asked to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A legal move.
    Move(Move),
    /// Text in the place of a move that is no legal move in the position.
    IllegalMove(String),
    /// The engine resigned (xboard's `resign`).
    Resign,
    /// The engine claimed a result instead of moving (xboard's `1-0 {...}`, `0-1 {...}`,
    /// `1/2-1/2 {...}`): the whole line.
    Claim(String),
    /// The engine refused a move it was sent as illegal (xboard's `Illegal move: X`).
    RefusedMove(String),
}

/// A running external engine, UCI or xboard. Dropping it kills the process if it still
/// runs and waits for it; [`ExternalEngine::quit`] asks it to exit first.
pub struct ExternalEngine {
    client: Client,
}

enum Client {
    Uci(UciClient),
    Xboard(XboardClient),
}

impl ExternalEngine {
    /// Starts the engine `spec` describes and makes it ready for the game `setup` describes,
    /// each wait lasting at most `patience`. With `protocol` `None`, the engine is sent `uci`
    /// first; if no `uciok` comes within [`DETECT_WAIT`] (or `patience` if shorter), or the
    /// engine answers in xboard's way, it is started again as an xboard engine.
    ///
    /// UCI: the handshake, the options in order (`UCI_Chess960` added for a Chess960 game),
    /// `ucinewgame`, `isready`. xboard: the handshake and its features, the options, the new
    /// game with its time control and start position, `ping`.
    ///
    /// # Errors
    /// The failed step, as a [`StartError`]; when detection fails, [`StartError::Handshake`]
    /// with [`ClientError::UnknownProtocol`].
    pub fn start(
        spec: &EngineSpec,
        protocol: Option<Protocol>,
        setup: &GameSetup<'_>,
        patience: Duration,
    ) -> Result<ExternalEngine, StartError> {
        let client = match protocol {
            Some(Protocol::Uci) => Client::Uci(start_uci(spec, setup, patience)?),
            Some(Protocol::Xboard) => Client::Xboard(start_xboard(spec, setup, patience)?),
            None => detect(spec, setup, patience)?,
        };
        Ok(ExternalEngine { client })
    }

    /// The protocol the engine speaks.
    pub fn protocol(&self) -> Protocol {
        match &self.client {
            Client::Uci(_) => Protocol::Uci,
            Client::Xboard(_) => Protocol::Xboard,
        }
    }

    /// The name the engine gives itself (UCI `id name`, xboard `feature myname`).
    pub fn name(&self) -> Option<&str> {
        match &self.client {
            Client::Uci(client) => client.name.as_deref(),
            Client::Xboard(client) => client.name(),
        }
    }

    /// Asks the engine for its move in `game` (the game of [`ExternalEngine::start`], with
    /// every move played since), under `limits` (UCI's `go`; an xboard engine was told its
    /// time control at the start and gets the clocks of `limits`), waiting at most
    /// `timeout`. `on_evaluation` gets each main-line score the engine reports while it
    /// thinks, from its own point of view, with its depth.
    ///
    /// # Errors
    /// [`ClientError::Write`] or [`ClientError::Closed`] if the engine has gone,
    /// [`ClientError::Timeout`] if it did not answer in time.
    pub fn think(
        &mut self,
        game: &Game,
        limits: &Limits,
        timeout: Duration,
        mut on_evaluation: impl FnMut(Evaluation),
    ) -> Result<Answer, ClientError> {
        match &mut self.client {
            Client::Uci(client) => {
                let pos = *game.position();
                client.set_game(game)?;
                let (best, _) = client.go(&go_params(&pos, limits), timeout, |info| {
                    if info.multipv.unwrap_or(1) == 1 && !info.lowerbound && !info.upperbound {
                        if let Some(score) = info.score {
                            on_evaluation(Evaluation { score, depth: info.depth });
                        }
                    }
                })?;
                Ok(match parse_uci_move(&pos, &best) {
                    Ok(m) if !m.is_null() => Answer::Move(m),
                    _ => Answer::IllegalMove(best),
                })
            }
            Client::Xboard(client) => client.think(game, limits, timeout, on_evaluation),
        }
    }

    /// Asks the engine to exit and waits briefly for it, killing it otherwise; either way
    /// the process is waited for.
    pub fn quit(self) {
        match self.client {
            Client::Uci(client) => client.quit(),
            Client::Xboard(client) => client.quit(),
        }
    }
}

/// The options of `spec` for this game: `UCI_Chess960` added for a Chess960 game.
fn uci_spec(spec: &EngineSpec, setup: &GameSetup<'_>) -> EngineSpec {
    let mut spec = spec.clone();
    if setup.start.castling_mode() == CastlingMode::Chess960 {
        spec.options.push(("UCI_Chess960".to_owned(), "true".to_owned()));
    }
    spec
}

fn start_uci(spec: &EngineSpec, setup: &GameSetup<'_>, patience: Duration) -> Result<UciClient, StartError> {
    UciClient::start(&uci_spec(spec, setup), patience)
}

/// The steps of an xboard engine's start after the spawn.
fn prepare_xboard(
    client: &mut XboardClient,
    spec: &EngineSpec,
    setup: &GameSetup<'_>,
    patience: Duration,
) -> Result<(), StartError> {
    client.set_options(&spec.options).map_err(StartError::Setup)?;
    client.new_game(setup).map_err(StartError::Setup)?;
    client.ready(patience).map_err(StartError::Ready)
}

fn start_xboard(spec: &EngineSpec, setup: &GameSetup<'_>, patience: Duration) -> Result<XboardClient, StartError> {
    let mut client = XboardClient::spawn(spec).map_err(StartError::Spawn)?;
    client.handshake(patience).map_err(StartError::Handshake)?;
    prepare_xboard(&mut client, spec, setup, patience)?;
    Ok(client)
}

/// Starts an engine whose protocol is not known: UCI if it answers `uci` in time, else
/// xboard in a fresh process.
fn detect(spec: &EngineSpec, setup: &GameSetup<'_>, patience: Duration) -> Result<Client, StartError> {
    let spec_uci = uci_spec(spec, setup);
    let mut uci = UciClient::spawn(&spec_uci.command, &spec_uci.args).map_err(StartError::Spawn)?;
    let uci_error = match uci.handshake_unless(DETECT_WAIT.min(patience), is_xboard_reply) {
        Ok(()) => {
            uci.prepare(&spec_uci, patience)?;
            return Ok(Client::Uci(uci));
        }
        Err(e) => e,
    };
    // Dropping the first process kills it and waits for it.
    drop(uci);
    let mut xboard = XboardClient::spawn(spec).map_err(StartError::Spawn)?;
    match xboard.handshake(patience) {
        Ok(()) => {}
        Err(xboard_error) => {
            return Err(StartError::Handshake(ClientError::UnknownProtocol {
                uci: Box::new(uci_error),
                xboard: Box::new(xboard_error),
            }))
        }
    }
    prepare_xboard(&mut xboard, spec, setup, patience)?;
    Ok(Client::Xboard(xboard))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocols_read_and_show() {
        assert_eq!("uci".parse::<Protocol>(), Ok(Protocol::Uci));
        assert_eq!(" XBoard".parse::<Protocol>(), Ok(Protocol::Xboard));
        assert_eq!("cecp".parse::<Protocol>(), Ok(Protocol::Xboard));
        let err = "ucci".parse::<Protocol>().unwrap_err();
        assert_eq!(err.to_string(), "unknown protocol \"ucci\" (expected uci or xboard)");
        assert_eq!(Protocol::Uci.to_string(), "UCI");
        assert_eq!(Protocol::Xboard.to_string(), "xboard");
    }
}
