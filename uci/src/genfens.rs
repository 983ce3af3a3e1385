//! `genfens N seed S book <None|PATH> [extra]`: the openings of OpenBench's DATAGEN
//! workloads. OpenBench runs `tempo-uci "genfens N seed S book B" "quit"` and reads each
//! `info string genfens <FEN>` line; it gives up on an engine that prints none for 15 s.
//!
//! An opening is a few random plies (as `tempo-tools datagen` plays them, through
//! [`tempo_core::opening`]) from the start position or from a random line of the EPD book,
//! kept only if a short search finds it balanced: random moves blunder material, and a game
//! decided before it starts teaches a network little. Everything is a function of the seed
//! (the filter's search is node-limited and starts from a cleared hash), with the default
//! `Threads` of 1.

use std::path::{Path, PathBuf};
use tempo_core::opening::{play_random_plies, SplitMix};
use tempo_core::{CastlingMode, Game, Position, Score};
use tempo_engine::{Engine, EngineError, Event, Limits};

/// Random plies from the start position: a number from this range.
const STARTPOS_PLIES: (usize, usize) = (8, 9);
/// Random plies after a book line, which is varied already.
const BOOK_PLIES: (usize, usize) = (2, 3);
/// Nodes of the filter's search: enough to see a hanging piece, fast in any build.
const FILTER_NODES: u64 = 5_000;
/// An opening whose filter score is beyond this (centipawns, either side) is rejected, as
/// `tempo-tools datagen --max-start-score` does by default.
const MAX_SCORE: i32 = 300;
/// Tries per opening asked for before giving up (a book of lost positions, say).
const TRIES_PER_OPENING: usize = 1_000;

/// A `genfens` request, read from its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenfensRequest {
    /// How many openings.
    pub count: usize,
    /// The seed.
    pub seed: u64,
    /// The EPD book, or `None` for the start position.
    pub book: Option<PathBuf>,
}

