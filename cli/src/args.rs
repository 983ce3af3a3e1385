//! The command line: `tempo [play] [OPTIONS]`, `tempo show`, `tempo analyze`, `tempo perft`.
//!
//! Play options are flattened into the top level as well, so that `tempo --black engine`
//! works without typing `play` (the first thing most people try).

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::time::Duration;
use tempo_notation::MoveNotation;

use crate::clock_view::{parse_time_flag, parse_time_or_zero};

/// Strongest level of the built-in engine (full strength, no limiter).
pub const MAX_LEVEL: u8 = 10;
/// The level used when none is given: a fair fight for a club player, quick to answer.
pub const DEFAULT_LEVEL: u8 = 5;
/// Who plays White and Black unless `--white` and `--black` say.
pub const DEFAULT_WHITE: &str = "human";
/// See [`DEFAULT_WHITE`].
pub const DEFAULT_BLACK: &str = "engine";

#[derive(Debug, Parser)]
#[command(
    name = "tempo",
    version,
    about = "Play and analyse chess in the terminal.",
    long_about = "Play and analyse chess in the terminal.\n\nWithout a subcommand, starts a game: you play \
                  White against the built-in engine. Type `help` during the game for the commands.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub play: PlayArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game (the default when no subcommand is given).
    Play(PlayArgs),
    /// Show a position (FEN, or the end of a PGN game) and its status.
    Show(ShowArgs),
    /// Analyse a position with the built-in engine: best lines in SAN with scores.
    Analyze(AnalyzeArgs),
    /// Count the leaf nodes of the legal move tree to a depth (perft).
    Perft(PerftArgs),
}

