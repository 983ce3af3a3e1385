//! One game between two UCI engines, refereed by `tempo_core::Game` with a real clock
//! measured here (the runner, not the engines, keeps time).

use super::openings::Opening;
use std::time::{Duration, Instant};
use tempo_core::{clock::TimeControl, CastlingMode, Color, Game, GameResult, Outcome, Termination};
use tempo_engine::Limits;
use tempo_notation::{format_clock, parse_uci_move, termination_comment, termination_tag, PgnGame, PgnTermination};
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

/// Game-ending rules the runner applies beyond the Laws of Chess.
#[derive(Clone, Copy, Debug)]
pub struct Adjudication {
    /// Resign when both engines agree a side is this many centipawns down...
    pub resign_score: Option<i32>,
    /// ...for this many consecutive moves each.
    pub resign_moves: u32,
    /// Draw when both scores stay within this many centipawns of zero...
    pub draw_score: Option<i32>,
    /// ...for this many consecutive moves each...
    pub draw_moves: u32,
    /// ...after this full-move number.
    pub draw_after: u32,
    /// Draw after this many full moves in any case.
    pub max_moves: Option<u32>,
    /// Time an engine may overstep its clock without forfeiting (the overstep is counted).
    pub time_margin: Duration,
    /// How long to wait for a move without a clock, and for start-up.
    pub hang_timeout: Duration,
}

/// How a game ended, with the incidents the match report counts.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub result: GameResult,
    pub reason: String,
    pub pgn: PgnGame,
    /// Per colour (White, Black): lost on time, illegal move, crash or hang, clock oversteps
    /// within the margin.
    pub time_forfeits: [u32; 2],
    pub illegal_moves: [u32; 2],
    pub crashes: [u32; 2],
    pub oversteps: [u32; 2],
}

/// A failure of one engine that decides the game against it.
enum Fault {
    Crash(String),
    Illegal(String),
}

