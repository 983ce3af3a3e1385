//! The games of a PGN file, where each one lies in it, and which one to continue.

use anyhow::{bail, Result};
use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;
use tempo_notation::{PgnGame, PgnReader, PgnResult};

/// One game of a file, as the reader found it.
#[derive(Debug)]
pub struct StoredGame {
    /// 1-based, counting broken games too (the numbers `tempo-tools pgn check` gives).
    pub number: u64,
    /// Its bytes in the file.
    pub span: Range<usize>,
    /// What the list of games shows; the reader's error for a broken game.
    pub summary: Result<Summary, String>,
}

#[derive(Debug)]
pub struct Summary {
    pub result: PgnResult,
    white: String,
    black: String,
    event: Option<String>,
    date: Option<String>,
    moves: usize,
}

impl Summary {
    fn of(game: &PgnGame) -> Summary {
        let known = |name| game.tag(name).filter(|v| !v.is_empty() && !v.starts_with('?')).map(str::to_owned);
        Summary {
            result: game.export_result(),
            white: known("White").unwrap_or_else(|| "?".to_owned()),
            black: known("Black").unwrap_or_else(|| "?".to_owned()),
            event: known("Event"),
            date: known("Date"),
            moves: game.moves.len().div_ceil(2),
        }
    }
}

impl std::fmt::Display for StoredGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.summary {
            Err(error) => write!(f, "{:>4}. (cannot be read: {error})", self.number),
            Ok(s) => {
                write!(f, "{:>4}. {} - {}", self.number, s.white, s.black)?;
                for extra in [&s.event, &s.date].into_iter().flatten() {
                    write!(f, ", {extra}")?;
                }
                let moves = if s.moves == 1 { "move" } else { "moves" };
                write!(f, ", {} {moves}, {}", s.moves, s.result)
            }
        }
    }
}

/// Every game of `file` (a PGN file's bytes), broken ones included.
pub fn scan(file: &[u8]) -> Vec<StoredGame> {
    let mut games = PgnReader::new(file).games();
    let mut out = Vec::new();
    while let Some(game) = games.next() {
        let reader = games.reader();
        let span = reader.game_span();
        out.push(StoredGame {
            number: reader.games_read(),
            span: span.start as usize..span.end as usize,
            summary: game.as_ref().map(Summary::of).map_err(ToString::to_string),
        });
    }
    out
}

/// The game to continue: number `wanted`, else the only unfinished one (result `*`).
///
/// # Errors
/// No such game, a broken one, or no choice to make: the message lists the games to choose
/// from.
pub fn choose<'a>(path: &Path, games: &'a [StoredGame], wanted: Option<u64>) -> Result<&'a StoredGame> {
    let file = path.display();
    if games.is_empty() {
        bail!("{file} holds no game");
    }
    if let Some(n) = wanted {
        let Some(game) = games.iter().find(|g| g.number == n) else {
            let count = games.len();
            bail!("{file} holds {count} game{}; there is no game {n}", if count == 1 { "" } else { "s" });
        };
        if let Err(error) = &game.summary {
            bail!("game {n} of {file} cannot be read: {error}");
        }
        return Ok(game);
    }
    if let [only] = games {
        return match &only.summary {
            Ok(_) => Ok(only),
            Err(error) => bail!("the game in {file} cannot be read: {error}"),
        };
    }
    let unfinished: Vec<&StoredGame> =
        games.iter().filter(|g| g.summary.as_ref().is_ok_and(|s| s.result == PgnResult::Ongoing)).collect();
    match unfinished.as_slice() {
        [one] => Ok(one),
        [] => bail!(
            "every game of {file} ({} games) has ended; choose one with --game N to see how it ended",
            games.len()
        ),
        several => {
            let mut list = String::new();
            for game in several {
                let _ = write!(list, "\n{game}");
            }
            bail!("{file} holds {} unfinished games; choose one with --game N:{list}", several.len())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "[Event \"Club championship\"]\n[White \"Ann\"]\n[Black \"Bo\"]\n\n1. e4 e5 *\n\n\
        [White \"Cy\"]\n\n1. d4 d5 2. c4 1-0\n\n[FEN \"garbage\"]\n\n1. e4 *\n\n[White \"Di\"]\n\n1. c4 *\n";

    #[test]
    fn spans_hold_each_game() {
        let games = scan(FILE.as_bytes());
        assert_eq!(games.iter().map(|g| g.number).collect::<Vec<_>>(), [1, 2, 3, 4]);
        assert!(FILE[games[0].span.clone()].starts_with("[Event \"Club championship\"]"));
        assert!(FILE[games[0].span.clone()].trim_end().ends_with("1. e4 e5 *"));
        assert!(FILE[games[1].span.clone()].trim_end().ends_with("2. c4 1-0"));
        assert!(games[2].summary.is_err());
        assert!(FILE[games[3].span.clone()].starts_with("[White \"Di\"]"));
    }

    #[test]
    fn the_only_unfinished_game_is_chosen_else_the_list_is_shown() {
        let path = Path::new("club.pgn");
        let games = scan(FILE.as_bytes());
        let error = choose(path, &games, None).unwrap_err().to_string();
        assert_eq!(
            error,
            "club.pgn holds 2 unfinished games; choose one with --game N:\n   \
             1. Ann - Bo, Club championship, 1 move, *\n   4. Di - ?, 1 move, *"
        );
        assert_eq!(choose(path, &games, Some(2)).unwrap().number, 2);
        let error = choose(path, &games, Some(3)).unwrap_err().to_string();
        assert!(error.starts_with("game 3 of club.pgn cannot be read:"), "{error}");
        let error = choose(path, &games, Some(5)).unwrap_err().to_string();
        assert_eq!(error, "club.pgn holds 4 games; there is no game 5");
        let one = &FILE[..FILE.find("\n\n[White \"Cy\"]").unwrap()];
        let games = scan(format!("{one}\n\n[White \"Cy\"]\n\n1. d4 1-0\n").as_bytes());
        assert_eq!(choose(path, &games, None).unwrap().number, 1);
        assert_eq!(choose(path, &scan(b"  \n"), None).unwrap_err().to_string(), "club.pgn holds no game");
    }
}
