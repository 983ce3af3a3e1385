//! `tempo-tools`: developer tooling for Tempo. A thin binary: argument parsing here, the
//! work in one module per command, the chess in the libraries.
//!
//! Exit status: 0 on success, 1 when a check fails or on an error, 2 for a command line that
//! cannot be parsed (clap's usage errors: an unknown subcommand or flag, a missing or
//! malformed argument). A closed standard output
//! (`tempo-tools ... | head`) ends any command quietly with status 0: see the `tempo-output` crate.

// `outln!` for every command module.
#[macro_use]
extern crate tempo_output;

mod adam;
mod bench;
mod book;
mod data;
mod datagen;
mod engine_option;
mod epd;
mod fen;
mod game;
mod matches;
mod perft;
mod pgn;
mod rng;
mod spsa;
mod suite;
mod tb;
mod text_data;
mod time_flag;
mod train;
mod tune;
mod unwinnable;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tempo-tools",
    version,
    about = "Developer tools for the Tempo chess toolkit",
    after_help = "Exit status: 0 on success, 1 when a check fails or on an error, 2 for a command line that \
                  cannot be parsed. When standard output is closed early (`tempo-tools ... | head`), the command stops quietly with status 0."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the legal move tree: a whole EPD suite, or one position.
    Perft(perft::PerftArgs),
    /// FEN utilities.
    Fen {
        #[command(subcommand)]
        command: fen::FenCommand,
    },
    /// Replay moves through the arbiter: position, result, termination, claimable draws (now, and
    /// by announcing a move).
    Game(game::GameArgs),
    /// Polyglot opening books: build one from PGN games, or list a position's book moves.
    Book {
        #[command(subcommand)]
        command: book::BookCommand,
    },
    /// Run a `bm`/`am` EPD test suite with the built-in engine.
    ///
    /// One line per record, `ID: expected bm X, found Y: ok` (or `FAIL`), in file order; a
    /// record that cannot be run (not EPD, an invalid position, a `bm`/`am` move that is not
    /// legal) is a line `FILE:LINE: unreadable record (WHY): FAIL`, and the suite goes on. The
    /// last line is `N passed, M failed`, unreadable records counted as failed.
    ///
    /// Exit status: 0 when every record could be run, however many positions the engine
    /// missed (those are results); 1 when some record could not be read, or on an error.
    Epd(epd::EpdArgs),
    /// The engine's fixed bench: `Bench: N nodes M nps`.
    Bench(bench::BenchArgs),
    /// Self-play games at fixed nodes: training data in viriformat (`.vf`) or
    /// `FEN | score | result` lines for tuning.
    Datagen(datagen::DatagenArgs),
    /// Training data files: validate them and print their statistics.
    Data {
        #[command(subcommand)]
        command: data::DataCommand,
    },
    /// Texel-tune the engine's evaluation weights on labelled positions.
    Tune(tune::TuneArgs),
    /// SPSA-tune the engine's search parameters (a `tempo-uci` built with `make TUNE=1`) by
    /// pairs of games between perturbed settings, as OpenBench does; `--resume` continues.
    Spsa(spsa::SpsaArgs),
    /// Train an NNUE network from datagen output.
    Train(train::TrainArgs),
    /// Play a match between UCI engines: clocks, openings in pairs, Elo and SPRT.
    Match(matches::MatchArgs),
    /// Syzygy endgame tablebases: probe positions.
    Tb {
        #[command(subcommand)]
        command: tb::TbCommand,
    },
    /// Whether each side can still mate, over a file of labelled positions
    /// (`data/unwinnable/cases.txt`): the score by label, wrong answers, and timings (median,
    /// 99th percentile, worst). Exit status 1 when an answer contradicts its label.
    Unwinnable(unwinnable::UnwinnableArgs),
    /// PGN files: validate every game, or convert them.
    Pgn {
        #[command(subcommand)]
        command: pgn::PgnCommand,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<bool> = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Fen { command } => fen::run(&command),
        Command::Game(args) => game::run(&args),
        Command::Pgn { command } => pgn::run(&command),
        Command::Tb { command } => tb::run(&command),
        Command::Book { command } => book::run(&command),
        Command::Match(args) => matches::run(&args),
        Command::Epd(args) => epd::run(&args),
        Command::Datagen(args) => datagen::run(&args),
        Command::Data { command } => data::run(&command),
        Command::Tune(args) => tune::run(&args),
        Command::Spsa(args) => spsa::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Unwinnable(args) => unwinnable::run(&args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        // The reader of our output has gone (`| head`): stop without a word.
        Err(e) if tempo_output::is_broken_pipe(e.as_ref()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
