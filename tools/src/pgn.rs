//! `tempo-tools pgn check FILE` and `tempo-tools pgn convert FILE --to FORMAT`: stream every
//! game of a PGN file, validating each move, with a progress bar when stderr is a terminal.

use anyhow::{Context, Result};
use clap::{Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Serialize, Serializer};
use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use tempo_core::{Move, Position};
use tempo_notation::{pgn_string, san_line, uci_move, PgnGame, PgnReader, PgnResult, Visitor};

#[derive(Subcommand)]
pub enum PgnCommand {
    /// Read every game, validating every move; one line per broken game, a warning for a
    /// `Result` tag that contradicts the termination marker, then a summary. A file that
    /// holds no game (empty, or only whitespace) is an error.
    Check {
        /// The PGN file (`-` for standard input).
        file: PathBuf,
    },
    /// Write every game in another form, one after another (broken games are reported on
    /// stderr and skipped). A file that holds no game (empty, or only whitespace) is an
    /// error.
    Convert {
        /// The PGN file (`-` for standard input).
        file: PathBuf,
        /// Output form: `pgn` (export format), `uci` (a UCI `position` argument per game),
        /// `fen` (the final position of each game), `json` (one object per line: `tags` in
        /// file order, `start_fen`, `moves_san`, `moves_uci`, `result`, `final_fen`; the
        /// result is the termination marker, else the `Result` tag, else `*`, as in `pgn`).
        #[arg(long, value_enum)]
        to: Format,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Pgn,
    Uci,
    Fen,
    Json,
}

/// Runs a `pgn` subcommand; `Ok(false)` when some game is broken (exit status 1).
pub fn run(command: &PgnCommand) -> Result<bool> {
    match command {
        PgnCommand::Check { file } => check(file),
        PgnCommand::Convert { file, to } => convert(file, *to),
    }
}

fn open(path: &Path) -> Result<(Box<dyn Read>, Option<u64>)> {
    if path.as_os_str() == "-" {
        return Ok((Box::new(io::stdin().lock()), None));
    }
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let metadata = file.metadata().ok();
    // Opening a directory succeeds on Unix and only reading fails, which the reader would
    // report as a broken game 0: it is a bad argument, not a bad game.
    if metadata.as_ref().is_some_and(std::fs::Metadata::is_dir) {
        anyhow::bail!("cannot read {}: it is a directory", path.display());
    }
    Ok((Box::new(file), metadata.map(|m| m.len())))
}

fn progress(len: Option<u64>) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    // A file has a length to fill a bar; standard input (a pipe) gets a spinner with the
    // bytes read so far.
    let (bar, template) = match len {
        Some(len) => (ProgressBar::new(len), "{bar:40} {bytes}/{total_bytes} {binary_bytes_per_sec} {msg}"),
        None => (ProgressBar::new_spinner(), "{spinner} {bytes} {binary_bytes_per_sec} {msg}"),
    };
    bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}

/// Validates without building trees: the reader resolves and plays every move itself. Its
/// output is what is legal but contradictory: a `Result` tag that disagrees with the
/// termination marker (readers count the marker, so the tag misleads whoever reads it).
#[derive(Default)]
struct Validate {
    result_tags: Vec<String>,
    marker: Option<PgnResult>,
}

impl Visitor for Validate {
    type Output = Option<String>;

    fn begin_game(&mut self) {
        *self = Validate::default();
    }

    fn tag(&mut self, name: &str, value: &str) {
        if name == "Result" {
            self.result_tags.push(value.to_owned());
        }
    }

    fn result(&mut self, result: Option<PgnResult>) {
        self.marker = result;
    }

    fn end_game(&mut self) -> Option<String> {
        let marker = self.marker?.as_str();
        let differing: Vec<&str> =
            self.result_tags.iter().map(String::as_str).filter(|tag| *tag != marker && *tag != "?").collect();
        (!differing.is_empty()).then(|| {
            format!(
                "the Result tag says {} but the moves end with {marker} (the marker counts)",
                differing.join(" and ")
            )
        })
    }
}