fn start_engine(engine: &MatchEngine, chess960: bool, timeout: Duration) -> Result<UciClient, StartError> {
    let mut spec = engine.spec.clone();
    if chess960 {
        spec.options.push(("UCI_Chess960".to_owned(), "true".to_owned()));
    }
    UciClient::start(&spec, timeout)
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
    let mut record = GameRecord {
        result: GameResult::Draw,
        reason: String::new(),
        pgn: PgnGame::default(),
        time_forfeits: [0; 2],
        illegal_moves: [0; 2],
        crashes: [0; 2],
        oversteps: [0; 2],
    };
    // The opening moves are part of the game but not of anyone's clock.
    let mut clocks_after: Vec<Option<Duration>> = Vec::new();
    for &m in &opening.moves {
        let _ = game.play_timed(m, Duration::ZERO);
        clocks_after.push(None);
    }

    let mut clients: [Option<UciClient>; 2] = [None, None];
    let mut outcome: Option<(GameResult, String, PgnTermination)> = None;
    for (i, spec) in engines.iter().enumerate() {
        match start_engine(spec, chess960, rules.hang_timeout) {
            Ok(client) => clients[i] = Some(client),
            Err(e) => {
                record.crashes[i] += 1;
                let loser = if i == 0 { Color::White } else { Color::Black };
                outcome.get_or_insert((
                    GameResult::win_for(!loser),
                    format!("{} failed to start: {e}", spec.name),
                    PgnTermination::Abandoned,
                ));
            }
        }
    }

    // Consecutive moves each side's own score supported resigning / a draw.
    let mut losing_streak = [0u32; 2];
    let mut winning_streak = [0u32; 2];
    let mut draw_streak = [0u32; 2];
    while outcome.is_none() {
        if let Some(o) = game.outcome() {
            outcome = Some((o.result, o.termination.as_str().replace('_', " "), termination_tag(o.termination)));
            break;
        }
        if let Some(claim) = game.claimable_now().first() {
            // The runner claims every draw the rules allow, as tournament managers do.
            let o = game.claim_draw().expect("a claimable draw can be claimed");
            outcome = Some((o.result, claim.as_str().replace('_', " "), PgnTermination::Normal));
            break;
        }
        if let Some(max) = rules.max_moves {
            if game.position().fullmove_number() > max {
                outcome = Some((GameResult::Draw, format!("adjudication: {max} moves"), PgnTermination::Adjudication));
                break;
            }
        }
        let pos = *game.position();
        let side = pos.turn();
        let idx = side.index();
        let client = clients[idx].as_mut().expect("both engines started");
        let (limits, timeout) = match (limit, game.clock()) {
            (MoveLimit::Clock(_), Some(clock)) => {
                (Limits::from_clock(clock), clock.remaining(side) + rules.time_margin + Duration::from_millis(50))
            }
            (MoveLimit::Nodes(n), _) => (Limits::nodes(*n), rules.hang_timeout),
            (MoveLimit::Depth(d), _) => (Limits::depth(*d), rules.hang_timeout),
            (MoveLimit::MoveTime(t), _) => (Limits::movetime(*t), *t + rules.hang_timeout),
            (MoveLimit::Clock(_), None) => unreachable!("a clocked game has a clock"),
        };
        let go = go_params(&pos, &limits);
        let mut last_score = None;
        let started = Instant::now();
        let reply = client.set_game(&game).and_then(|()| {
            client.go(&go, timeout, |info| {
                if info.multipv.unwrap_or(1) == 1 && !info.lowerbound && !info.upperbound {
                    if let Some(score) = info.score {
                        last_score = Some(score.centipawns());
                    }
                }
            })
        });
        let elapsed = started.elapsed();
        let fault = match reply {
            Ok((best, _)) => match parse_uci_move(&pos, &best) {
                Ok(m) if !m.is_null() => {
                    let charged = match game.clock() {
                        Some(clock)
                            if elapsed > clock.remaining(side)
                                && elapsed <= clock.remaining(side) + rules.time_margin =>
                        {
                            record.oversteps[idx] += 1;
                            clock.remaining(side)
                        }
                        _ => elapsed,
                    };
                    match game.play_timed(m, charged) {
                        Ok(Some(o))
                            if o.termination == Termination::TimeForfeit
                                || o.termination == Termination::TimeoutVsInsufficientMaterial =>
                        {
                            if o.termination == Termination::TimeForfeit {
                                record.time_forfeits[idx] += 1;
                            }
                            outcome = Some((o.result, flag_text(&engines[idx].name, o), PgnTermination::TimeForfeit));
                            None
                        }
                        Ok(_) => {
                            clocks_after.push(game.clock().map(|c| c.remaining(side)));
                            None
                        }
                        Err(e) => Some(Fault::Illegal(format!("{best} ({e})"))),
                    }
                }
                _ => Some(Fault::Illegal(best)),
            },
            Err(ClientError::Timeout { .. }) if game.clock().is_some() => {
                record.time_forfeits[idx] += 1;
                let o: Outcome = game.flag(side).expect("the game is still open");
                outcome = Some((o.result, flag_text(&engines[idx].name, o), PgnTermination::TimeForfeit));
                None
            }
            Err(e) => Some(Fault::Crash(e.to_string())),
        };
        if let Some(fault) = fault {
            let (text, tag) = match fault {
                Fault::Illegal(m) => {
                    record.illegal_moves[idx] += 1;
                    (format!("{} played an illegal move: {m}", engines[idx].name), PgnTermination::RulesInfraction)
                }
                Fault::Crash(e) => {
                    record.crashes[idx] += 1;
                    (format!("{} crashed or hung: {e}", engines[idx].name), PgnTermination::Abandoned)
                }
            };
            outcome = Some((GameResult::win_for(!side), text, tag));
            break;
        }

        // Adjudication by the engines' own evaluations (each from its side's view).
        if let Some(score) = last_score {
            losing_streak[idx] = match rules.resign_score {
                Some(limit) if score <= -limit => losing_streak[idx] + 1,
                _ => 0,
            };
            winning_streak[idx] = match rules.resign_score {
                Some(limit) if score >= limit => winning_streak[idx] + 1,
                _ => 0,
            };
            draw_streak[idx] = match rules.draw_score {
                Some(limit) if score.abs() <= limit && pos.fullmove_number() >= rules.draw_after => {
                    draw_streak[idx] + 1
                }
                _ => 0,
            };
        } else {
            losing_streak[idx] = 0;
            winning_streak[idx] = 0;
            draw_streak[idx] = 0;
        }
        if game.outcome().is_none() && outcome.is_none() {
            let other = 1 - idx;
            // Both engines must agree: the mover sees itself lost, its opponent sees itself won.
            if rules.resign_score.is_some()
                && losing_streak[idx] >= rules.resign_moves
                && winning_streak[other] >= rules.resign_moves
            {
                outcome = Some((
                    GameResult::win_for(!side),
                    format!("adjudication: {} resigns", engines[idx].name),
                    PgnTermination::Adjudication,
                ));
            } else if rules.draw_score.is_some()
                && draw_streak[idx] >= rules.draw_moves
                && draw_streak[other] >= rules.draw_moves
            {
                outcome = Some((GameResult::Draw, "adjudication: draw".to_owned(), PgnTermination::Adjudication));
            }
        }
    }

    for client in clients.into_iter().flatten() {
        client.quit();
    }
    let (result, reason, tag) = outcome.expect("the loop ends with an outcome");
    record.result = result;
    record.reason = reason;
    record.pgn = pgn_of(&game, engines, limit, result, (&record.reason, tag), &clocks_after, round);
    record
}

fn pgn_of(
    game: &Game,
    engines: [&MatchEngine; 2],
    limit: &MoveLimit,
    result: GameResult,
    (reason, termination): (&str, PgnTermination),
    clocks: &[Option<Duration>],
    round: &str,
) -> PgnGame {
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
        _ => reason.to_owned(),
    };
    match pgn.moves.last_mut() {
        Some(last) => last.comments.push(words),
        None => pgn.comments.push(words),
    }
    pgn
}

/// How a flag fall ended the game, in words.
fn flag_text(name: &str, outcome: Outcome) -> String {
    if outcome.result == GameResult::Draw {
        format!("{name} ran out of time, but the opponent cannot checkmate: draw")
    } else {
        format!("{name} lost on time")
    }
}
