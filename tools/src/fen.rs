//! `tempo-tools fen check FEN`: validate and normalise a FEN.

use anyhow::Result;
use clap::Subcommand;
use tempo_core::{CastlingMode, FenError, Position, Setup};

#[derive(Subcommand)]
pub enum FenCommand {
    /// Exit 0 and print the normalised FEN if the position is valid; exit 1 and print the
    /// reason otherwise. The check is strict (six fields, single spaces, nothing before or
    /// after; no check that no last move can have given); for a FEN that only a lenient
    /// reader takes (`tempo`, `--fen` options, the library's `Position::from_fen`: four
    /// fields without the move counters, extra whitespace), a second line says how they
    /// read it.
    Check {
        /// The FEN (one quoted argument, or its six fields as separate arguments).
        #[arg(required = true, num_args = 1.., allow_negative_numbers = true)]
        fen: Vec<String>,
        /// Read the castling field as Chess960 (Shredder-FEN or X-FEN).
        #[arg(long)]
        chess960: bool,
    },
}

/// Runs a `fen` subcommand; `Ok(false)` means "invalid" (exit status 1).
pub fn run(command: &FenCommand) -> Result<bool> {
    match command {
        FenCommand::Check { fen, chess960 } => {
            let fen = fen.join(" ");
            let mode = if *chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
            // Strict: every defect is an error, a check that no last move can have given
            // (python-chess's `STATUS_IMPOSSIBLE_CHECK`) included, which FEN reading for
            // play and perft accepts.
            let strict = Setup::from_fen_strict(&fen, mode)
                .and_then(|setup| Position::from_setup(setup, mode).map_err(FenError::Position));
            match strict {
                Ok(pos) => {
                    outln!("{}", if *chess960 { pos.shredder_fen() } else { pos.fen() })?;
                    Ok(true)
                }
                Err(e) => {
                    outln!("invalid fen: {e}")?;
                    if let Ok(pos) = Position::from_fen(&fen, mode) {
                        let lenient = if *chess960 { pos.shredder_fen() } else { pos.fen() };
                        outln!("lenient readers (tempo, --fen, Position::from_fen) read it as: {lenient}")?;
                    }
                    Ok(false)
                }
            }
        }
    }
}
