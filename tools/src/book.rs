//! `tempo-tools book build PGN --out FILE.bin` and `tempo-tools book probe FEN FILE.bin`:
//! Polyglot opening books (the standard 16-byte big-endian format; core's position keys are
//! Polyglot keys).

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use tempo_core::{
    book::{Book, BookBuilder},
    Color, Position,
};
use tempo_notation::{san, uci_move, PgnReader, PgnResult};
use tempo_output::write_atomically;

#[derive(Subcommand)]
pub enum BookCommand {
    /// Build a Polyglot book from the main lines of the games of a PGN file. Each move scores
    /// 2 when the side that played it won, 1 for a draw, 0 for a loss (Polyglot's weights).
    ///
    /// A game's result is its termination marker, else its `Result` tag. Unfinished games
    /// (`*`) are skipped unless `--include-unfinished`; the last line counts the skipped
    /// games by reason. When no game counts, or no move reaches `--min-score`, no book is
    /// written and the exit status is 1. The book replaces FILE.bin atomically: a failed run
    /// leaves an existing file as it was. An existing FILE.bin that is not a Polyglot book
    /// (the PGN file itself, say) is refused, never replaced.
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
        /// Count unfinished games (result `*`, such as opening collections) too, each move
        /// scoring 1 as for a draw: nothing is known of who won, and Polyglot's own
        /// make-book scores them so.
        #[arg(long)]
        include_unfinished: bool,
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
        BookCommand::Build { pgn, out, max_ply, min_score, include_unfinished } => {
            build(pgn, out, *max_ply, *min_score, *include_unfinished)
        }
        BookCommand::Probe { fen, book } => probe(fen, book),
    }
}

/// The games of the PGN file that did not enter the book, by reason.
#[derive(Debug, Default, PartialEq, Eq)]
struct Skipped {
    /// Broken games (each reported on standard error as it is read).
    unreadable: u64,
    /// Games whose result is `*` (without `--include-unfinished`).
    unfinished: u64,
}

impl Skipped {
    fn total(&self) -> u64 {
        self.unreadable + self.unfinished
    }

    /// The reasons in words, e.g. `800 unfinished (result *; --include-unfinished counts
    /// them)`; empty when nothing was skipped.
    fn reasons(&self) -> String {
        let mut reasons = Vec::new();
        if self.unfinished > 0 {
            reasons.push(format!("{} unfinished (result *; --include-unfinished counts them)", self.unfinished));
        }
        if self.unreadable > 0 {
            reasons.push(format!("{} unreadable (reported above)", self.unreadable));
        }
        reasons.join(", ")
    }
}

/// How a game's moves score: from the point of view of the side that won, or `None` for a
/// draw (or an unfinished game counted as one).
fn winner_of(result: PgnResult, include_unfinished: bool) -> Option<Option<Color>> {
    match result {
        PgnResult::WhiteWins => Some(Some(Color::White)),
        PgnResult::BlackWins => Some(Some(Color::Black)),
        PgnResult::Draw => Some(None),
        PgnResult::Ongoing if include_unfinished => Some(None),
        PgnResult::Ongoing => None,
    }
}

/// Refuses an `--out` that names a file other than a book: replacing an old book is what
/// `build` is for, replacing the games it reads (or any other file) would lose them.
fn check_replaceable(pgn: &Path, out: &Path) -> Result<()> {
    let Ok(bytes) = std::fs::read(out) else {
        return Ok(()); // no such file (or unreadable: writing will say why)
    };
    let same_file = match (pgn.canonicalize(), out.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same_file {
        bail!("--out {} is the PGN file being read: name another file for the book", out.display());
    }
    // Text (a PGN, notes) whose length happens to be a multiple of 16 still reads as
    // entries; a book's learn fields and move bytes are full of control characters.
    let text = std::str::from_utf8(&bytes).is_ok_and(|t| !t.chars().any(|c| c.is_control() && !c.is_whitespace()));
    let not_a_book = match Book::from_bytes(&bytes) {
        Err(e) => Some(e.to_string()),
        Ok(_) if text && !bytes.is_empty() => Some("it holds text".to_owned()),
        Ok(_) => None,
    };
    if let Some(why) = not_a_book {
        bail!(
            "{} exists and is not a Polyglot book ({why}): refusing to replace it; name another --out",
            out.display()
        );
    }
    Ok(())
}

fn build(pgn: &Path, out: &Path, max_ply: usize, min_score: u64, include_unfinished: bool) -> Result<bool> {
    check_replaceable(pgn, out)?;
    let file = File::open(pgn).with_context(|| format!("cannot open {}", pgn.display()))?;
    let mut builder = BookBuilder::new();
    let mut used = 0u64;
    let mut skipped = Skipped::default();
    for (index, game) in PgnReader::new(BufReader::new(file)).games().enumerate() {
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                eprintln!("game {}: skipped: {e}", index + 1);
                skipped.unreadable += 1;
                continue;
            }
        };
        let Some(winner) = winner_of(game.export_result(), include_unfinished) else {
            skipped.unfinished += 1;
            continue;
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
    // An empty book is no book: refuse it rather than leave a 0-byte file behind.
    if used + skipped.total() == 0 {
        bail!("{}; no book written", crate::pgn::no_game(pgn));
    }
    if used == 0 {
        bail!(
            "no game of {} can enter the book: {} skipped: {}; no book written",
            pgn.display(),
            skipped.total(),
            skipped.reasons()
        );
    }
    let book = builder.build(min_score);
    if book.is_empty() {
        bail!("no move of the {used} games counted scores at least --min-score {min_score}; no book written");
    }
    write_atomically(out, &book.to_bytes()).with_context(|| format!("cannot write {}", out.display()))?;
    outln!("{} entries from {used} games ({} skipped) written to {}", book.len(), skipped.total(), out.display())?;
    if skipped.total() > 0 {
        outln!("skipped: {}", skipped.reasons())?;
    }
    Ok(true)
}

fn probe(fen: &str, path: &Path) -> Result<bool> {
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
