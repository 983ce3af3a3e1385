//! `tempo-tools game`: replay moves through the arbiter and report how the game stands.

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use tempo_core::unwinnable::{self, CanMate};
use tempo_core::{game::ClaimableDraw, CastlingMode, Color, Game, Position};
use tempo_notation::{parse_move, parse_uci_move, refusal, uci_move, SanError};

#[derive(Clone, Copy, ValueEnum)]
pub enum Side {
    White,
    Black,
}

#[derive(Args)]
pub struct GameArgs {
    /// Start position as a FEN, as `tempo`'s subcommands take it (the same as --fen).
    #[arg(value_name = "FEN", conflicts_with = "fen", allow_hyphen_values = true)]
    position: Option<String>,
    /// Start position (default: the standard one).
    #[arg(long, allow_hyphen_values = true)]
    fen: Option<String>,
    /// Read the FEN castling field as Chess960 (Shredder-FEN or X-FEN).
    #[arg(long)]
    chess960: bool,
    /// The moves, space-separated, in UCI notation or SAN (as `tempo` reads them: `e2e4`,
    /// `e4`, `Nf3`, `nf3`, `O-O`, `e8=Q`).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    moves: String,
    /// This side's flag fell after the last move.
    #[arg(long, value_enum)]
    flag: Option<Side>,
    /// Print one JSON object instead of text: `claimable` lists the draws the player to move
    /// may claim now, `claimable_with_move` those claimed by announcing a move, as
    /// `{"claim": RULE, "moves": [UCI...]}`; `can_mate` says for each side whether it can
    /// still checkmate by some series of legal moves (`null`: undecided within the search
    /// budget).
    #[arg(long)]
    json: bool,
    /// Also give, for each side that can still mate, a helpmate from the final position: a
    /// legal line in UCI ending in its mate (JSON key `helpmate`, `null` for a side without).
    #[arg(long)]
    helpmate: bool,
}

/// Whether `color` can still mate from `pos`, and the helpmate in UCI when it can.
fn can_mate(pos: &Position, color: Color) -> (CanMate, Option<Vec<String>>) {
    let answer = unwinnable::can_mate(pos, color, unwinnable::DEFAULT_NODES);
    let line = match &answer {
        CanMate::Yes(moves) => {
            let mut at = *pos;
            let mut line = Vec::new();
            for &m in moves {
                line.push(uci_move(&at, m));
                at.play_unchecked(m);
            }
            Some(line)
        }
        _ => None,
    };
    (answer, line)
}

/// The answer in words, for the text report.
fn in_words(answer: &CanMate) -> String {
    match answer {
        CanMate::Yes(_) => "yes".to_owned(),
        CanMate::No(why) => format!("no ({why})"),
        CanMate::Undecided => "undecided".to_owned(),
    }
}

/// Why `text` is not a move of `pos`: the reason an illegal move cannot be played
/// ([`refusal`]), else what the SAN reader says.
fn why_not(pos: &Position, text: &str, error: &SanError) -> String {
    match (refusal(pos, text), error) {
        (Some(why), _) => why.to_string(),
        (None, SanError::Syntax(_)) => "neither a UCI move nor SAN".to_owned(),
        (None, other) => other.to_string(),
    }
}

