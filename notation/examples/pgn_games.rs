//! Reads a PGN file game by game, in constant memory, and says for each game how it ends on
//! the board: the arbiter's ending (checkmate, stalemate, a dead position, a repetition...)
//! or the draws the player to move could claim, next to the result the file records, with
//! the final position's FEN and Zobrist key. A broken game is reported with its place in the
//! file and reading goes on with the next one.
//!
//! `cargo run -p tempo-notation --example pgn_games -- FILE.pgn` (standard input without a
//! file); `notation/tests/pgn_games.rs` runs it with the tests.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use tempo_notation::{PgnGame, PgnReader};

fn main() -> ExitCode {
    let stdout = io::stdout();
    let summary = match std::env::args_os().nth(1) {
        Some(path) => open(Path::new(&path)).and_then(|file| run(file, &mut stdout.lock())),
        None => run(io::stdin().lock(), &mut stdout.lock()),
    };
    match summary {
        Ok(summary) => {
            eprintln!("{summary}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Opens the PGN file, with its name in the error (an `io::Error` alone does not say which
/// file could not be opened).
///
/// # Errors
/// When the file cannot be opened.
pub fn open(path: &Path) -> io::Result<File> {
    File::open(path).map_err(|error| io::Error::new(error.kind(), format!("cannot open {}: {error}", path.display())))
}

/// Writes a line for each game of `input` to `out` and returns the summary line.
///
/// # Errors
/// Only writing to `out`: a broken game is a line of the report, not an error.
pub fn run(input: impl Read, out: &mut impl Write) -> io::Result<String> {
    // The reader buffers its input itself; `games()` yields one game tree at a time.
    let mut games = PgnReader::new(input).games();
    let (mut good, mut broken) = (0, 0);
    for read in games.by_ref() {
        match read {
            Ok(game) => {
                good += 1;
                writeln!(out, "{}", describe(&game))?;
            }
            Err(error) => {
                broken += 1;
                // "game 2, line 7, column 7: no such move "Ke7"": the rest of that game is
                // skipped, and the next one is read.
                writeln!(out, "broken: {error}")?;
            }
        }
    }
    let bytes = games.reader().bytes_read();
    Ok(format!("{good} games, {broken} broken, {bytes} bytes"))
}

/// One line for `game`: players, moves, the file's result, the ending on the board, the
/// final position.
fn describe(game: &PgnGame) -> String {
    let players = format!("{} - {}", game.tag("White").unwrap_or("?"), game.tag("Black").unwrap_or("?"));
    let recorded = game.export_result();
    // The arbiter replays the main line: it knows the endings the rules decide.
    let board = match game.to_game() {
        Ok(arbiter) => match arbiter.outcome() {
            Some(outcome) => format!("ends in {outcome}"),
            None if !arbiter.claimable_now().is_empty() => {
                let claims: Vec<String> = arbiter.claimable_now().iter().map(|c| c.termination().to_string()).collect();
                format!("goes on, the player to move may claim a draw by {}", claims.join(" or "))
            }
            None => "goes on".to_owned(),
        },
        // A null move (`--`) in the main line, or moves after an ending the rules make
        // automatic (a fivefold repetition, say).
        Err(error) => format!("cannot be replayed: {error}"),
    };
    let last = game.final_position();
    format!(
        "{players}: {} plies, recorded {recorded}, on the board {board}; {} (key {:016x})",
        game.moves.len(),
        last.fen(),
        last.key()
    )
}
