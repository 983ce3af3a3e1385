//! `tempo-tools book build PGN --out FILE.bin` and `tempo-tools book probe FEN FILE.bin`:
//! Polyglot opening books (the standard 16-byte big-endian format; core's position keys are
//! Polyglot keys).

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use tempo_core::{
    book::{Book, BookBuilder},
    Color, Position,
};
use tempo_notation::{san, uci_move, PgnReader, PgnResult};

#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a Polyglot book from the main lines of the games of a PGN file. Each move scores
    /// 2 when the side that played it won, 1 for a draw, 0 for a loss (Polyglot's weights).
    Build {
        /// The PGN file.
        pgn: PathBuf,
        /// Where to write the book.
        #[arg(long)]
        out: PathBuf,
        /// Only the first N plies of each game enter the book.
        #[arg(long, default_value_t = 30)]
        max_ply: usize,
        /// Leave out moves whose total score is below this.
        #[arg(long, default_value_t = 1)]
        min_score: u64,
    },
    /// List the book's moves in a position, heaviest first.
    Probe {
        /// The position (FEN).
        fen: String,
        /// The book file.
        book: PathBuf,
    },
}

/// Runs a `book` subcommand.
pub fn run(command: &BookCommand) -> Result<bool> {
    match command {
        BookCommand::Build { pgn, out, max_ply, min_score } => build(pgn, out, *max_ply, *min_score),
        BookCommand::Probe { fen, book } => probe(fen, book),
    }
}

fn build(pgn: &PathBuf, out: &PathBuf, max_ply: usize, min_score: u64) -> Result<bool> {
    let file = File::open(pgn).with_context(|| format!("cannot open {}", pgn.display()))?;
    let mut builder = BookBuilder::new();
    let (mut used, mut skipped) = (0u64, 0u64);
    for (index, game) in PgnReader::new(BufReader::new(file)).games().enumerate() {
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                eprintln!("game {}: skipped: {e}", index + 1);
                skipped += 1;
                continue;
            }
        };
        let winner = match game.result {
            Some(PgnResult::WhiteWins) => Some(Color::White),
            Some(PgnResult::BlackWins) => Some(Color::Black),
            Some(PgnResult::Draw) => None,
            // Unfinished games say nothing about the moves' worth.
            Some(PgnResult::Ongoing) | None => {
                skipped += 1;
                continue;
            }
        };
        used += 1;
        let mut pos = game.start;
        for node in game.moves.iter().take(max_ply) {
            if node.mv.is_null() {
                break; // positions after a null move do not arise in play
            }
            let points = match winner {
                Some(color) if color == pos.turn() => 2,
                Some(_) => 0,
                None => 1,
            };
            builder.add(&pos, node.mv, points);
            pos.play(node.mv).context("PGN reader returned an illegal move")?;
        }
    }
    let book = builder.build(min_score);
    std::fs::write(out, book.to_bytes()).with_context(|| format!("cannot write {}", out.display()))?;
    outln!("{} entries from {used} games ({skipped} skipped) written to {}", book.len(), out.display())?;
    Ok(true)
}

fn probe(fen: &str, path: &PathBuf) -> Result<bool> {
    let pos: Position = fen.parse().with_context(|| format!("invalid fen {fen:?}"))?;
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let book = Book::from_bytes(&bytes).with_context(|| format!("{} is not a Polyglot book", path.display()))?;
    let moves = book.probe(&pos);
    if moves.is_empty() {
        outln!("no book moves (key {:016x})", pos.key())?;
        return Ok(true);
    }
    let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
    if total == 0 {
        bail!("the book's weights here are all zero");
    }
    for (m, weight) in moves {
        outln!(
            "{:<6} {:<8} weight {weight:>5}  {:5.1}%",
            uci_move(&pos, m),
            san(&pos, m),
            100.0 * f64::from(weight) / total as f64
        )?;
    }
    Ok(true)
}