/// Runs `game`; an illegal move is an error naming the move and its (0-based) index.
pub fn run(args: &GameArgs) -> Result<bool> {
    let mode = if args.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
    if let Some(path) = args.position.as_deref().filter(|text| std::path::Path::new(text).is_file()) {
        bail!("{path} is a file; game starts from a FEN (tempo-tools pgn reads PGN files)");
    }
    let start = match args.position.as_ref().or(args.fen.as_ref()) {
        // A castling field only Chess960 can mean (e.g. `HAha`) is read as Chess960.
        Some(fen) => match Position::from_fen(fen, mode) {
            Ok(pos) => pos,
            Err(e) => Position::from_fen(fen, CastlingMode::Chess960)
                .map_err(|_| e)
                .with_context(|| format!("invalid FEN {fen:?}"))?,
        },
        None => {
            let mut pos = Position::startpos();
            pos.set_castling_mode(mode).context("start position")?;
            pos
        }
    };
    let mut game = Game::new(start);
    for (index, text) in args.moves.split_whitespace().enumerate() {
        let pos = *game.position();
        let m = match parse_uci_move(&pos, text).or_else(|_| parse_move(&pos, text)) {
            Ok(m) => m,
            Err(error) => {
                bail!("illegal move {text:?} at index {index}: {} in {}", why_not(&pos, text, &error), pos.fen())
            }
        };
        if let Err(e) = game.play(m) {
            bail!("illegal move {text:?} at index {index}: {e}");
        }
    }
    if let Some(side) = args.flag {
        let color = match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        };
        // A game already decided (checkmate, stalemate...) stays decided.
        if game.outcome().is_none() {
            game.flag(color)?;
        }
    }
    let pos = game.position();
    let outcome = game.outcome();
    let result = outcome.map_or("*", |o| o.result.as_str());
    let termination = outcome.map(|o| o.termination.as_str());
    let claimable: Vec<&str> = game.claimable_now().iter().map(|c| c.as_str()).collect();
    // Claims by announcing a move (FIDE 9.2.1, 9.3.1), each rule with the moves that make it.
    let with_move: Vec<(&str, Vec<String>)> = game
        .claimable()
        .iter()
        .filter_map(|c| match c {
            ClaimableDraw::WithMove { claim, moves } => {
                Some((claim.as_str(), moves.iter().map(|&m| uci_move(pos, m)).collect()))
            }
            ClaimableDraw::Now(_) => None,
        })
        .collect();
    // As python-chess prints it: X-FEN castling, en passant square only when capturable.
    let fen = pos.fen_with_legal_ep();
    let legal_moves = pos.count_legal_moves();
    let (white, white_line) = can_mate(pos, Color::White);
    let (black, black_line) = can_mate(pos, Color::Black);
    if args.json {
        // Written field by field to keep the documented key order.
        let json = |v: serde_json::Value| v.to_string();
        outln!(
            "{{\"fen\":{},\"result\":{},\"termination\":{},\"claimable\":{},\"check\":{},\"legal_moves\":{},\
             \"claimable_with_move\":{},\"can_mate\":{}{}}}",
            json(fen.into()),
            json(result.into()),
            json(termination.into()),
            json(claimable.into()),
            pos.is_check(),
            legal_moves,
            json(with_move.iter().map(|(claim, moves)| serde_json::json!({"claim": claim, "moves": moves})).collect()),
            serde_json::json!({"white": white.decided(), "black": black.decided()}),
            if args.helpmate {
                format!(",\"helpmate\":{}", serde_json::json!({"white": white_line, "black": black_line}))
            } else {
                String::new()
            }
        )?;
    } else {
        outln!("fen: {fen}")?;
        outln!("result: {result}")?;
        outln!("termination: {}", termination.unwrap_or("-"))?;
        outln!("claimable: {}", if claimable.is_empty() { "-".to_owned() } else { claimable.join(", ") })?;
        outln!("check: {}", pos.is_check())?;
        outln!("legal moves: {legal_moves}")?;
        let with_move: Vec<String> =
            with_move.iter().map(|(claim, moves)| format!("{claim} ({})", moves.join(" "))).collect();
        outln!("claimable with move: {}", if with_move.is_empty() { "-".to_owned() } else { with_move.join(", ") })?;
        outln!("white can mate: {}", in_words(&white))?;
        outln!("black can mate: {}", in_words(&black))?;
        if args.helpmate {
            for (side, line) in [("white", &white_line), ("black", &black_line)] {
                if let Some(line) = line {
                    outln!("{side} helpmate: {}", line.join(" "))?;
                }
            }
        }
    }
    Ok(true)
}
