//! `tempo analyze`: the built-in engine's best lines for a position, in SAN with scores.

use anyhow::Result;
use serde_json::json;
use std::time::{Duration, Instant};
use tempo_core::{Game, Score};
use tempo_notation::{san, san_line, uci_move};

use crate::args::AnalyzeArgs;
use crate::describe::format_line;
use crate::players::EnginePlayer;
use tempo_engine::Limits;

/// Search time when neither a depth nor a time is given.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(3);

/// Runs `tempo analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<i32> {
    let pos = args.source()?.position(args.game)?;
    let limits = match (args.depth, args.movetime) {
        (Some(depth), _) => Limits { depth: Some(depth), ..Limits::default() },
        (None, time) => Limits { movetime: Some(time.unwrap_or(DEFAULT_MOVETIME)), ..Limits::default() },
    };
    let chess960 = pos.castling_mode() == tempo_core::CastlingMode::Chess960;
    let game = Game::new(pos);
    let started = Instant::now();
    let (lines, best) = if pos.legal_moves().is_empty() {
        (Vec::new(), None)
    } else {
        let mut engine = EnginePlayer::analyst(args.multipv, args.threads, chess960)?;
        engine.search(&game, &limits)?
    };
    let elapsed = started.elapsed();
    let tablebase = args.tb.as_deref().map(|folders| crate::tablebase::probe(folders, &pos)).transpose()?;
    if args.json {
        let lines: Vec<_> = lines
            .iter()
            .map(|l| {
                let score = match l.eval {
                    Score::Cp(cp) => json!({ "cp": cp }),
                    Score::Mate(n) => json!({ "mate": n }),
                };
                let mut at = pos;
                let uci: Vec<String> =
                    l.pv.iter()
                        .map(|&m| {
                            let text = uci_move(&at, m);
                            at.play_unchecked(m);
                            text
                        })
                        .collect();
                json!({
                    "multipv": l.multipv,
                    "depth": l.depth,
                    "score": score,
                    "nodes": l.nodes,
                    "pv_san": san_line(&pos, &l.pv),
                    "pv_uci": uci,
                })
            })
            .collect();
        let mut out = json!({
            "fen": pos.fen(),
            "bestmove": best.map(|m| san(&pos, m)),
            "bestmove_uci": best.map(|m| uci_move(&pos, m)),
            "lines": lines,
            // The limit searched under, so that a script sees what --movetime meant.
            "movetime_ms": limits.movetime.map(|t| t.as_millis() as u64),
            "time_ms": elapsed.as_millis() as u64,
        });
        if let Some(verdict) = &tablebase {
            out["tablebase"] = verdict.json();
        }
        outln!("{out}")?;
        return Ok(0);
    }
    outln!("FEN: {}", pos.fen())?;
    if let Some(verdict) = &tablebase {
        outln!("{}", verdict.sentence())?;
    }
    if best.is_none() {
        let why = if pos.is_checkmate() { "checkmate" } else { "stalemate" };
        outln!("No legal move: {why}.")?;
        return Ok(0);
    }
    let side = if pos.turn() == tempo_core::Color::White { "White" } else { "Black" };
    outln!("{side} to move; scores are {side}'s, in pawns (#N: mate in N moves).")?;
    for line in &lines {
        outln!("{}", format_line(&pos, line, 16))?;
    }
    let nodes = lines.iter().map(|l| l.nodes).max().unwrap_or(0);
    if let Some(m) = best {
        outln!("Best move: {} ({} nodes, {:.1} s)", san(&pos, m), nodes, elapsed.as_secs_f64())?;
    }
    Ok(0)
}
