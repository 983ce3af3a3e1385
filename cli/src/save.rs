//! Games on disk: the PGN of a game (Seven Tag Roster, `TimeControl`, `Termination`, a
//! `[%clk]` after each move), written atomically, and read back to continue it.

use anyhow::{bail, Context, Result};
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

/// The default file of a new game: `tempo-YYYYMMDD-HHMMSS.pgn` in the current directory.
pub fn default_path(stamp: &str) -> PathBuf {
    PathBuf::from(format!("tempo-{stamp}.pgn"))
}

/// The game as PGN text.
pub fn pgn_text(game: &Game, record: &Record) -> String {
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
    pgn_string(&pgn)
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

/// Writes `text` to `path` through a temporary file and a rename, so that an interruption
/// never leaves half a game (or destroys the previous save). Through a symbolic link the
/// file it points to is replaced, not the link; a path that is not a regular file (`/dev/null`,
/// `/dev/stdout`, a pipe) is written in place, since a rename would replace the device itself.
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    if !replaced_by_rename(path) {
        return std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()));
    }
    let path = &std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().with_context(|| format!("{} is not a file name", path.display()))?;
    // One temporary name per write: the Ctrl-C handler's save may run while another is
    // half-written, and two writers must not share (and rename away) one file.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{}.{}-{n}.tmp", name.to_string_lossy(), std::process::id()));
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot save {}", path.display()))?;
    Ok(())
}

/// `true` for a path that is a regular file (after following links) or does not exist yet.
fn replaced_by_rename(path: &Path) -> bool {
    std::fs::metadata(path).map_or(true, |meta| meta.is_file())
}

/// A game read back from a PGN file.
pub struct Loaded {
    pub game: Game,
    /// The result written in the file, when the game was finished there.
    pub result: Option<PgnResult>,
    pub white: Option<String>,
    pub black: Option<String>,
}

/// Reads the last game of `path` and replays it; with a timed `TimeControl` tag the clocks
/// are rebuilt from the `[%clk]` comments (each move is charged the time its comment shows
/// was spent), so that taking moves back restores them too. `fallback` is the time control
/// to use when the file has none.
pub fn load(path: &Path, fallback: Option<TimeControl>) -> Result<Loaded> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut last = None;
    for game in PgnReader::new(std::io::BufReader::new(file)).games() {
        last = Some(game.with_context(|| format!("cannot read {}", path.display()))?);
    }
    let Some(pgn) = last else { bail!("{} holds no game", path.display()) };
    let tag_tc = pgn.tag("TimeControl").and_then(|t| t.parse::<TimeControl>().ok()).filter(TimeControl::is_timed);
    let mut game = match tag_tc.or(fallback) {
        Some(tc) => Game::with_time_control(pgn.start, tc),
        None => Game::new(pgn.start),
    };
    for (index, node) in pgn.moves.iter().enumerate() {
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
        let ended = game
            .play_timed(node.mv, elapsed)
            .with_context(|| format!("move {} of {} cannot be played", index + 1, path.display()))?;
        if ended.is_some() && index + 1 < pgn.moves.len() {
            bail!(
                "{} continues after the game ended ({})",
                path.display(),
                game.outcome().map_or(String::new(), |o| o.to_string())
            );
        }
    }
    let result = pgn.result.filter(|r| *r != PgnResult::Ongoing);
    Ok(Loaded { game, result, white: pgn.tag("White").map(str::to_owned), black: pgn.tag("Black").map(str::to_owned) })
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
    fn saving_keeps_links_and_devices() {
        // Devices are written in place, never replaced (a rename over /dev/null, as root,
        // would turn it into a regular file for the whole machine).
        assert!(!replaced_by_rename(Path::new("/dev/null")) || !Path::new("/dev/null").exists());
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("new.pgn");
        assert!(replaced_by_rename(&new));
        write_file(&new, "first").unwrap();
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "first");
        #[cfg(unix)]
        {
            let link = dir.path().join("link.pgn");
            std::os::unix::fs::symlink(&new, &link).unwrap();
            write_file(&link, "second").unwrap();
            assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
            assert_eq!(std::fs::read_to_string(&new).unwrap(), "second");
        }
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
        let text = pgn_text(&game, &record);
        insta::assert_snapshot!(text);
        write_file(&path, &text).unwrap();
        let loaded = load(&path, None).unwrap();
        assert_eq!(loaded.game.moves(), game.moves());
        assert_eq!(loaded.game.clock(), game.clock(), "clocks rebuilt from %clk");
        assert_eq!(loaded.result, None);
    }
}
