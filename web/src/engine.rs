//! `WebEngine`: the engine in the page's Web Worker. A browser gives WebAssembly no threads
//! (wasm32-unknown-unknown), so the search runs synchronously on the worker's thread through
//! [`Engine::search`] and reports each event as it comes, through the worker's global
//! `tempoEngineEvent` function. Nothing can reach the busy worker to call `stop`, so the
//! page stops a search by terminating the worker and starting a fresh one, playing the best
//! move of the latest `info` (see `www/engine.js`): the only cost is the hash table, which a
//! new game clears anyway, and it needs no change to the search.

use crate::error::WebError;
use crate::game::parse_fen;
use crate::json;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tempo_core::{Move, Position, Score};
use tempo_engine::{run_bench_with, Engine, EngineOption, Evaluator, Event, Limits, MAX_ELO, MIN_ELO};
use tempo_notation::{parse_uci_move, san};
use wasm_bindgen::prelude::wasm_bindgen;

/// The strongest level, as in `tempo --level`: full strength, no limiter.
pub const MAX_LEVEL: u8 = 10;

/// The strength limiter's Elo for `level` (1..=[`MAX_LEVEL`]), as `tempo` maps its levels
/// (`level_elo` in cli/src/players.rs): 1000 at level 1, 200 more a level; the top level
/// searches without the limiter.
pub fn level_elo(level: u8) -> Option<u32> {
    (level < MAX_LEVEL).then(|| (MIN_ELO + 200 * u32::from(level.saturating_sub(1))).min(MAX_ELO))
}

/// Lines the engine searches below full strength: the limiter picks among them, as in `tempo`.
const LIMITED_LINES: usize = 4;

#[wasm_bindgen]
extern "C" {
    /// The worker's event sink: `tempoEngineEvent(json)`, defined by `www/worker.js`.
    #[wasm_bindgen(js_name = tempoEngineEvent)]
    fn tempo_engine_event(json: &str);
}

/// What the page asks a search to respect; absent fields are no limit. Times in ms.
#[derive(Deserialize, Default, Debug)]
#[serde(deny_unknown_fields)]
struct LimitsRequest {
    movetime: Option<u64>,
    wtime: Option<u64>,
    btime: Option<u64>,
    winc: Option<u64>,
    binc: Option<u64>,
    movestogo: Option<u32>,
    depth: Option<u32>,
    nodes: Option<u64>,
}

impl LimitsRequest {
    fn limits(&self) -> Limits {
        let ms = |t: Option<u64>| t.map(Duration::from_millis);
        Limits {
            movetime: ms(self.movetime),
            wtime: ms(self.wtime),
            btime: ms(self.btime),
            winc: ms(self.winc),
            binc: ms(self.binc),
            movestogo: self.movestogo,
            depth: self.depth,
            nodes: self.nodes,
            ..Limits::default()
        }
    }
}

/// One event of a search, as the page reads it.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum EventJson {
    Info {
        depth: u32,
        seldepth: u32,
        multipv: u32,
        /// `+0.35`, `#-2`: the side to move's view, as `tempo` writes scores.
        score: String,
        /// White's view in centipawns (a mate counts as [`Score::MATE_CENTIPAWNS`] less the
        /// moves to it): the evaluation bar.
        white_cp: i32,
        nodes: u64,
        nps: u64,
        time_ms: u64,
        pv: Vec<String>,
        pv_san: Vec<String>,
    },
    Bestmove {
        best: Option<String>,
        ponder: Option<String>,
    },
}

/// The engine, its options and its hash table, kept between searches.
#[wasm_bindgen]
pub struct WebEngine {
    engine: Engine,
}

#[wasm_bindgen]
impl WebEngine {
    /// An engine at full strength with the built-in network.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)] // a JavaScript constructor, not a Rust value type
    pub fn new() -> WebEngine {
        WebEngine { engine: Engine::new() }
    }

    /// Sets the strength (`level` 1..=10 as in `tempo`), the lines to report (MultiPV) and
    /// Chess960 castling.
    ///
    /// # Errors
    /// [`WebError::Engine`] for a level outside 1..=10 or an option the engine refuses.
    pub fn configure(&mut self, level: u8, lines: u32, chess960: bool) -> Result<(), WebError> {
        if !(1..=MAX_LEVEL).contains(&level) {
            return Err(WebError::Engine(format!("levels run from 1 to {MAX_LEVEL}, not {level}")));
        }
        let mut options = vec![EngineOption::Chess960(chess960), EngineOption::LimitStrength(level < MAX_LEVEL)];
        let mut lines = lines.max(1) as usize;
        if let Some(elo) = level_elo(level) {
            options.push(EngineOption::Elo(elo));
            lines = lines.max(LIMITED_LINES);
        }
        options.push(EngineOption::MultiPv(lines));
        for option in options {
            self.engine.set_option(option).map_err(|e| WebError::Engine(e.to_string()))?;
        }
        Ok(())
    }

