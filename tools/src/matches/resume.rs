//! `--resume`: a match continues from the games its PGN file already holds, so that a long
//! SPRT can be played in several sittings (a session that ends, a machine that reboots).
//!
//! Each game's `Round` tag (`pairing.game`, both from 1) names the scheduled game it was;
//! that game is not played again and its result counts in the totals as if it had just been
//! played. The games must belong to this match: the same engine names in the same colours,
//! the same opening and the same limit: with a clock the same `TimeControl`, with a fixed
//! limit the same `MoveLimit` tag (nodes, depth or time a move; files written before that
//! tag existed cannot tell, and are taken when they hold no clock game). Anything else is
//! refused with the reason rather than mixed into the statistics.
//!
//! The runner writes and flushes whole games, so only the last game of the file can be
//! incomplete (the process was killed while writing it). Such a tail is cut off and the
//! game is played again; a broken game anywhere else is an error.
//!
//! Time forfeits, illegal moves and crashes are read back from the `Termination` tag
//! (`time forfeit`, `rules infraction`, `abandoned`) and charged to the loser. Clock
//! oversteps within the margin leave no trace in a PGN: the report counts those of this
//! sitting's games only.

use super::openings::Opening;
use super::play::{Incidents, MatchEngine, MoveLimit};
use anyhow::{bail, Context, Result};
use std::io::BufReader;
use std::path::Path;
use tempo_core::{Color, GameResult};
use tempo_notation::{PgnGame, PgnReader, PgnResult, PgnTermination};

/// The game a scheduled slot stands for: who plays White and Black, from which opening.
pub struct Slot<'a> {
    pub white: &'a MatchEngine,
    pub black: &'a MatchEngine,
    pub opening: &'a Opening,
}

/// A game found in the file, as the match counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Index of its slot in the schedule.
    pub slot: usize,
    pub result: GameResult,
    pub incidents: Incidents,
}

/// What the file holds.
#[derive(Debug)]
pub struct Played {
    pub games: Vec<PlayedGame>,
    /// Bytes of the file that hold complete games: the rest, if any, is an incomplete last
    /// game to cut off.
    pub complete_bytes: u64,
    /// Whether there is such a tail.
    pub torn_tail: bool,
}

