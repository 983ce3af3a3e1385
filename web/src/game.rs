//! `WebGame`: a game on the page's board, core's arbiter (`Game`) behind text in and out:
//! moves in UCI or SAN, FEN and PGN, the clock, every ending with its reason.

use crate::error::{chain, WebError};
use crate::json;
use serde::Serialize;
use std::time::Duration;
use tempo_core::clock::{TimeControl, TimeUnit};
use tempo_core::{CastlingMode, Color, Game, Move, Position};
use tempo_notation::{pgn_string, read_typed_move, san, PgnGame, PgnReader};
use wasm_bindgen::prelude::wasm_bindgen;

/// A game: its start, its moves, its clock and how it ended.
#[wasm_bindgen]
pub struct WebGame {
    game: Game,
    /// Tags of a loaded PGN other than those the game itself decides (players, event...).
    tags: Vec<(String, String)>,
}

/// One legal move, as the board needs it.
#[derive(Serialize)]
struct LegalMove {
    /// UCI in the game's castling notation (`e1g1`, or king takes rook in Chess960).
    uci: String,
    san: String,
    from: String,
    /// Where the piece lands (the king's square for castling).
    to: String,
    /// The castling rook's square: clicking it also castles (the Chess960 way).
    rook: Option<String>,
    /// `q`, `r`, `b` or `n` for a promotion.
    promotion: Option<char>,
}

/// The state of play, for the page's status line and buttons.
#[derive(Serialize)]
struct Status {
    turn: &'static str,
    /// The king in check, if any.
    check: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` once the game is over.
    result: Option<&'static str>,
    /// How it ended, in words (`checkmate`, `insufficient material`...).
    reason: Option<String>,
    /// The whole ending as `tempo` prints it: `1/2-1/2 (insufficient material)`.
    outcome: Option<String>,
    /// Draws the side to move may claim now (`threefold repetition`, `fifty-move rule`).
    claimable: Vec<&'static str>,
    /// The side whose draw offer stands.
    draw_offer: Option<&'static str>,
    /// Milliseconds left on each clock, white then black, with a timed control.
    clock: Option<[u64; 2]>,
    /// The time control as the PGN tag writes it.
    time_control: Option<String>,
    ply: usize,
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_color(text: &str) -> Result<Color, WebError> {
    match text {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(WebError::Game(format!("{text:?} is no colour: use white or black"))),
    }
}

/// Reads a FEN as `tempo` reads its FEN argument (`parse_fen_arg`): standard chess, or
/// Chess960 castling when the standard reading fails; the error is the standard reader's.
///
/// # Errors
/// [`WebError::Fen`]: `invalid FEN "...": ` and the field that is wrong.
pub fn parse_fen(fen: &str) -> Result<Position, WebError> {
    Position::from_fen(fen, CastlingMode::Standard)
        .or_else(|e| Position::from_fen(fen, CastlingMode::Chess960).map_err(|_| e))
        .map_err(|e| WebError::Fen(chain(&format!("invalid FEN {fen:?}"), &e)))
}

/// The Chess960 start position `number` (0..=959) in Scharnagl's numbering, as `tempo
/// --chess960 N` sets it up.
///
/// # Errors
/// [`WebError::Game`] for a number above 959.
pub fn chess960_position(number: u32) -> Result<Position, WebError> {
    Position::chess960(number)
        .ok_or_else(|| WebError::Game(format!("Chess960 positions are numbered 0 to 959, not {number}")))
}

/// Reads the first game of PGN text and replays it through the arbiter, as `tempo` loads a
/// saved game.
///
/// # Errors
/// [`WebError::Pgn`]: no game in the text, a game that cannot be read (with game, line and
/// column), or a main line the arbiter refuses.
pub fn parse_pgn(text: &str) -> Result<(Game, PgnGame), WebError> {
    let pgn = match PgnReader::new(text.as_bytes()).games().next() {
        None => return Err(WebError::Pgn("the text holds no game".to_owned())),
        Some(Err(e)) => return Err(WebError::Pgn(chain("the game cannot be read", &e))),
        Some(Ok(pgn)) => pgn,
    };
    let game = pgn.to_game().map_err(|e| WebError::Pgn(chain("the game cannot be replayed", &e)))?;
    Ok((game, pgn))
}

/// Tags the game decides itself when it is written, so a loaded game's values are not kept.
const DERIVED_TAGS: &[&str] = &["Result", "SetUp", "FEN", "Variant", "Termination", "TimeControl"];

#[wasm_bindgen]
impl WebGame {
    /// A game from the standard start position, without a clock.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)] // a JavaScript constructor, not a Rust value type
    pub fn new() -> WebGame {
        WebGame { game: Game::new(Position::startpos()), tags: Vec::new() }
    }