    /// Searches the position after `moves` (UCI) from `start_fen` within `limits_json`
    /// (`{"movetime": ms}`, clock times, `depth`, `nodes`), calling the worker's
    /// `tempoEngineEvent` with each event's JSON; the last is `bestmove`.
    ///
    /// # Errors
    /// [`WebError::Fen`], [`WebError::Move`] or [`WebError::Engine`] for a request that names
    /// no position or no limits; no search runs then.
    pub fn search(&mut self, start_fen: &str, moves: Vec<String>, limits_json: &str) -> Result<(), WebError> {
        self.search_with(start_fen, &moves, limits_json, |json| tempo_engine_event(&json))
    }

    /// The built-in network's static evaluation of `fen` in centipawns, for the side to move.
    ///
    /// # Errors
    /// [`WebError::Fen`] for a FEN that is no legal position.
    pub fn evaluate(&mut self, fen: &str) -> Result<i32, WebError> {
        let pos = parse_fen(fen)?;
        Ok(Evaluator::embedded().evaluate(&pos))
    }

    /// The engine's fixed bench (`tempo-uci bench`'s positions) to `depth`, single-threaded
    /// with a 16 MiB table: `{"nodes": N, "ms": T}`. At the default depth its node count is the
    /// engine's signature, the same in every build.
    pub fn bench(&mut self, depth: u32) -> String {
        let report = run_bench_with(depth, 16, &Evaluator::embedded(), |_, _| {});
        serde_json::json!({ "nodes": report.nodes, "ms": report.elapsed.as_secs_f64() * 1000.0 }).to_string()
    }
}

impl WebEngine {
    /// [`WebEngine::search`] with any event sink (native tests pass a closure).
    ///
    /// # Errors
    /// As [`WebEngine::search`].
    pub fn search_with(
        &mut self,
        start_fen: &str,
        moves: &[String],
        limits_json: &str,
        mut on_event: impl FnMut(String) + Send,
    ) -> Result<(), WebError> {
        let request: LimitsRequest = serde_json::from_str(limits_json)
            .map_err(|e| WebError::Engine(format!("invalid search limits {limits_json:?}: {e}")))?;
        let start = parse_fen(start_fen)?;
        let mut pos = start;
        let mut played = Vec::with_capacity(moves.len());
        for text in moves {
            let m = parse_uci_move(&pos, text)
                .map_err(|e| WebError::Move(format!("move {text:?} cannot be played: {e}")))?;
            pos.play_unchecked(m);
            played.push(m);
        }
        self.engine.set_position(start, &played).map_err(|e| WebError::Engine(e.to_string()))?;
        let root = pos;
        let mode = root.castling_mode();
        let uci = move |m: Move| m.to_uci(mode);
        self.engine
            .search(request.limits(), |event| {
                let event = match event {
                    Event::Info(info) => {
                        let white_cp = match root.turn() {
                            tempo_core::Color::White => info.score.centipawns(),
                            tempo_core::Color::Black => (-info.score).centipawns(),
                        };
                        EventJson::Info {
                            depth: info.depth,
                            seldepth: info.seldepth,
                            multipv: info.multipv,
                            score: score_text(info.score),
                            white_cp,
                            nodes: info.nodes,
                            nps: info.nps,
                            time_ms: info.time.as_millis() as u64,
                            pv: info.pv.iter().map(|&m| uci(m)).collect(),
                            pv_san: san_line(&root, &info.pv),
                        }
                    }
                    // The page sets no tablebase, so no probe can fail.
                    Event::CurrMove { .. } | Event::TablebaseError(_) => return,
                    Event::BestMove { best, ponder } => {
                        EventJson::Bestmove { best: best.map(uci), ponder: ponder.map(uci) }
                    }
                };
                on_event(json(&event));
            })
            .map_err(|e| WebError::Engine(e.to_string()))
    }
}

/// `tempo`'s way of writing a score: `+0.35`, `-1.20`, `#3`, `#-2`.
fn score_text(score: Score) -> String {
    score.to_string()
}

/// A principal variation in SAN from `root` (stopping at a move that is not legal, which a
/// PV from the hash table cannot contain, but text is no place to panic).
fn san_line(root: &Position, pv: &[Move]) -> Vec<String> {
    let mut pos = *root;
    let mut line = Vec::with_capacity(pv.len());
    for &m in pv {
        if !pos.is_legal(m) {
            break;
        }
        line.push(san(&pos, m));
        pos.play_unchecked(m);
    }
    line
}
