//! One game between two external engines (UCI or xboard, through
//! `tempo_uci::ExternalEngine`), refereed by `tempo_core::Game` with a real clock measured
//! here (the runner, not the engines, keeps time).

use super::adjudicate::{Adjudication, Adjudicator};
use super::ending::GameEnd;
use super::openings::Opening;
use std::time::{Duration, Instant};
use tempo_core::{Game, GameResult, Score, Termination};
use tempo_engine::Limits;
use tempo_notation::{format_clock, termination_comment, uci_move, PgnGame, PgnTermination};
use tempo_uci::{Answer, ClientError, EngineSpec, Evaluation, ExternalEngine, GameSetup, Protocol, StartError};

pub use tempo_uci::MoveLimit;

/// One engine of a match: the name its games and the report show, how to start it, and
/// the protocol it speaks (`None` until detected).
#[derive(Clone, Debug)]
pub struct MatchEngine {
    pub name: String,
    pub spec: EngineSpec,
    pub protocol: Option<Protocol>,
}

/// An engine that could not be started for a game: the game was not played.
#[derive(Debug)]
pub struct StartFailure {
    /// Which engine of the game: 0 for White's, 1 for Black's.
    pub seat: usize,
    pub error: StartError,
}

/// How a game ended, with the incidents the match report counts.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub end: GameEnd,
    pub pgn: PgnGame,
    pub incidents: Incidents,
}

/// The incidents of one game the match report counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Incidents {
    /// Per colour (White, Black): lost on time, illegal move, crash or hang, clock oversteps
    /// within the margin.
    pub time_forfeits: [u32; 2],
    pub illegal_moves: [u32; 2],
    pub crashes: [u32; 2],
    pub oversteps: [u32; 2],
}

/// An engine's answer when asked to move.
struct Reply {
    answer: Result<Answer, ClientError>,
    elapsed: Duration,
    /// The last main-line evaluation it gave, from its own point of view.
    evaluation: Option<Evaluation>,
}

/// What the PGN records of a move beside the move: the mover's evaluation and thinking time
/// (`{+0.31/12 0.153s}`, as cutechess and OpenBench write them, which `data import-pgn`
/// reads back) and its clock after the move (`[%clk 0:00:04.8]`).
#[derive(Clone, Copy, Debug, Default)]
struct MoveNote {
    evaluation: Option<Evaluation>,
    thought: Option<Duration>,
    clock: Option<Duration>,
}

