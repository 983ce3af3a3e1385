//! One game between two UCI engines, refereed by `tempo_core::Game` with a real clock
//! measured here (the runner, not the engines, keeps time).

use super::adjudicate::{Adjudication, Adjudicator};
use super::ending::GameEnd;
use super::openings::Opening;
use std::time::{Duration, Instant};
use tempo_core::{clock::TimeControl, CastlingMode, Color, Game, Score, Termination};
use tempo_engine::Limits;
use tempo_notation::{format_clock, parse_uci_move, termination_comment, PgnGame, PgnTermination};
use tempo_uci::{go_params, ClientError, EngineSpec, StartError, UciClient};

/// One engine of a match: the name its games and the report show, and how to start it.
#[derive(Clone, Debug)]
pub struct MatchEngine {
    pub name: String,
    pub spec: EngineSpec,
}

/// What limits each move.
#[derive(Clone, Debug)]
pub enum MoveLimit {
    /// A real clock for each side.
    Clock(TimeControl),
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth N`.
    Depth(u32),
    /// `go movetime MS`.
    MoveTime(Duration),
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

/// An engine's answer to `go`.
struct Reply {
    best: Result<String, ClientError>,
    elapsed: Duration,
    /// The last main-line score it gave, from its own point of view.
    score: Option<Score>,
}

fn start_engine(engine: &MatchEngine, chess960: bool, timeout: Duration) -> Result<UciClient, StartError> {
    let mut spec = engine.spec.clone();
    if chess960 {
        spec.options.push(("UCI_Chess960".to_owned(), "true".to_owned()));
    }
    UciClient::start(&spec, timeout)
}

/// Starts both engines (both are tried, so that each failure is counted); the first failure
/// ends the game before it begins.
fn start_engines(
    engines: [&MatchEngine; 2],
    chess960: bool,
    timeout: Duration,
    incidents: &mut Incidents,
) -> Result<[UciClient; 2], GameEnd> {
    match engines.map(|engine| start_engine(engine, chess960, timeout)) {
        [Ok(white), Ok(black)] => Ok([white, black]),
        started => {
            let mut failure = None;
            for (side, result) in [Color::White, Color::Black].into_iter().zip(started) {
                match result {
                    Ok(client) => client.quit(),
                    Err(e) => {
                        incidents.crashes[side.index()] += 1;
                        failure.get_or_insert(GameEnd::FailedToStart { side, error: e.to_string() });
                    }
                }
            }
            Err(failure.expect("an engine failed to start"))
        }
    }
}

/// Plays one game: `engines[0]` has White.
pub fn play_game(
    engines: [&MatchEngine; 2],
    opening: &Opening,
    limit: &MoveLimit,
    rules: &Adjudication,
    round: &str,
) -> GameRecord {
    let chess960 = opening.start.castling_mode() == CastlingMode::Chess960;
    let mut game = match limit {
        MoveLimit::Clock(control) => Game::with_time_control(opening.start, control.clone()),
        _ => Game::new(opening.start),
    };
    // The opening moves are part of the game but not of anyone's clock.
    let mut clocks_after: Vec<Option<Duration>> = Vec::new();
    for &m in &opening.moves {
        let _ = game.play_timed(m, Duration::ZERO);
        clocks_after.push(None);
    }

    let mut incidents = Incidents::default();
    let end = match start_engines(engines, chess960, rules.hang_timeout, &mut incidents) {
        Ok(mut clients) => {
            let end = play_moves(&mut game, &mut clients, limit, rules, &mut incidents, &mut clocks_after);
            for client in clients {
                client.quit();
            }
            end
        }
        Err(end) => end,
    };
    let pgn = pgn_of(&game, engines, limit, &end, &clocks_after, round);
    GameRecord { end, pgn, incidents }
}

/// Plays the game on until it ends; `clocks_after` gets each move's clock reading.
fn play_moves(
    game: &mut Game,
    clients: &mut [UciClient; 2],
    limit: &MoveLimit,
    rules: &Adjudication,
    incidents: &mut Incidents,
    clocks_after: &mut Vec<Option<Duration>>,
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
        let side = game.position().turn();
        let reply = ask(&mut clients[side.index()], game, limit, rules);
        let score = reply.score;
        if let Some(end) = play_reply(game, reply, rules, incidents, clocks_after) {
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
fn ask(client: &mut UciClient, game: &Game, limit: &MoveLimit, rules: &Adjudication) -> Reply {
    let pos = game.position();
    let side = pos.turn();
    let (limits, timeout) = match (limit, game.clock()) {
        (MoveLimit::Clock(_), Some(clock)) => {
            (Limits::from_clock(clock), clock.remaining(side) + rules.time_margin + Duration::from_millis(50))
        }
        (MoveLimit::Nodes(n), _) => (Limits::nodes(*n), rules.hang_timeout),
        (MoveLimit::Depth(d), _) => (Limits::depth(*d), rules.hang_timeout),
        (MoveLimit::MoveTime(t), _) => (Limits::movetime(*t), *t + rules.hang_timeout),
        (MoveLimit::Clock(_), None) => unreachable!("a clocked game has a clock"),
    };
    let go = go_params(pos, &limits);
    let mut score = None;
    let started = Instant::now();
    let best = client.set_game(game).and_then(|()| {
        client.go(&go, timeout, |info| {
            if info.multipv.unwrap_or(1) == 1 && !info.lowerbound && !info.upperbound {
                if let Some(s) = info.score {
                    score = Some(s);
                }
            }
        })
    });
    Reply { best: best.map(|(best, _)| best), elapsed: started.elapsed(), score }
}

/// Plays the side to move's reply, charging its clock; the ending if the reply lost the game
/// (no answer in time, a crash, an illegal move, a flag fall).
fn play_reply(
    game: &mut Game,
    reply: Reply,
    rules: &Adjudication,
    incidents: &mut Incidents,
    clocks_after: &mut Vec<Option<Duration>>,
) -> Option<GameEnd> {
    let pos = *game.position();
    let side = pos.turn();
    let idx = side.index();
    let best = match reply.best {
        Ok(best) => best,
        Err(ClientError::Timeout { .. }) if game.clock().is_some() => {
            incidents.time_forfeits[idx] += 1;
            let outcome = game.flag(side).expect("the game is still open");
            return Some(GameEnd::flag_fall(side, outcome));
        }
        Err(e) => {
            incidents.crashes[idx] += 1;
            return Some(GameEnd::Crash { side, error: e.to_string() });
        }
    };
    let played = match parse_uci_move(&pos, &best) {
        Ok(m) if !m.is_null() => {
            let charged = match game.clock() {
                Some(clock)
                    if reply.elapsed > clock.remaining(side)
                        && reply.elapsed <= clock.remaining(side) + rules.time_margin =>
                {
                    incidents.oversteps[idx] += 1;
                    clock.remaining(side)
                }
                _ => reply.elapsed,
            };
            game.play_timed(m, charged).map_err(|e| format!("{best} ({e})"))
        }
        _ => Err(best),
    };
    match played {
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
            clocks_after.push(game.clock().map(|c| c.remaining(side)));
            None
        }
        Err(text) => {
            incidents.illegal_moves[idx] += 1;
            Some(GameEnd::IllegalMove { side, text })
        }
    }
}

fn pgn_of(
    game: &Game,
    engines: [&MatchEngine; 2],
    limit: &MoveLimit,
    end: &GameEnd,
    clocks: &[Option<Duration>],
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
    if let MoveLimit::Clock(control) = limit {
        pgn.set_tag("TimeControl", control.to_string());
    }
    // The standard tag value, and the reason in words after the last move (in place of the
    // arbiter's own wording, which a runner-decided ending does not have).
    pgn.set_tag("Termination", termination.to_string());
    pgn.result = Some(Some(result).into());
    pgn.comments.clear();
    for node in &mut pgn.moves {
        node.comments.clear();
    }
    for (node, clock) in pgn.moves.iter_mut().zip(clocks) {
        if let Some(left) = clock {
            // Tenths of a second: the precision a clock display shows.
            let tenths = Duration::from_millis(left.as_millis() as u64 / 100 * 100);
            node.comments.push(format!("[%clk {}]", format_clock(tenths)));
        }
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