#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// Who plays White: `human`, `engine` (built-in, at --level), `engine:LEVEL`, or
    /// `uci:COMMAND` for any external UCI engine (e.g. `uci:stockfish`).
    #[arg(long, value_name = "PLAYER", default_value = DEFAULT_WHITE)]
    pub white: String,
    /// Who plays Black (same choices as --white).
    #[arg(long, value_name = "PLAYER", default_value = DEFAULT_BLACK)]
    pub black: String,
    /// Strength of the built-in engine, 1 (beginner) to 10 (full strength).
    #[arg(long, value_name = "1..10", default_value_t = DEFAULT_LEVEL,
          value_parser = clap::value_parser!(u8).range(1..=MAX_LEVEL as i64))]
    pub level: u8,
    /// Time control: `MINUTES+INCREMENT_SECONDS` as players say it (`5+3`, `10+0`, `0.5+0`:
    /// a bare base is minutes, a bare increment seconds), or with units `h`, `m`, `s`, `ms` on
    /// any time (`5m+3s`, `90s+2s`, `1m30s+2s`); with a move count the PGN TimeControl form,
    /// seconds when bare (`40/5400+30` or `40/90m+30s`: 40 moves in 90 minutes, 30 s added per
    /// move; `40/5400+30:1800+30` adds a second period).
    /// Without --tc or --movetime the game has no clock.
    #[arg(long, value_name = "TC", conflicts_with = "movetime")]
    pub tc: Option<String>,
    /// Fixed time per move: each move must be made within it (unused time is lost). A bare
    /// number is seconds (`10`, `0.5`); units `h`, `m`, `s`, `ms` also work (`10s`, `500ms`,
    /// `1m30s`).
    #[arg(long, value_name = "TIME", value_parser = parse_time_flag)]
    pub movetime: Option<Duration>,
    /// Where to start: a FEN, or a file: a PGN file's game to continue (as --pgn), an EPD
    /// file's position (its first record, or the one --game names). Text that names an
    /// existing file is that file; any other text is a FEN.
    #[arg(value_name = "POSITION", conflicts_with_all = ["fen", "pgn", "chess960"])]
    pub position: Option<String>,
    /// Start from this position (FEN).
    #[arg(long, value_name = "FEN", conflicts_with_all = ["pgn", "chess960"])]
    pub fen: Option<String>,
    /// Continue a saved game: the only unfinished game of the file (result `*`), or the one
    /// --game names. Saving changes that game alone; every other game of the file stays as
    /// it was.
    #[arg(long, value_name = "FILE", conflicts_with = "chess960")]
    pub pgn: Option<PathBuf>,
    /// With a PGN file: the game to continue, numbered from 1 in the file (with an EPD file:
    /// the record to start from).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,
    /// Chess960: a random start position, or position number N (0..959; 518 is the standard one).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "random")]
    pub chess960: Option<String>,
    /// Show the board from Black's side (by default the human's side is at the bottom).
    #[arg(long)]
    pub flip: bool,
    /// Draw the board with ASCII letters instead of Unicode chess symbols.
    #[arg(long)]
    pub ascii: bool,
    /// Never use colours (also when the NO_COLOR environment variable is set).
    #[arg(long)]
    pub no_color: bool,
    /// Where to save the game's PGN: it is added to the end of the file, which is never
    /// truncated (default: the game's own file, tempo-DATE-TIME.pgn in Tempo's folder of
    /// games, ~/.local/share/tempo/games on Linux; a continued game stays in its file).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Do not show an engine's evaluation after its moves (by default its line reads
    /// `Tempo plays 12. Nf3 (+0.35 for White)`).
    #[arg(long)]
    pub no_eval: bool,
    /// Engines search to this depth (reproducible play); with a clock, they still stop in time.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Engine players think this long per move when the game has no clock. A bare number is
    /// seconds; units `h`, `m`, `s`, `ms` also work (`500ms`, `2s`).
    #[arg(long, value_name = "TIME", default_value = "1", value_parser = parse_time_flag)]
    pub think: Duration,
    /// Testing aid: charge every move exactly this time instead of reading the wall clock, so
    /// that timed games are reproducible. A bare number is seconds; units also work (`100ms`).
    #[arg(long, value_name = "TIME", hide = true, value_parser = parse_time_or_zero)]
    pub fake_move_time: Option<Duration>,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The position: a FEN, or a file: a PGN file's last game (as --pgn), an EPD file's
    /// first record. Text that names an existing file is that file; any other text is a FEN
    /// (default: the start position).
    #[arg(value_name = "POSITION", conflicts_with_all = ["fen", "pgn"])]
    pub position: Option<String>,
    /// The position, as FEN.
    #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// Show the final position of the last game in this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// With a PGN file: the game to show, numbered from 1 in the file, instead of the last
    /// (with an EPD file: the record, instead of the first).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,
    /// ASCII letters instead of Unicode symbols.
    #[arg(long)]
    pub ascii: bool,
    /// From Black's side.
    #[arg(long)]
    pub flip: bool,
    /// Never use colours (also when the NO_COLOR environment variable is set).
    #[arg(long)]
    pub no_color: bool,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Syzygy tables (folders separated by `:`): add their verdict on the position.
    #[arg(long, value_name = "DIR")]
    pub tb: Option<String>,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The position: a FEN, or a file: a PGN file's last game's final position, an EPD
    /// file's first record. Text that names an existing file is that file; any other text
    /// is a FEN (default: the start position).
    #[arg(value_name = "POSITION", conflicts_with_all = ["fen", "pgn"])]
    pub position: Option<String>,
    /// The position (default: the start position).
    #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// The final position of the last game in this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// With a PGN file: the game, numbered from 1 in the file, instead of the last (with an
    /// EPD file: the record, instead of the first).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,
    /// Search to this depth.
    #[arg(long, value_name = "PLIES", conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// Search this long (default: 3 seconds when no depth is given). A bare number is
    /// seconds, as for `tempo --movetime`; units `h`, `m`, `s`, `ms` also work (`500ms`, `10s`).
    #[arg(long, value_name = "TIME", value_parser = parse_time_flag)]
    pub movetime: Option<Duration>,
    /// Number of lines (best moves) to show.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub multipv: u32,
    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Syzygy tables (folders separated by `:`): add their verdict on the position.
    #[arg(long, value_name = "DIR")]
    pub tb: Option<String>,
}

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The position: a FEN, or a file: a PGN file's last game's final position, an EPD
    /// file's first record. Text that names an existing file is that file; any other text
    /// is a FEN (default: the start position).
    #[arg(value_name = "POSITION", conflicts_with_all = ["fen", "pgn"])]
    pub position: Option<String>,
    /// The position (default: the start position).
    #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// The final position of the last game in this PGN file.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// With a PGN file: the game, numbered from 1 in the file, instead of the last (with an
    /// EPD file: the record, instead of the first).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,
    /// Depth in plies.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(0..=12))]
    pub depth: u32,
    /// Also count below each legal move: a line `MOVE: COUNT` per move.
    #[arg(long)]
    pub divide: bool,
    /// The notation of the moves --divide lists, `san` or `uci` (default: san in text, as
    /// `tempo-tools perft` writes uci; uci for the keys of --json).
    #[arg(long, value_name = "san|uci", requires = "divide")]
    pub notation: Option<MoveNotation>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

macro_rules! position_source {
    ($($args:ty),*) => {$(
        impl $args {
            /// Where the position comes from: the POSITION argument, --fen or --pgn.
            pub fn source(&self) -> anyhow::Result<crate::start::Source> {
                crate::start::Source::from_args(self.position.as_deref(), self.fen.as_deref(), self.pgn.as_deref(), self.game)
            }
        }
    )*};
}

position_source!(PlayArgs, ShowArgs, AnalyzeArgs, PerftArgs);