    /// A game from a FEN (standard or Chess960 castling).
    ///
    /// # Errors
    /// See [`parse_fen`].
    #[wasm_bindgen(js_name = fromFen)]
    pub fn from_fen(fen: &str) -> Result<WebGame, WebError> {
        Ok(WebGame { game: Game::new(parse_fen(fen)?), tags: Vec::new() })
    }

    /// A game from Chess960 start position `number` (0..=959).
    ///
    /// # Errors
    /// See [`chess960_position`].
    #[wasm_bindgen(js_name = chess960)]
    pub fn chess960(number: u32) -> Result<WebGame, WebError> {
        Ok(WebGame { game: Game::new(chess960_position(number)?), tags: Vec::new() })
    }

    /// The first game of PGN text, its moves replayed; its players and other tags are kept for
    /// the export.
    ///
    /// # Errors
    /// See [`parse_pgn`].
    #[wasm_bindgen(js_name = fromPgn)]
    pub fn from_pgn(text: &str) -> Result<WebGame, WebError> {
        let (game, pgn) = parse_pgn(text)?;
        let tags = pgn.tags.into_iter().filter(|(name, _)| !DERIVED_TAGS.contains(&name.as_str())).collect();
        Ok(WebGame { game, tags })
    }

    /// The same start position and moves under time control `text`, as `tempo --tc` reads it
    /// (`5+3` minutes and seconds, `10m`, `1/30` for 30 seconds a move); the clocks start
    /// full. An empty text removes the clock.
    ///
    /// # Errors
    /// [`WebError::TimeControl`] for text that is no time control; [`WebError::Game`] if the
    /// moves cannot be replayed (never for a game this type built).
    #[wasm_bindgen(js_name = withTimeControl)]
    pub fn with_time_control(&self, text: &str) -> Result<WebGame, WebError> {
        let start = *self.game.initial_position();
        let mut game = if text.trim().is_empty() {
            Game::new(start)
        } else {
            let control = TimeControl::parse_with_units(text, TimeUnit::Minutes)
                .map_err(|e| WebError::TimeControl(chain("invalid time control", &e)))?;
            Game::with_time_control(start, control)
        };
        for &m in self.game.moves() {
            game.play(m).map_err(|e| WebError::Game(e.to_string()))?;
        }
        Ok(WebGame { game, tags: self.tags.clone() })
    }

    /// The current position's FEN (Shredder-FEN castling in Chess960).
    pub fn fen(&self) -> String {
        self.game.position().fen()
    }

    /// The start position's FEN.
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.game.initial_position().fen()
    }

    /// `true` when castling is written the Chess960 way.
    #[wasm_bindgen(js_name = isChess960)]
    pub fn is_chess960(&self) -> bool {
        self.game.initial_position().castling_mode() == CastlingMode::Chess960
    }

    /// The FEN after each ply, the start first: the move list's navigation.
    pub fn fens(&self) -> Vec<String> {
        let mut pos = *self.game.initial_position();
        let mut fens = vec![pos.fen()];
        for &m in self.game.moves() {
            pos.play_unchecked(m);
            fens.push(pos.fen());
        }
        fens
    }

    /// The moves played, in SAN.
    #[wasm_bindgen(js_name = sanMoves)]
    pub fn san_moves(&self) -> Vec<String> {
        let mut pos = *self.game.initial_position();
        self.game
            .moves()
            .iter()
            .map(|&m| {
                let text = san(&pos, m);
                pos.play_unchecked(m);
                text
            })
            .collect()
    }