impl MoveNote {
    /// The move's comment, if it has anything to say.
    fn comment(&self) -> Option<String> {
        let mut parts = Vec::new();
        if let Some(Evaluation { score, depth }) = self.evaluation {
            let score = match score {
                Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
                Score::Mate(n) if n < 0 => format!("-M{}", -n),
                Score::Mate(n) => format!("+M{n}"),
            };
            parts.push(format!("{score}/{}", depth.unwrap_or(0)));
        }
        if let Some(thought) = self.thought {
            parts.push(format!("{:.3}s", thought.as_secs_f64()));
        }
        if let Some(left) = self.clock {
            // Tenths of a second: the precision a clock display shows.
            let tenths = Duration::from_millis(left.as_millis() as u64 / 100 * 100);
            parts.push(format!("[%clk {}]", format_clock(tenths)));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

/// Starts the engine for a game from `setup`, in the protocol it speaks (detected if not
/// known yet).
pub fn start_engine(
    engine: &MatchEngine,
    setup: &GameSetup<'_>,
    patience: Duration,
) -> Result<ExternalEngine, StartError> {
    ExternalEngine::start(&engine.spec, engine.protocol, setup, patience)
}

/// Starts both engines; if either fails, the other is quit and the game is not played.
fn start_engines(
    engines: [&MatchEngine; 2],
    setup: &GameSetup<'_>,
    patience: Duration,
) -> Result<[ExternalEngine; 2], StartFailure> {
    let white = start_engine(engines[0], setup, patience).map_err(|error| StartFailure { seat: 0, error })?;
    match start_engine(engines[1], setup, patience) {
        Ok(black) => Ok([white, black]),
        Err(error) => {
            white.quit();
            Err(StartFailure { seat: 1, error })
        }
    }
}

/// Plays one game: `engines[0]` has White.
///
/// # Errors
/// An engine that could not be started: the game is not played, and counts for nothing.
pub fn play_game(
    engines: [&MatchEngine; 2],
    opening: &Opening,
    limit: &MoveLimit,
    rules: &Adjudication,
    round: &str,
) -> Result<GameRecord, StartFailure> {
    let mut game = match limit {
        MoveLimit::Clock(control) => Game::with_time_control(opening.start, control.clone()),
        _ => Game::new(opening.start),
    };
    // The opening moves are part of the game but not of anyone's clock.
    let mut notes: Vec<MoveNote> = Vec::new();
    for &m in &opening.moves {
        let _ = game.play_timed(m, Duration::ZERO);
        notes.push(MoveNote::default());
    }

    let setup = GameSetup { start: &opening.start, limit };
    let mut clients = start_engines(engines, &setup, rules.hang_timeout)?;
    let mut incidents = Incidents::default();
    let end = play_moves(&mut game, &mut clients, limit, rules, &mut incidents, &mut notes);
    for client in clients {
        client.quit();
    }
    let pgn = pgn_of(&game, engines, limit, &end, &notes, round);
    Ok(GameRecord { end, pgn, incidents })
}

/// Plays the game on until it ends; `notes` gets each move's note.
fn play_moves(
    game: &mut Game,
    clients: &mut [ExternalEngine; 2],
    limit: &MoveLimit,
    rules: &Adjudication,
    incidents: &mut Incidents,
    notes: &mut Vec<MoveNote>,
) -> GameEnd {
    let mut adjudicator = Adjudicator::new(*rules);
    loop {
        if let Some(outcome) = game.outcome() {
            return GameEnd::Rules(outcome);
        }
        if let Some(&claim) = game.claimable_now().first() {
            // The runner claims every draw the rules allow, as tournament managers do.
            game.claim_draw().expect("a claimable draw can be claimed");
            return GameEnd::Claimed(claim);
        }
        let fullmove = game.position().fullmove_number();
        if let Some(end) = adjudicator.move_limit(fullmove) {
            return end;
        }
        if let Some(end) = adjudicator.tablebase(game.position()) {
            return end;
        }
        let side = game.position().turn();
        let reply = ask(&mut clients[side.index()], game, limit, rules);
        let score = reply.evaluation.map(|e| e.score);
        if let Some(end) = play_reply(game, reply, rules, incidents, notes) {
            return end;
        }
        // A move that ended the game by the rules is reported as such at the top of the loop.
        if game.outcome().is_none() {
            if let Some(end) = adjudicator.observe(side, score, fullmove) {
                return end;
            }
        }
    }
}

/// Asks the engine to move in `game`, with the time it may take.
fn ask(client: &mut ExternalEngine, game: &Game, limit: &MoveLimit, rules: &Adjudication) -> Reply {
    let side = game.position().turn();
    let (limits, timeout) = match (limit, game.clock()) {
        (MoveLimit::Clock(_), Some(clock)) => {
            (Limits::from_clock(clock), clock.remaining(side) + rules.time_margin + Duration::from_millis(50))
        }
        (MoveLimit::Nodes(n), _) => (Limits::nodes(*n), rules.hang_timeout),
        (MoveLimit::Depth(d), _) => (Limits::depth(*d), rules.hang_timeout),
        (MoveLimit::MoveTime(t), _) => (Limits::movetime(*t), *t + rules.hang_timeout),
        (MoveLimit::Clock(_), None) => unreachable!("a clocked game has a clock"),
    };
    let mut evaluation = None;
    let started = Instant::now();
    let answer = client.think(game, &limits, timeout, |e| evaluation = Some(e));
    Reply { answer, elapsed: started.elapsed(), evaluation }
}

/// Plays the side to move's reply, charging its clock; the ending if the reply ended the
/// game (no answer in time, a crash, an illegal move, a flag fall, a resignation, a claim).
fn play_reply(
    game: &mut Game,
    reply: Reply,
    rules: &Adjudication,
    incidents: &mut Incidents,
    notes: &mut Vec<MoveNote>,
) -> Option<GameEnd> {
    let pos = *game.position();
    let side = pos.turn();
    let idx = side.index();
    let m = match reply.answer {
        Ok(Answer::Move(m)) => m,
        Err(ClientError::Timeout { .. }) if game.clock().is_some() => {
            incidents.time_forfeits[idx] += 1;
            let outcome = game.flag(side).expect("the game is still open");
            return Some(GameEnd::flag_fall(side, outcome));
        }
        Err(e) => {
            incidents.crashes[idx] += 1;
            return Some(GameEnd::Crash { side, error: e.to_string() });
        }
        Ok(Answer::IllegalMove(text)) => {
            incidents.illegal_moves[idx] += 1;
            return Some(GameEnd::IllegalMove { side, text });
        }
        Ok(Answer::Resign) => return Some(GameEnd::Resignation { side }),
        Ok(Answer::Claim(claim)) => {
            // The runner ends every game the rules end, and claims every draw they allow,
            // before asking for a move: a claim in place of a move is either the engine
            // conceding or a false claim, which loses.
            let concedes = claim.starts_with(GameResult::win_for(!side).as_str());
            if concedes {
                return Some(GameEnd::Resignation { side });
            }
            incidents.illegal_moves[idx] += 1;
            return Some(GameEnd::FalseClaim { side, claim });
        }
        Ok(Answer::RefusedMove(text)) => {
            incidents.crashes[idx] += 1;
            return Some(GameEnd::RefusedMove { side, text });
        }
    };
    let charged = match game.clock() {
        Some(clock)
            if reply.elapsed > clock.remaining(side) && reply.elapsed <= clock.remaining(side) + rules.time_margin =>
        {
            incidents.oversteps[idx] += 1;
            clock.remaining(side)
        }
        _ => reply.elapsed,
    };
    match game.play_timed(m, charged) {
        Ok(Some(outcome))
            if outcome.termination == Termination::TimeForfeit
                || outcome.termination == Termination::TimeoutVsInsufficientMaterial =>
        {
            if outcome.termination == Termination::TimeForfeit {
                incidents.time_forfeits[idx] += 1;
            }
            Some(GameEnd::flag_fall(side, outcome))
        }
        Ok(_) => {
            notes.push(MoveNote {
                evaluation: reply.evaluation,
                thought: Some(reply.elapsed),
                clock: game.clock().map(|c| c.remaining(side)),
            });
            None
        }
        Err(e) => {
            incidents.illegal_moves[idx] += 1;
            Some(GameEnd::IllegalMove { side, text: format!("{} ({e})", uci_move(&pos, m)) })
        }
    }
}

fn pgn_of(
    game: &Game,
    engines: [&MatchEngine; 2],
    limit: &MoveLimit,
    end: &GameEnd,
    notes: &[MoveNote],
    round: &str,
) -> PgnGame {
    let result = end.result();
    let termination = end.pgn_termination();
    let mut pgn = PgnGame::from_game(game);
    pgn.set_tag("Event", "tempo-tools match".to_owned());
    pgn.set_tag("Site", "?".to_owned());
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    pgn.set_tag("Date", tempo_notation::pgn_date_time(now).0);
    pgn.set_tag("Round", round.to_owned());
    pgn.set_tag("White", engines[0].name.clone());
    pgn.set_tag("Black", engines[1].name.clone());
    pgn.set_tag("Result", result.as_str().to_owned());
    if let Some(control) = super::resume::clock_tag(limit) {
        pgn.set_tag("TimeControl", control);
    }
    if let Some(fixed) = super::resume::move_limit_tag(limit) {
        pgn.set_tag(super::resume::MOVE_LIMIT_TAG, fixed);
    }
    // The standard tag value, and the reason in words after the last move (in place of the
    // arbiter's own wording, which a runner-decided ending does not have).
    pgn.set_tag("Termination", termination.to_string());
    pgn.result = Some(Some(result).into());
    pgn.comments.clear();
    for node in &mut pgn.moves {
        node.comments.clear();
    }
    for (node, note) in pgn.moves.iter_mut().zip(notes) {
        node.comments.extend(note.comment());
    }
    // The arbiter's words for an ending by the rules ("Black mates", "Draw by the
    // fifty-move rule (claimed)"), the runner's own for everything it decided.
    let words = match game.outcome() {
        Some(o) if termination == PgnTermination::Normal => termination_comment(game, o),
        _ => end.describe([&engines[0].name, &engines[1].name]),
    };
    match pgn.moves.last_mut() {
        Some(last) => last.comments.push(words),
        None => pgn.comments.push(words),
    }
    pgn
}
