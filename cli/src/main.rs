//! `tempo`: the program people run. Plays chess in the terminal (a person or an engine on
//! each side, with clocks) and inspects positions (`show`, `analyze`, `perft`).

// `outln!` for every command module.
#[macro_use]
extern crate tempo_output;

mod analyze;
mod args;
mod board_view;
mod clock_view;
mod completion;
mod describe;
mod input;
mod material;
mod perft;
mod play;
mod players;
mod save;
mod screen;
mod show;
mod start;
mod tablebase;

use args::{Cli, Command};
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match &cli.command {
        None => play::run(&cli.play),
        Some(Command::Play(args)) => play::run(args),
        Some(Command::Show(args)) => show::run(args),
        Some(Command::Analyze(args)) => analyze::run(args),
        Some(Command::Perft(args)) => perft::run(args),
    };
    match outcome {
        Ok(code) => ExitCode::from(code as u8),
        // The reader of our output has gone (`| head`): stop without a word.
        Err(e) if tempo_output::is_broken_pipe(e.as_ref()) => ExitCode::SUCCESS,
        Err(e) => {
            // Leave the terminal's colours as they were, whatever was drawn before the error.
            if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
                print!("\x1b[0m");
            }
            eprintln!("tempo: {e:#}");
            ExitCode::FAILURE
        }
    }
}
