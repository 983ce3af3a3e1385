//! Games on disk: the PGN of a game (Seven Tag Roster, `TimeControl`, `Termination`, a
//! `[%clk]` after each move), saved in its place of a file that may hold other games
//! (`slot`), and read back to continue it (`collection` finds it, `continued` writes it
//! back with everything the file held).

mod collection;
mod continued;
mod slot;

pub use slot::GameSlot;

use anyhow::{bail, Context, Result};
use collection::{choose, scan};
use continued::continued;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tempo_core::{clock::TimeControl, Game};
use tempo_notation::{pgn_date_time, pgn_string, PgnGame, PgnReader, PgnResult, PgnTermination};

/// What the PGN records besides the moves.
#[derive(Clone, Debug, Default)]
pub struct Record {
    pub white: String,
    pub black: String,
    /// `YYYY.MM.DD` and `HH:MM:SS` (UTC) of the start.
    pub date: String,
    pub time: String,
}

/// UTC date and time now: (`YYYY.MM.DD`, `HH:MM:SS`, `YYYYMMDD-HHMMSS`).
pub fn now_stamp() -> (String, String, String) {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (date, time) = pgn_date_time(secs);
    let stamp = format!("{}-{}", date.replace('.', ""), time.replace(':', ""));
    (date, time, stamp)
}

/// The folder where games are saved when no file is named: `games` in the platform's data
/// folder for Tempo (`$XDG_DATA_HOME/tempo/games`, by default `~/.local/share/tempo/games`
/// on Linux). It is created by the first save ([`GameSlot::creating_folder`]).
///
/// # Errors
/// No home folder is known.
pub fn games_folder() -> Result<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "tempo")
        .context("no home folder is known to save games in; name a file with --save FILE")?;
    Ok(dirs.data_dir().join("games"))
}

/// The place of a new game saved without `--save`: its own file,
/// `tempo-YYYYMMDD-HHMMSS.pgn` in [`games_folder`].
///
/// # Errors
/// As [`games_folder`].
pub fn default_slot(stamp: &str) -> Result<GameSlot> {
    Ok(GameSlot::own_file(games_folder()?.join(format!("tempo-{stamp}.pgn"))))
}

/// Saves `text` in a new file of [`games_folder`] when it could not be saved where it
/// belongs, and returns that file.
///
/// # Errors
/// The folder or the file cannot be written either.
pub fn rescue(text: &str) -> Result<PathBuf> {
    let folder = games_folder()?;
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let (_, _, stamp) = now_stamp();
    for n in 0..1000 {
        let name = if n == 0 { format!("rescued-{stamp}.pgn") } else { format!("rescued-{stamp}-{n}.pgn") };
        let path = folder.join(name);
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => {
                drop(file);
                tempo_output::write_atomically(&path, text.as_bytes())
                    .with_context(|| format!("cannot write {}", path.display()))?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e).with_context(|| format!("cannot write {}", path.display())),
        }
    }
    bail!("cannot find a free file name in {}", folder.display())
}

/// Where a save put a game.
pub struct Saved {
    pub path: PathBuf,
    /// Why the game is not where it belongs, when it had to go elsewhere.
    pub failure: Option<String>,
    /// How to continue the game from `path` (`tempo --pgn FILE [--game N]`).
    pub resume: String,
}

impl Saved {
    /// "saved in FILE", or why it could not be and where it went instead, to follow "the
    /// game is".
    pub fn describe(&self) -> String {
        match &self.failure {
            None => format!("saved in {}", self.path.display()),
            Some(why) => format!("NOT saved where it belongs ({why}); it is saved in {} instead", self.path.display()),
        }
    }

    /// [`Saved::describe`] as a sentence of its own.
    pub fn sentence(&self) -> String {
        match &self.failure {
            None => format!("Saved in {}", self.path.display()),
            Some(why) => format!("NOT saved where it belongs ({why}); saved in {} instead", self.path.display()),
        }
    }
}

/// Saves `text` (one game) in its place of `slot`'s file, or, when that fails, in a new
/// file of [`games_folder`].
///
/// # Errors
/// Neither worked: the message says both reasons. The caller still holds the text and
/// must not drop it.
pub fn save_or_rescue(slot: &mut GameSlot, text: &str) -> Result<Saved> {
    match slot.save(text) {
        Ok(()) => Ok(Saved { path: slot.path().to_owned(), failure: None, resume: resume_command(slot) }),
        Err(error) => {
            let path = rescue(text).with_context(|| format!("{error}; nor in Tempo's folder of games"))?;
            let resume = format!("tempo --pgn {}{}", path.display(), slot.resume_options());
            Ok(Saved { path, failure: Some(error.to_string()), resume })
        }
    }
}