/// Why `genfens` produced fewer openings than asked.
#[derive(Debug, thiserror::Error)]
pub enum GenfensError {
    /// The arguments are not `N seed S book <None|PATH>`.
    #[error("genfens: {0} (expected: genfens N seed S book <None|PATH>)")]
    Arguments(String),
    /// The book cannot be read or has a line that is no position.
    #[error("genfens: book {path}: {reason}")]
    Book {
        /// The book's path.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The filter rejected too many openings in a row.
    #[error("genfens: gave up after {tries} tries with {found} of {wanted} openings")]
    GaveUp {
        /// Openings tried.
        tries: usize,
        /// Openings found.
        found: usize,
        /// Openings asked for.
        wanted: usize,
    },
    /// The engine refused to search.
    #[error("genfens: {0}")]
    Engine(#[from] EngineError),
}

/// Reads the words after `genfens`. Words after the book (OpenBench's `extra`) are ignored.
///
/// # Errors
/// [`GenfensError::Arguments`] naming what is missing or malformed.
pub fn parse_genfens(words: &[&str]) -> Result<GenfensRequest, GenfensError> {
    let bad = |what: &str| GenfensError::Arguments(what.to_owned());
    let [count, "seed", seed, "book", book, ..] = words else {
        return Err(bad("malformed arguments"));
    };
    let count = count.parse().map_err(|_| bad(&format!("N {count:?} is not a count")))?;
    let seed = seed.parse().map_err(|_| bad(&format!("seed {seed:?} is not a number")))?;
    let book = (!book.eq_ignore_ascii_case("none")).then(|| PathBuf::from(book));
    Ok(GenfensRequest { count, seed, book })
}

/// Reads an EPD book: the first four fields of each non-empty line (the operations, such as
/// `hmvc`, are not needed for an opening).
fn read_book(path: &Path) -> Result<Vec<Position>, GenfensError> {
    let book_error = |reason: String| GenfensError::Book { path: path.to_owned(), reason };
    let text = std::fs::read_to_string(path).map_err(|e| book_error(e.to_string()))?;
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = format!("{} 0 1", fields.join(" "));
        let pos = Position::from_fen(&fen, CastlingMode::Standard)
            .map_err(|e| book_error(format!("line {}: {e}", number + 1)))?;
        positions.push(pos);
    }
    if positions.is_empty() {
        return Err(book_error("no positions".to_owned()));
    }
    Ok(positions)
}

/// Generates the openings of `request`, handing each FEN to `emit` as soon as it is found.
///
/// # Errors
/// A book that cannot be read, an engine that refuses to search, or too many rejected
/// openings ([`GenfensError`]); the openings emitted before stay valid.
///
/// # Panics
/// Never on input; a thread is started for the search's stack and joined.
pub fn generate(
    request: &GenfensRequest,
    engine: &mut Engine,
    emit: impl FnMut(&str) + Send,
) -> Result<(), GenfensError> {
    let book = request.book.as_deref().map(read_book).transpose()?;
    // The search needs a deeper stack than the caller's thread may have.
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(tempo_engine::SEARCH_STACK_SIZE)
            .spawn_scoped(scope, || generate_on_this_thread(request, book.as_deref(), engine, emit))
            .expect("cannot start the genfens thread")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

fn generate_on_this_thread(
    request: &GenfensRequest,
    book: Option<&[Position]>,
    engine: &mut Engine,
    mut emit: impl FnMut(&str) + Send,
) -> Result<(), GenfensError> {
    let mut rng = SplitMix(request.seed);
    let mut found = 0;
    let mut tries = 0;
    while found < request.count {
        if tries == TRIES_PER_OPENING * request.count {
            return Err(GenfensError::GaveUp { tries, found, wanted: request.count });
        }
        tries += 1;
        let (start, (min, max)) = match book {
            Some(lines) => (lines[rng.below(lines.len())], BOOK_PLIES),
            None => (Position::startpos(), STARTPOS_PLIES),
        };
        let mut game = Game::new(start);
        let plies = min + rng.below(max - min + 1);
        if !play_random_plies(&mut game, &mut rng, plies) {
            continue;
        }
        if balanced(engine, &game)? {
            emit(&game.position().fen_with_legal_ep());
            found += 1;
        }
    }
    Ok(())
}

/// Whether a short search scores the game's position within [`MAX_SCORE`].
fn balanced(engine: &mut Engine, game: &Game) -> Result<bool, GenfensError> {
    // A cleared hash: the verdict must not depend on the openings tried before.
    engine.new_game()?;
    engine.set_position(*game.initial_position(), game.moves())?;
    let mut score = None;
    engine.search(Limits::nodes(FILTER_NODES), |event| {
        if let Event::Info(info) = event {
            if info.multipv == 1 && info.bound.is_none() {
                score = Some(info.score);
            }
        }
    })?;
    Ok(matches!(score, Some(Score::Cp(cp)) if cp.abs() <= MAX_SCORE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_arguments_are_read_or_refused(words in proptest::collection::vec("(seed|book|None|[0-9]{1,25}|\\PC{0,6})", 0..8)) {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            if let Ok(request) = parse_genfens(&words) {
                prop_assert_eq!(Ok(request.count), words[0].parse::<usize>());
                prop_assert_eq!(Ok(request.seed), words[2].parse::<u64>());
            }
        }
    }

    #[test]
    fn reads_openbenchs_arguments() {
        let words: Vec<&str> = "8 seed 12 book None extra words".split_whitespace().collect();
        assert_eq!(parse_genfens(&words).unwrap(), GenfensRequest { count: 8, seed: 12, book: None });
        let words = ["2", "seed", "3", "book", "Books/UHO.epd"];
        assert_eq!(parse_genfens(&words).unwrap().book, Some(PathBuf::from("Books/UHO.epd")));
        for bad in ["", "8", "8 seed", "x seed 1 book None", "8 seed -1 book None", "8 seeds 1 book None", "8 seed 1"] {
            let words: Vec<&str> = bad.split_whitespace().collect();
            assert!(matches!(parse_genfens(&words), Err(GenfensError::Arguments(_))), "{bad:?}");
        }
    }
}
