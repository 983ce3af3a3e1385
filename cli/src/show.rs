//! `tempo show`: a position's diagram and status, as text or JSON.

use anyhow::Result;
use serde_json::json;
use tempo_core::{game::ClaimableDraw, Color, Game};
use tempo_notation::{san, san_line, PgnResult};

use crate::args::ShowArgs;
use crate::board_view::{render_board, BoardStyle, Highlights};
use crate::describe::{claims_with_move, describe_outcome, either, numbered};
use crate::save;
use crate::screen::capabilities;
use crate::start::Source;

/// The status of the game's current position: a stable name and, if over, the result.
fn status(game: &Game) -> (&'static str, &'static str) {
    match game.outcome() {
        Some(outcome) => (outcome.termination.as_str(), outcome.result.as_str()),
        None if game.position().is_check() => ("check", "*"),
        None => ("ongoing", "*"),
    }
}

fn side(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

/// Runs `tempo show`.
pub fn run(args: &ShowArgs) -> Result<i32> {
    let source = args.source()?;
    let (game, pgn_result) = match &source {
        Source::Pgn(path) => {
            let loaded = save::load(path, args.game.map_or(save::Pick::Last, save::Pick::Number), None)?;
            (loaded.game, loaded.result)
        }
        other => (Game::new(other.position(args.game)?), None),
    };
    let pos = *game.position();
    let (mut status, mut result) = status(&game);
    if let Some(r) = pgn_result {
        result = r.as_str();
        // Ended off the board (resignation, agreement, a claim, time): the file says so.
        if game.outcome().is_none() {
            status = "finished";
        }
    }
    let claimable: Vec<&str> = game.claimable_now().iter().map(|c| c.as_str()).collect();
    let pos_now = *game.position();
    let claimable_with_move: Vec<serde_json::Value> = game
        .claimable()
        .iter()
        .filter_map(|c| match c {
            ClaimableDraw::WithMove { claim, moves } => Some(json!({
                "claim": claim.as_str(),
                "moves": moves.iter().map(|&m| san(&pos_now, m)).collect::<Vec<_>>(),
            })),
            ClaimableDraw::Now(_) => None,
        })
        .collect();
    let moves = san_line(game.initial_position(), game.moves());
    let tablebase = args.tb.as_deref().map(|folders| crate::tablebase::probe(folders, &pos)).transpose()?;
    if args.json {
        let mut out = json!({
            "fen": pos.fen(),
            "turn": side(pos.turn()),
            "check": pos.is_check(),
            "status": status,
            "result": result,
            "legal_moves": pos.legal_moves().len(),
            "claimable": claimable,
            "claimable_with_move": claimable_with_move,
        });
        if matches!(source, Source::Pgn(_)) {
            out["moves"] = json!(moves);
        }
        // A draw on a proof that a side can never mate (a dead position, both sides; a flag
        // fall, the opponent): the proof in words, so a reader sees why.
        let proofs = [Color::White, Color::Black].map(|c| game.cannot_mate(c).map(|why| why.to_string()));
        if proofs.iter().any(Option::is_some) {
            out["cannot_mate"] = json!({"white": proofs[0], "black": proofs[1]});
        }
        if let Some(verdict) = &tablebase {
            out["tablebase"] = verdict.json();
        }
        outln!("{out}")?;
        return Ok(0);
    }
    let caps = capabilities();
    let style = BoardStyle { unicode: !args.ascii && caps.unicode, colour: caps.colour.unless(args.no_color) };
    for line in render_board(&pos, style, args.flip, &Highlights::of(&pos, game.moves().last().copied())) {
        outln!("{line}")?;
    }
    outln!()?;
    if !moves.is_empty() {
        outln!("Moves: {}", numbered(game.initial_position(), &moves))?;
    }
    outln!("FEN: {}", pos.fen())?;
    outln!("{}", describe_position(&game, pgn_result))?;
    if let Some(verdict) = &tablebase {
        outln!("{}", verdict.sentence())?;
    }
    Ok(0)
}

/// One or two sentences on the position: who is to move, check, the ending if any.
fn describe_position(game: &Game, pgn_result: Option<PgnResult>) -> String {
    let pos = game.position();
    let mut text = match game.outcome() {
        Some(outcome) => describe_outcome(game, outcome),
        None => {
            let mut t = format!(
                "{} to move{}; {} legal moves.",
                if pos.turn() == Color::White { "White" } else { "Black" },
                if pos.is_check() { ", in check" } else { "" },
                pos.legal_moves().len()
            );
            for claim in game.claimable_now() {
                t.push_str(&format!(" A draw may be claimed ({}).", claim.as_str().replace('_', " ")));
            }
            for (claim, sans) in claims_with_move(game) {
                t.push_str(&format!(
                    " A draw may be claimed by announcing {} ({}).",
                    either(&sans),
                    claim.as_str().replace('_', " ")
                ));
            }
            t
        }
    };
    if let Some(r) = pgn_result.filter(|_| game.outcome().is_none()) {
        text.push_str(&format!(" The game was recorded as {r}."));
    }
    text
}

/// The summary of a finished game loaded from a file.
pub fn describe_loaded(game: &Game, result: PgnResult) -> String {
    describe_position(game, Some(result))
}