/// The command that continues `slot`'s game: `--game N` when its file holds other games.
fn resume_command(slot: &GameSlot) -> String {
    let path = slot.path();
    let number = std::fs::read(path).ok().and_then(|file| {
        let games = scan(&file);
        let mine = slot.start()?;
        let number = games.iter().find(|g| g.span.start == mine)?.number;
        (games.len() > 1).then_some(number)
    });
    let options = slot.resume_options();
    match number {
        Some(n) => format!("tempo --pgn {} --game {n}{options}", path.display()),
        None => format!("tempo --pgn {}{options}", path.display()),
    }
}

/// The PGN of the game so far: for a new game, [`pgn_text`]'s; for a game continued from a
/// file (`original`), that game with everything it had and the moves played since.
pub fn game_text(game: &Game, record: &Record, original: Option<&PgnGame>) -> String {
    let played = new_game_pgn(game, record);
    match original {
        Some(original) => pgn_string(&continued(original, game, &played)),
        None => pgn_string(&played),
    }
}

/// A new game's PGN: Tempo's tags, a `[%clk]` after each move of a timed game.
fn new_game_pgn(game: &Game, record: &Record) -> PgnGame {
    let mut pgn = PgnGame::from_game(game);
    pgn.set_tag("Event", "Tempo game");
    pgn.set_tag("Site", "Tempo terminal");
    pgn.set_tag("Date", record.date.as_str());
    pgn.set_tag("Round", "-");
    pgn.set_tag("White", record.white.as_str());
    pgn.set_tag("Black", record.black.as_str());
    // A timed game's TimeControl tag comes from the game itself.
    if pgn.tag("TimeControl").is_none() {
        pgn.set_tag("TimeControl", "-");
    }
    // The wall clock measures nanoseconds; a PGN reader wants what a clock face shows.
    if let Some(clock) = game.clock().filter(|c| c.control().is_timed()) {
        for (i, node) in pgn.moves.iter_mut().enumerate() {
            if let Some(left) = clock.remaining_after(i) {
                node.comments.retain(|c| !c.contains("[%clk"));
                // First, before any comment on how the game ended.
                node.comments.insert(0, format!("[%clk {}]", clk_text(left)));
            }
        }
    }
    if game.outcome().is_none() {
        // The PGN standard's word for a game saved before it ended (to be resumed).
        pgn.set_tag("Termination", PgnTermination::Unterminated.to_string());
    }
    pgn.set_tag("UTCTime", record.time.as_str());
    pgn
}

/// `[%clk]` time in tenths of a second, truncated like a clock face: `0:04:59.7`, `0:05:00`.
fn clk_text(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    let secs = tenths / 10;
    let base = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if tenths % 10 == 0 {
        base
    } else {
        format!("{base}.{}", tenths % 10)
    }
}

/// Which game of a file to read.
#[derive(Clone, Copy, Debug)]
pub enum Pick {
    /// Game N (1-based, broken games counted).
    Number(u64),
    /// The only unfinished game (or the only game).
    Unfinished,
    /// The last game of the file.
    Last,
}

/// A game read back from a PGN file.
pub struct Loaded {
    pub game: Game,
    /// The result written in the file, when the game was finished there.
    pub result: Option<PgnResult>,
    pub white: Option<String>,
    pub black: Option<String>,
    /// The game as the file holds it (tags, comments, variations), to be written back whole.
    pub original: PgnGame,
    /// Its place in the file.
    pub slot: GameSlot,
    /// Its number in the file (1-based).
    pub number: u64,
    /// How many games the file holds.
    pub games_in_file: usize,
    /// Whether the game's text is UTF-8: only then can it be written back as it was (a
    /// Latin-1 name would come back with its letters replaced).
    pub utf8: bool,
}