fn check(path: &Path) -> Result<bool> {
    let (input, len) = open(path)?;
    let mut reader = PgnReader::new(input);
    let bar = progress(len);
    let (mut ok, mut broken) = (0u64, 0u64);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut validate = Validate::default();
    while let Some(result) = reader.read_game(&mut validate) {
        match result {
            Ok(None) => ok += 1,
            Ok(Some(warning)) => {
                ok += 1;
                bar.suspend(|| writeln!(out, "game {}: warning: {warning}", ok + broken))?;
            }
            Err(e) => {
                broken += 1;
                bar.suspend(|| writeln!(out, "{e}"))?;
            }
        }
        if (ok + broken) % 256 == 0 {
            bar.set_position(reader.bytes_read());
            bar.set_message(format!("{} games", ok + broken));
        }
    }
    bar.finish_and_clear();
    writeln!(out, "{ok} games ok, {broken} with errors")?;
    out.flush()?;
    if ok + broken == 0 {
        return Err(no_game(path));
    }
    Ok(broken == 0)
}

/// The error of a file (empty, or only whitespace) in which the reader found no game: a
/// command that reads games has nothing to check or convert, which must not pass for
/// success.
pub fn no_game(path: &Path) -> anyhow::Error {
    let name = if path.as_os_str() == "-" { "standard input".into() } else { path.display().to_string() };
    anyhow::anyhow!("{name} holds no PGN game")
}

/// The FEN as python-chess prints it: X-FEN castling (`KQkq` unless an inner rook needs its
/// file letter), the en passant square only when a capture is legal.
fn fen_of(pos: &Position) -> String {
    pos.fen_with_legal_ep()
}

/// The UCI `position` arguments that set up the game's final position.
fn uci_line(game: &PgnGame) -> String {
    let mut line =
        if game.start == Position::startpos() { "startpos".to_owned() } else { format!("fen {}", fen_of(&game.start)) };
    let moves = game.mainline();
    if !moves.is_empty() {
        line.push_str(" moves");
        for (m, pos) in moves.iter().zip(game.mainline_positions()) {
            line.push(' ');
            line.push_str(&uci_move(&pos, *m));
        }
    }
    line
}

/// A game as one JSON line (`--to json`), keys in this order.
#[derive(Serialize)]
struct JsonGame<'a> {
    tags: Tags<'a>,
    start_fen: String,
    moves_san: Vec<String>,
    moves_uci: Vec<String>,
    /// The result `--to pgn` writes: the marker, else the `Result` tag, else `*`.
    result: &'static str,
    final_fen: String,
}

/// Tag pairs as a JSON object in file order, like `headers` in `data/pgn/expected.json`
/// (a `serde_json::Map` would sort them). A repeated tag keeps its first value, the one
/// `PgnGame::tag` reads.
struct Tags<'a>(&'a [(String, String)]);

impl Serialize for Tags<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seen = HashSet::new();
        serializer.collect_map(self.0.iter().filter(|(name, _)| seen.insert(name.as_str())).map(|(n, v)| (n, v)))
    }
}

fn json_line(game: &PgnGame) -> serde_json::Result<String> {
    let moves: Vec<Move> = game.mainline();
    let positions = game.mainline_positions();
    let last = positions.last().copied().unwrap_or(game.start);
    serde_json::to_string(&JsonGame {
        tags: Tags(&game.tags),
        start_fen: fen_of(&game.start),
        moves_san: san_line(&game.start, &moves),
        moves_uci: moves.iter().zip(&positions).map(|(m, pos)| uci_move(pos, *m)).collect(),
        result: game.export_result().as_str(),
        final_fen: fen_of(&last),
    })
}

fn convert(path: &Path, format: Format) -> Result<bool> {
    let (input, len) = open(path)?;
    let mut games = PgnReader::new(input).games();
    let bar = progress(len);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut broken = 0u64;
    let mut count = 0u64;
    while let Some(result) = games.next() {
        count += 1;
        match result {
            Ok(game) => match format {
                Format::Pgn => out.write_all(pgn_string(&game).as_bytes())?,
                Format::Uci => writeln!(out, "{}", uci_line(&game))?,
                Format::Fen => writeln!(out, "{}", fen_of(&game.final_position()))?,
                Format::Json => writeln!(out, "{}", json_line(&game)?)?,
            },
            Err(e) => {
                broken += 1;
                bar.suspend(|| eprintln!("{e}"));
            }
        }
        if count % 256 == 0 {
            bar.set_position(games.reader().bytes_read());
        }
    }
    bar.finish_and_clear();
    out.flush()?;
    if count == 0 {
        return Err(no_game(path));
    }
    if broken > 0 {
        eprintln!("{} games converted, {broken} with errors", count - broken);
    }
    Ok(broken == 0)
}