    /// The moves played, in UCI in the game's castling notation (what the engine is sent).
    #[wasm_bindgen(js_name = uciMoves)]
    pub fn uci_moves(&self) -> Vec<String> {
        let mode = self.game.initial_position().castling_mode();
        self.game.moves().iter().map(|m| m.to_uci(mode)).collect()
    }

    /// The legal moves as a JSON array of `{uci, san, from, to, rook, promotion}` (none once
    /// the game is over).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> String {
        let pos = self.game.position();
        let mode = pos.castling_mode();
        let moves: Vec<LegalMove> = if self.game.outcome().is_some() {
            Vec::new()
        } else {
            pos.legal_moves()
                .iter()
                .map(|&m| {
                    // `Display` writes castling as the king's move, whatever the mode.
                    let king_style = m.to_string();
                    LegalMove {
                        uci: m.to_uci(mode),
                        san: san(pos, m),
                        from: king_style[0..2].to_owned(),
                        to: king_style[2..4].to_owned(),
                        rook: m.is_castle().then(|| m.to().to_string()),
                        promotion: m.promotion_role().map(|role| role.char()),
                    }
                })
                .collect()
        };
        json(&moves)
    }

    /// Plays a move typed in SAN (leniently, as `tempo`'s prompt reads it) or UCI, which took
    /// `elapsed_ms` on the clock beyond what [`WebGame::tick`] charged; returns its SAN.
    ///
    /// # Errors
    /// [`WebError::Move`] for text that is no legal move, with the reason an illegal one is
    /// refused; [`WebError::Game`] once the game is over. The game is unchanged then.
    pub fn play(&mut self, text: &str, elapsed_ms: f64) -> Result<String, WebError> {
        let pos = *self.game.position();
        let m = self.find_move(&pos, text)?;
        let text = san(&pos, m);
        self.game.play_timed(m, millis(elapsed_ms)).map_err(|e| WebError::Game(e.to_string()))?;
        Ok(text)
    }

    /// Charges `elapsed_ms` to the side to move; `true` if its flag fell (the game is over then,
    /// lost or drawn on time as the Laws say). Nothing happens without a clock.
    pub fn tick(&mut self, elapsed_ms: f64) -> bool {
        let timed = self.game.clock().is_some_and(|c| c.control().is_timed());
        timed && self.game.outcome().is_none() && matches!(self.game.tick(millis(elapsed_ms)), Ok(Some(_)))
    }

    /// Takes back the last move (and its time).
    ///
    /// # Errors
    /// [`WebError::Game`] when no move was played.
    pub fn undo(&mut self) -> Result<(), WebError> {
        self.game.undo().map(drop).map_err(|e| WebError::Game(e.to_string()))
    }

    /// `color` (`white` or `black`) resigns.
    ///
    /// # Errors
    /// [`WebError::Game`] once the game is over, or for a colour that is none.
    pub fn resign(&mut self, color: &str) -> Result<(), WebError> {
        let color = parse_color(color)?;
        self.game.resign(color).map(drop).map_err(|e| WebError::Game(e.to_string()))
    }

    /// `color` offers a draw (it stands until the opponent moves).
    ///
    /// # Errors
    /// As [`WebGame::resign`].
    #[wasm_bindgen(js_name = offerDraw)]
    pub fn offer_draw(&mut self, color: &str) -> Result<(), WebError> {
        let color = parse_color(color)?;
        self.game.offer_draw(color).map(drop).map_err(|e| WebError::Game(e.to_string()))
    }

    /// `color` accepts the standing draw offer.
    ///
    /// # Errors
    /// [`WebError::Game`] when no offer stands for `color` to answer.
    #[wasm_bindgen(js_name = acceptDraw)]
    pub fn accept_draw(&mut self, color: &str) -> Result<(), WebError> {
        let color = parse_color(color)?;
        self.game.accept_draw(color).map(drop).map_err(|e| WebError::Game(e.to_string()))
    }

    /// The side to move claims a draw (threefold repetition or the fifty-move rule).
    ///
    /// # Errors
    /// [`WebError::Game`] when no draw can be claimed.
    #[wasm_bindgen(js_name = claimDraw)]
    pub fn claim_draw(&mut self) -> Result<(), WebError> {
        self.game.claim_draw().map(drop).map_err(|e| WebError::Game(e.to_string()))
    }

    /// The state of play as JSON (see `Status`).
    pub fn status(&self) -> String {
        let pos = self.game.position();
        let outcome = self.game.outcome();
        let clock = self.game.clock().filter(|c| c.control().is_timed());
        json(&Status {
            turn: color_name(pos.turn()),
            check: pos.is_check().then(|| pos.king_of(pos.turn()).to_string()),
            result: outcome.map(|o| o.result.as_str()),
            reason: outcome.map(|o| o.termination.words().to_owned()),
            outcome: outcome.map(|o| o.to_string()),
            claimable: if outcome.is_some() {
                Vec::new()
            } else {
                self.game.claimable_now().iter().map(|c| c.termination().words()).collect()
            },
            draw_offer: self.game.draw_offer().map(color_name),
            clock: clock.map(|c| [Color::White, Color::Black].map(|color| c.remaining(color).as_millis() as u64)),
            time_control: clock.map(|c| c.control().to_string()),
            ply: self.game.moves().len(),
        })
    }

    /// The search limits for the engine to move now, as JSON for the worker: the clock's
    /// times, a fixed move time less a margin for the page's round trip (as `tempo` leaves
    /// one), or `default_ms` a move without a clock.
    #[wasm_bindgen(js_name = engineLimits)]
    pub fn engine_limits(&self, default_ms: u32) -> String {
        let clock = self.game.clock().filter(|c| c.control().is_timed());
        let ms = |d: Duration| d.as_millis() as u64;
        let value = match clock.map(|c| (c, c.control())) {
            None => serde_json::json!({ "movetime": default_ms }),
            Some((_, TimeControl::MoveTime(limit))) => {
                let margin = (*limit / 10).clamp(Duration::from_millis(50), Duration::from_millis(300)).min(*limit / 2);
                serde_json::json!({ "movetime": ms(limit.saturating_sub(margin)) })
            }
            Some((c, _)) => serde_json::json!({
                "wtime": ms(c.remaining(Color::White)),
                "btime": ms(c.remaining(Color::Black)),
                "winc": ms(c.increment(Color::White)),
                "binc": ms(c.increment(Color::Black)),
                "movestogo": c.moves_to_go(c.turn()),
            }),
        };
        value.to_string()
    }

    /// The game in PGN export format, with the players' names (loaded tags kept otherwise).
    pub fn pgn(&self, white: &str, black: &str) -> String {
        let mut pgn = PgnGame::from_game(&self.game);
        for (name, value) in &self.tags {
            pgn.set_tag(name, value.clone());
        }
        pgn.set_tag("White", white);
        pgn.set_tag("Black", black);
        pgn_string(&pgn)
    }

    /// The players' names a loaded PGN gave, `[white, black]` (`?` when unknown).
    pub fn players(&self) -> Vec<String> {
        ["White", "Black"]
            .iter()
            .map(|side| self.tags.iter().find(|(n, _)| n == side).map_or("?".to_owned(), |(_, v)| v.clone()))
            .collect()
    }

    /// Perft of the current position to `depth` (the page's move generation benchmark).
    pub fn perft(&self, depth: u32) -> f64 {
        tempo_core::perft::perft(self.game.position(), depth) as f64
    }
}

impl WebGame {
    /// The game's arbiter.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn find_move(&self, pos: &Position, text: &str) -> Result<Move, WebError> {
        if let Some(outcome) = self.game.outcome() {
            return Err(WebError::Game(format!("the game is over: {outcome}")));
        }
        read_typed_move(pos, text).map_err(|e| WebError::Move(e.to_string()))
    }
}

fn millis(ms: f64) -> Duration {
    Duration::from_secs_f64((ms.max(0.0)) / 1000.0)
}