/// Reads game `pick` of `path` and replays it; with a timed `TimeControl` tag the clocks
/// are rebuilt from the `[%clk]` comments (each move is charged the time its comment shows
/// was spent), so that taking moves back restores them too. `fallback` is the time control
/// to use when the file has none.
///
/// # Errors
/// The file cannot be read, holds no such game (the message lists the games to choose from
/// when the choice is not clear), or the game cannot be replayed.
pub fn load(path: &Path, pick: Pick, fallback: Option<TimeControl>) -> Result<Loaded> {
    let file = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let games = scan(&file);
    let stored = match pick {
        Pick::Number(n) => choose(path, &games, Some(n))?,
        Pick::Unfinished => choose(path, &games, None)?,
        Pick::Last => choose(path, &games, games.last().map(|g| g.number))?,
    };
    let number = stored.number;
    let pgn = PgnReader::new(&file[stored.span.clone()])
        .games()
        .next()
        .with_context(|| format!("game {number} of {} cannot be read", path.display()))?
        .with_context(|| format!("cannot read game {number} of {}", path.display()))?;
    let game = replay(&pgn, fallback).with_context(|| format!("game {number} of {}", path.display()))?;
    let result = pgn.result.filter(|r| *r != PgnResult::Ongoing);
    Ok(Loaded {
        game,
        result,
        white: pgn.tag("White").map(str::to_owned),
        black: pgn.tag("Black").map(str::to_owned),
        slot: GameSlot::replacing(path.to_owned(), &file, stored.span.clone()),
        original: pgn,
        number,
        games_in_file: games.len(),
        utf8: std::str::from_utf8(&file[stored.span.clone()]).is_ok(),
    })
}