/// Reads the games of `path` against the match's schedule: `slots[i]` is round
/// `pairing.game` with `i = (pairing - 1) * games_per_pairing + (game - 1)`.
///
/// # Errors
/// If the file cannot be read, a game other than the last is broken, or a game does not
/// belong to this match (round outside the schedule or played twice, other engines or
/// colours, another opening or time control).
pub fn read_played(path: &Path, slots: &[Slot<'_>], games_per_pairing: usize, limit: &MoveLimit) -> Result<Played> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut games = PgnReader::new(BufReader::new(file)).games();
    let mut played = Played { games: Vec::new(), complete_bytes: 0, torn_tail: false };
    let mut seen = vec![false; slots.len()];
    let mut number = 0;
    while let Some(game) = games.next() {
        number += 1;
        let here = || format!("{}: game {number}", path.display());
        if played.torn_tail {
            bail!("{}: a broken game is followed by others; not resuming from a damaged file", here());
        }
        let game = match game {
            Ok(game) if game.result.is_some() => game,
            // Cut short while being written: only acceptable as the last game.
            _ => {
                played.torn_tail = true;
                continue;
            }
        };
        let slot = slot_of(&game, games_per_pairing, slots.len()).with_context(here)?;
        if std::mem::replace(&mut seen[slot], true) {
            bail!("{}: round {} appears twice", here(), game.tag("Round").unwrap_or("?"));
        }
        check_belongs(&game, &slots[slot], limit).with_context(here)?;
        let result = result_of(&game).with_context(here)?;
        played.games.push(PlayedGame { slot, result, incidents: incidents(&game, result) });
        played.complete_bytes = games.reader().bytes_read();
    }
    Ok(played)
}

/// The slot a game's `Round` tag names.
fn slot_of(game: &PgnGame, games_per_pairing: usize, slots: usize) -> Result<usize> {
    let round = game.tag("Round").context("no Round tag")?;
    let parsed = round.split_once('.').and_then(|(p, g)| Some((p.parse::<usize>().ok()?, g.parse::<usize>().ok()?)));
    let Some((pairing, number)) = parsed.filter(|&(p, g)| p >= 1 && (1..=games_per_pairing).contains(&g)) else {
        bail!("round {round:?} is not `pairing.game` within this match's {games_per_pairing} games per pairing");
    };
    let slot = (pairing - 1) * games_per_pairing + (number - 1);
    if slot >= slots {
        bail!("round {round} is not scheduled in this match");
    }
    Ok(slot)
}

/// Checks that `game` is the game `slot` schedules.
fn check_belongs(game: &PgnGame, slot: &Slot<'_>, limit: &MoveLimit) -> Result<()> {
    let round = game.tag("Round").unwrap_or("?");
    let names = (game.tag("White").unwrap_or("?"), game.tag("Black").unwrap_or("?"));
    if names != (slot.white.name.as_str(), slot.black.name.as_str()) {
        bail!(
            "round {round} was {} vs {}, but this match schedules {} vs {}: resume with the same \
             --engine and --name arguments in the same order",
            names.0,
            names.1,
            slot.white.name,
            slot.black.name
        );
    }
    let opening = slot.opening;
    let moves = game.mainline();
    if game.start.fen() != opening.start.fen() || !moves.starts_with(&opening.moves) {
        bail!(
            "round {round} started from another opening than this match schedules for it (FEN {}): \
             resume with the same --openings, --opening-offset and --games",
            opening.start.fen()
        );
    }
    let played = describe_limit(game.tag(MOVE_LIMIT_TAG), game.tag("TimeControl"));
    let expected = describe_limit(move_limit_tag(limit).as_deref(), clock_tag(limit).as_deref());
    let same = match limit {
        MoveLimit::Clock(_) => played == expected,
        // A fixed-limit game of an older file has neither tag.
        _ => played == expected || (game.tag(MOVE_LIMIT_TAG).is_none() && game.tag("TimeControl").is_none()),
    };
    if !same {
        bail!("round {round} was played with {played}, this match with {expected}");
    }
    Ok(())
}

/// The PGN tag that records a fixed limit (no standard tag has one: `TimeControl` is for
/// clocks).
pub const MOVE_LIMIT_TAG: &str = "MoveLimit";

/// The `TimeControl` tag of a game played under `limit` (clocks only).
pub fn clock_tag(limit: &MoveLimit) -> Option<String> {
    match limit {
        MoveLimit::Clock(control) => Some(control.to_string()),
        _ => None,
    }
}

/// The [`MOVE_LIMIT_TAG`] of a game played under `limit` (fixed limits only), as the
/// command line's option would say it: `nodes 50000`, `depth 8`, `movetime 100` (ms).
pub fn move_limit_tag(limit: &MoveLimit) -> Option<String> {
    match limit {
        MoveLimit::Clock(_) => None,
        MoveLimit::Nodes(n) => Some(format!("nodes {n}")),
        MoveLimit::Depth(d) => Some(format!("depth {d}")),
        MoveLimit::MoveTime(t) => Some(format!("movetime {}", t.as_millis())),
    }
}

/// A game's limit in words, from its two tags.
fn describe_limit(move_limit: Option<&str>, time_control: Option<&str>) -> String {
    match (move_limit, time_control) {
        (Some(fixed), _) => format!("a fixed limit of {fixed}"),
        (None, Some(clock)) => format!("TimeControl {clock:?}"),
        (None, None) => "no recorded limit".to_owned(),
    }
}

/// The game's result from its `Result` tag (the runner writes only finished games).
fn result_of(game: &PgnGame) -> Result<GameResult> {
    let tag = game.tag("Result").unwrap_or("*");
    match tag.parse::<PgnResult>() {
        Ok(PgnResult::WhiteWins) => Ok(GameResult::WhiteWins),
        Ok(PgnResult::BlackWins) => Ok(GameResult::BlackWins),
        Ok(PgnResult::Draw) => Ok(GameResult::Draw),
        Ok(PgnResult::Ongoing) | Err(_) => bail!("result {tag:?} is not a finished game's"),
    }
}

/// The incidents a game's `Termination` tag records, charged to the side that lost.
fn incidents(game: &PgnGame, result: GameResult) -> Incidents {
    let mut incidents = Incidents::default();
    let loser = match result {
        GameResult::WhiteWins => Color::Black,
        GameResult::BlackWins => Color::White,
        GameResult::Draw => return incidents,
    };
    let counter = match game.tag("Termination").and_then(|t| t.parse::<PgnTermination>().ok()) {
        Some(PgnTermination::TimeForfeit) => &mut incidents.time_forfeits,
        Some(PgnTermination::RulesInfraction) => &mut incidents.illegal_moves,
        Some(PgnTermination::Abandoned) => &mut incidents.crashes,
        _ => return incidents,
    };
    counter[loser.index()] += 1;
    incidents
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::clock::TimeControl;
    use tempo_uci::EngineSpec;

    fn engine(name: &str) -> MatchEngine {
        MatchEngine { name: name.to_owned(), spec: EngineSpec::from_command_line(name).unwrap(), protocol: None }
    }

    /// A game as the runner writes it.
    fn game(round: &str, white: &str, black: &str, result: &str, termination: &str) -> String {
        format!(
            "[Event \"tempo-tools match\"]\n[Site \"?\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
             [Black \"{black}\"]\n[Result \"{result}\"]\n[TimeControl \"10+0.1\"]\n\
             [Termination \"{termination}\"]\n\n1. e4 {{[%clk 0:00:09.9]}} e5 {{[%clk 0:00:09.9]}} {result}\n\n"
        )
    }

    struct Schedule {
        engines: [MatchEngine; 2],
        opening: Opening,
        limit: MoveLimit,
    }

    impl Schedule {
        fn new() -> Schedule {
            let limit = MoveLimit::Clock("10+0.1".parse::<TimeControl>().unwrap());
            Schedule { engines: [engine("a"), engine("b")], opening: Opening::startpos(), limit }
        }

        /// Four games of one pairing, colours alternating, all from the start position.
        fn slots(&self) -> Vec<Slot<'_>> {
            (0..4)
                .map(|g| {
                    let [a, b] = &self.engines;
                    let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                    Slot { white, black, opening: &self.opening }
                })
                .collect()
        }

        fn read(&self, text: &str) -> Result<Played> {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("games.pgn");
            std::fs::write(&path, text).unwrap();
            read_played(&path, &self.slots(), 4, &self.limit)
        }
    }

    #[test]
    fn games_count_with_their_slots_results_and_incidents() {
        let schedule = Schedule::new();
        let text = [
            game("1.1", "a", "b", "1-0", "normal"),
            game("1.3", "a", "b", "0-1", "time forfeit"),
            game("1.2", "b", "a", "1-0", "rules infraction"),
            game("1.4", "b", "a", "1/2-1/2", "adjudication"),
        ]
        .concat();
        let played = schedule.read(&text).unwrap();
        assert!(!played.torn_tail);
        assert_eq!(played.complete_bytes, text.trim_end().len() as u64);
        let summary: Vec<(usize, GameResult)> = played.games.iter().map(|g| (g.slot, g.result)).collect();
        assert_eq!(
            summary,
            [(0, GameResult::WhiteWins), (2, GameResult::BlackWins), (1, GameResult::WhiteWins), (3, GameResult::Draw)]
        );
        // White lost on time in round 1.3; Black played an illegal move in round 1.2.
        assert_eq!(played.games[1].incidents.time_forfeits, [1, 0]);
        assert_eq!(played.games[2].incidents.illegal_moves, [0, 1]);
        assert_eq!(played.games[0].incidents, Incidents::default());
        assert_eq!(played.games[3].incidents, Incidents::default());
    }

    #[test]
    fn a_game_cut_short_at_the_end_is_dropped() {
        let schedule = Schedule::new();
        let whole = game("1.1", "a", "b", "1-0", "normal");
        for cut in [10, 120, whole.len() - 12] {
            let text = format!("{whole}{}", &game("1.2", "b", "a", "0-1", "normal")[..cut]);
            let played = schedule.read(&text).unwrap();
            assert!(played.torn_tail, "cut at {cut}");
            assert_eq!(played.games.len(), 1);
            assert_eq!(&text[..played.complete_bytes as usize], whole.trim_end());
        }
        // Only the last game may be broken (here by an illegal move).
        let broken = whole.replace("e5 {", "e4 {");
        let text = format!("{broken}{}", game("1.2", "b", "a", "0-1", "normal"));
        let error = schedule.read(&text).unwrap_err();
        assert!(format!("{error:#}").contains("broken game is followed by others"), "{error:#}");
    }

    #[test]
    fn games_of_another_match_are_refused() {
        let schedule = Schedule::new();
        let refused = |text: String, expected: &str| {
            let error = format!("{:#}", schedule.read(&text).unwrap_err());
            assert!(error.contains(expected), "{error}");
        };
        refused(game("1.1", "b", "a", "1-0", "normal"), "this match schedules a vs b");
        refused(game("1.5", "a", "b", "1-0", "normal"), "within this match's 4 games");
        refused(game("2.1", "a", "b", "1-0", "normal"), "not scheduled");
        refused(game("x", "a", "b", "1-0", "normal"), "not `pairing.game`");
        refused([game("1.1", "a", "b", "1-0", "normal"), game("1.1", "a", "b", "0-1", "normal")].concat(), "twice");
        refused(game("1.1", "a", "b", "1-0", "normal").replace("10+0.1", "60+1"), "TimeControl \"60+1\"");
        let from_elsewhere = game("1.1", "a", "b", "1-0", "normal")
            .replace("[Round", "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[Round")
            .replace("1. e4 {[%clk 0:00:09.9]} e5 {[%clk 0:00:09.9]}", "1. Kd2 Kd8");
        refused(from_elsewhere, "another opening");
    }

    #[test]
    fn a_fixed_limit_must_be_the_same() {
        let nodes = |n: u64| Schedule { limit: MoveLimit::Nodes(n), ..Schedule::new() };
        let fixed = |limit: &str| {
            game("1.1", "a", "b", "1-0", "normal")
                .replace("[TimeControl \"10+0.1\"]", &format!("[MoveLimit \"{limit}\"]"))
        };
        assert_eq!(nodes(2000).read(&fixed("nodes 2000")).unwrap().games.len(), 1);
        let error = format!("{:#}", nodes(3000).read(&fixed("nodes 2000")).unwrap_err());
        assert!(error.contains("a fixed limit of nodes 2000, this match with a fixed limit of nodes 3000"), "{error}");
        let depth = Schedule { limit: MoveLimit::Depth(2), ..Schedule::new() };
        assert!(depth.read(&fixed("nodes 2000")).is_err());
        // A clock game in a fixed-limit match, and a fixed-limit game in a clock match.
        let error = format!("{:#}", nodes(2000).read(&game("1.1", "a", "b", "1-0", "normal")).unwrap_err());
        assert!(error.contains("TimeControl \"10+0.1\", this match with a fixed limit of nodes 2000"), "{error}");
        assert!(Schedule::new().read(&fixed("nodes 2000")).is_err());
        // A file from before the tag: no clock, so taken.
        let old = game("1.1", "a", "b", "1-0", "normal").replace("[TimeControl \"10+0.1\"]\n", "");
        assert_eq!(nodes(2000).read(&old).unwrap().games.len(), 1);
    }
}