/// `pgn`'s main line through the arbiter, with the clocks its `[%clk]` comments show.
fn replay(pgn: &PgnGame, fallback: Option<TimeControl>) -> Result<Game> {
    let tag_tc = pgn.tag("TimeControl").and_then(|t| t.parse::<TimeControl>().ok()).filter(TimeControl::is_timed);
    let mut game = match tag_tc.or(fallback) {
        Some(tc) => Game::with_time_control(pgn.start, tc),
        None => Game::new(pgn.start),
    };
    for (index, node) in pgn.moves.iter().enumerate() {
        if node.mv.is_null() {
            // PGN readers take `--` and `Z0` (a database's placeholder for a skipped turn), but
            // no game of the rules has one to continue.
            bail!("move {} is a null move (`--`): a game with one cannot be continued", index + 1);
        }
        let written = node.annotations().clock;
        let elapsed = match (game.clock(), written) {
            (Some(clock), Some(after)) => {
                let mover = game.position().turn();
                let before = clock.remaining(mover);
                let mut probe = clock.clone();
                probe.press(Duration::ZERO);
                let with_bonus = probe.remaining(mover).max(before);
                with_bonus.saturating_sub(after)
            }
            _ => Duration::ZERO,
        };
        let ended =
            game.play_timed(node.mv, elapsed).with_context(|| format!("move {} cannot be played", index + 1))?;
        if ended.is_some() && index + 1 < pgn.moves.len() {
            bail!("it continues after the game ended ({})", game.outcome().map_or(String::new(), |o| o.to_string()));
        }
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::Position;
    use tempo_notation::parse_san;

    #[test]
    fn clock_comments() {
        assert_eq!(clk_text(Duration::from_millis(299_789)), "0:04:59.7");
        assert_eq!(clk_text(Duration::from_secs(3_900)), "1:05:00");
    }

    #[test]
    fn a_game_with_a_null_move_is_refused_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("null.pgn");
        std::fs::write(&path, "[Event \"a\"]\n\n1. e4 -- 2. d4 *\n").unwrap();
        let error = format!("{:#}", load(&path, Pick::Unfinished, None).err().expect("refused"));
        assert!(error.contains("move 2 is a null move (`--`): a game with one cannot be continued"), "{error}");
    }

    #[test]
    fn round_trip_with_clocks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.pgn");
        let mut game = Game::with_time_control(Position::startpos(), "180+2".parse().unwrap());
        let record =
            Record { white: "Alice".into(), black: "Tempo".into(), date: "2026.11.22".into(), time: "07:00:00".into() };
        for (san, secs) in [("e4", 3), ("e5", 5), ("Nf3", 10)] {
            let m = parse_san(game.position(), san).unwrap();
            game.play_timed(m, Duration::from_secs(secs)).unwrap();
        }
        let text = game_text(&game, &record, None);
        insta::assert_snapshot!(text);
        GameSlot::append_to(path.clone()).save(&text).unwrap();
        let loaded = load(&path, Pick::Unfinished, None).unwrap();
        assert_eq!(loaded.game.moves(), game.moves());
        assert_eq!(loaded.game.clock(), game.clock(), "clocks rebuilt from %clk");
        assert_eq!(loaded.result, None);
    }

    /// A random game of `plies` legal moves (fewer if it ends), as PGN with tags, comments,
    /// NAGs and a variation, finished (`1-0`) or not.
    fn collection_game(index: usize, seed: u64, plies: usize, finished: bool) -> (String, Vec<tempo_core::Move>) {
        use tempo_notation::san;
        let mut game = Game::new(Position::startpos());
        let mut movetext = format!("{{Game {index} starts}} ");
        let mut moves = Vec::new();
        let mut state = seed | 1;
        for ply in 0..plies {
            let legal = game.position().legal_moves();
            if legal.is_empty() || game.outcome().is_some() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = legal[(state % legal.len() as u64) as usize];
            let before = *game.position();
            if ply % 2 == 0 {
                movetext.push_str(&format!("{}. ", ply / 2 + 1));
            }
            movetext.push_str(&san(&before, m));
            if ply == 1 {
                movetext.push_str(" $1 {a comment}");
            }
            if ply == 2 && legal.len() > 1 {
                let other = legal[((state >> 8) % legal.len() as u64) as usize];
                if other != m {
                    let number =
                        if ply % 2 == 0 { format!("{}. ", ply / 2 + 1) } else { format!("{}... ", ply / 2 + 1) };
                    movetext.push_str(&format!(" ({number}{} {{an idea}})", san(&before, other)));
                }
            }
            movetext.push(' ');
            game.play(m).unwrap();
            moves.push(m);
        }
        let result = if finished { "1-0" } else { "*" };
        let text = format!(
            "[Event \"Event {index}\"]\n[Site \"Club {seed}\"]\n[Round \"{index}\"]\n[White \"W{index}\"]\n\
             [Black \"B{index}\"]\n[Result \"{result}\"]\n[ECO \"A{index:02}\"]\n\n{movetext}{result}"
        );
        (text, moves)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        /// Continue game k of a collection and save it: every other byte of the file stays,
        /// and the continued game keeps its tags, comments, NAGs and variations.
        #[test]
        fn continuing_one_game_keeps_every_other_byte(
            specs in proptest::collection::vec((proptest::num::u64::ANY, 0usize..12, proptest::bool::ANY), 1..6),
            separators in proptest::collection::vec(proptest::sample::select(vec!["\n\n", "\n\n\n", "\r\n\r\n", "\n"]), 6),
            pick in proptest::num::usize::ANY,
            new_plies in 0usize..5,
        ) {
            let mut file = String::new();
            let mut unfinished = Vec::new();
            for (i, &(seed, plies, finished)) in specs.iter().enumerate() {
                let (text, _) = collection_game(i + 1, seed, plies, finished);
                file.push_str(&text);
                file.push_str(separators[i]);
                if !finished {
                    unfinished.push(i + 1);
                }
            }
            proptest::prop_assume!(!unfinished.is_empty());
            let k = unfinished[pick % unfinished.len()];
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("games.pgn");
            std::fs::write(&path, &file).unwrap();
            let before = scan(file.as_bytes());
            proptest::prop_assert_eq!(before.len(), specs.len());

            let mut loaded = load(&path, Pick::Number(k as u64), None).unwrap();
            // A game over by the rules is not continued (the program says so and stops).
            proptest::prop_assume!(loaded.game.outcome().is_none());
            let original = loaded.original.clone();
            for _ in 0..new_plies {
                let legal = loaded.game.position().legal_moves();
                if legal.is_empty() || loaded.game.outcome().is_some() {
                    break;
                }
                loaded.game.play(legal[0]).unwrap();
            }
            let record = Record { white: "x".into(), black: "y".into(), date: "2026.11.27".into(), time: "00:00:00".into() };
            let text = game_text(&loaded.game, &record, Some(&original));
            loaded.slot.save(&text).unwrap();

            let saved = std::fs::read(&path).unwrap();
            let span = &before[k - 1].span;
            let end = span.start + file.as_bytes()[span.clone()].trim_ascii_end().len();
            proptest::prop_assert_eq!(&saved[..span.start], &file.as_bytes()[..span.start]);
            let after = &file.as_bytes()[end..];
            proptest::prop_assert!(saved.ends_with(after), "the bytes after game {} are kept", k);
            let after_scan = scan(&saved);
            proptest::prop_assert_eq!(after_scan.len(), specs.len());
            for (old, new) in before.iter().zip(&after_scan) {
                if old.number as usize != k {
                    proptest::prop_assert_eq!(&file.as_bytes()[old.span.clone()], &saved[new.span.clone()]);
                }
            }
            let continued = PgnReader::new(&saved[after_scan[k - 1].span.clone()]).games().next().unwrap().unwrap();
            for (name, value) in &original.tags {
                if name != "Result" {
                    proptest::prop_assert_eq!(continued.tag(name), Some(value.as_str()), "tag {}", name);
                }
            }
            proptest::prop_assert_eq!(&continued.comments, &original.comments);
            proptest::prop_assert_eq!(&continued.moves[..original.moves.len()], &original.moves[..]);
            proptest::prop_assert_eq!(continued.mainline(), loaded.game.moves().to_vec());
        }
    }
}
