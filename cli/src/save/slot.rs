//! A game's place in a PGN file: saving it rewrites that game alone and keeps every other
//! byte of the file as it was.
//!
//! A slot either replaces a game that was read from the file (continuing a game) or adds
//! one at the end (a new game, also into a file that already holds games). It remembers
//! the bytes it owns, so that a second save replaces what the first wrote instead of
//! adding the game again, and so that a file changed by another program meanwhile is
//! noticed instead of overwritten: the game is then found again by those bytes, or the save
//! is refused.

use std::fmt;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Why a game could not be saved in its file; the file is then as it was.
#[derive(Debug)]
pub enum SaveError {
    /// Reading or writing the file failed.
    Io { path: PathBuf, source: io::Error },
    /// The file no longer holds the game as this session last read or wrote it: another
    /// program changed it. Writing would lose that program's change or our game's place.
    Changed { path: PathBuf },
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::Io { path, source } => write!(f, "cannot write {}: {source}", path.display()),
            SaveError::Changed { path } => write!(
                f,
                "{} was changed by another program since this game was read or saved there; it is left as it is",
                path.display()
            ),
        }
    }
}

impl std::error::Error for SaveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SaveError::Io { source, .. } => Some(source),
            SaveError::Changed { .. } => None,
        }
    }
}

/// Where one game lives in one file (see the module docs).
#[derive(Clone, Debug)]
pub struct GameSlot {
    path: PathBuf,
    /// The game's bytes in the file, as last read or written; `None` before a new game's
    /// first save.
    owned: Option<Owned>,
    /// A new game added at the end of the file: its text keeps its final newline, and a
    /// blank line separates it from the game before it. A game read from the file is
    /// replaced without the whitespace after it, which stays.
    appended: bool,
    /// Create the file's folder at the first save (Tempo's own folder of games; a folder
    /// the user named is never made up).
    create_folder: bool,
    /// The options that continue the game with the same players (`--black human`), added
    /// to the command a save prints.
    resume_options: String,
    /// A file of the game's own (`tempo-DATE-TIME.pgn`): its first save creates it, under
    /// the next free name (`-1`, `-2`...) when another game took the name meanwhile.
    own_file: bool,
}

#[derive(Clone, Debug)]
struct Owned {
    span: Range<usize>,
    bytes: Vec<u8>,
}

impl GameSlot {
    /// A new game, added at the end of `path` at its first save (the file is created if it
    /// does not exist, never truncated).
    pub fn append_to(path: PathBuf) -> GameSlot {
        GameSlot {
            path,
            owned: None,
            appended: true,
            create_folder: false,
            resume_options: String::new(),
            own_file: false,
        }
    }

    /// The same slot, creating the file's folder at its first save.
    pub fn creating_folder(self) -> GameSlot {
        GameSlot { create_folder: true, ..self }
    }

    /// A new game in a file of its own at `path` (see [`GameSlot::save`]), in a folder
    /// created at the first save.
    pub fn own_file(path: PathBuf) -> GameSlot {
        GameSlot { own_file: true, ..GameSlot::append_to(path).creating_folder() }
    }

    /// Creates the own file under `path`'s name or, when another game has taken it (two
    /// games started in the same second), the next free `-N` name.
    fn claim_own_file(&mut self) -> io::Result<()> {
        let stem = self.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let folder = self.path.parent().map(Path::to_path_buf).unwrap_or_default();
        for n in 0..1000 {
            let name = if n == 0 { format!("{stem}.pgn") } else { format!("{stem}-{n}.pgn") };
            let candidate = folder.join(name);
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&candidate) {
                Ok(_) => {
                    self.path = candidate;
                    self.own_file = false;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(io::ErrorKind::AlreadyExists, "no free file name for the game"))
    }

    /// The game that occupies `span` of `file`, the content of `path` as just read.
    ///
    /// # Panics
    /// If `span` lies outside `file`.
    pub fn replacing(path: PathBuf, file: &[u8], span: Range<usize>) -> GameSlot {
        let end = span.start + file[span.clone()].trim_ascii_end().len();
        let span = span.start..end;
        let owned = Owned { bytes: file[span.clone()].to_vec(), span };
        GameSlot {
            path,
            owned: Some(owned),
            appended: false,
            create_folder: false,
            resume_options: String::new(),
            own_file: false,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The same slot, whose resume command carries `options` (` --black human`).
    pub fn resumed_with(self, options: String) -> GameSlot {
        GameSlot { resume_options: options, ..self }
    }

    /// See [`GameSlot::resumed_with`].
    pub fn resume_options(&self) -> &str {
        &self.resume_options
    }

    /// Where the game starts in the file, as last read or written.
    pub fn start(&self) -> Option<usize> {
        let owned = self.owned.as_ref()?;
        // An added game's bytes start with the blank line before it.
        let blank = owned.bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
        Some(owned.span.start + blank)
    }

    /// Saves `text` (one game in PGN) in place of this slot's game, atomically.
    ///
    /// # Errors
    /// [`SaveError`]; the file is then unchanged.
    pub fn save(&mut self, text: &str) -> Result<(), SaveError> {
        self.save_with(text, tempo_output::write_atomically)
    }

    /// [`GameSlot::save`] through `write` (tests inject failures here).
    pub(super) fn save_with(
        &mut self,
        text: &str,
        write: impl FnOnce(&Path, &[u8]) -> io::Result<()>,
    ) -> Result<(), SaveError> {
        if let Some(folder) = self.path.parent().filter(|_| self.create_folder) {
            std::fs::create_dir_all(folder).map_err(|source| SaveError::Io { path: self.path.clone(), source })?;
        }
        if self.own_file && self.owned.is_none() {
            self.claim_own_file().map_err(|source| SaveError::Io { path: self.path.clone(), source })?;
        }
        let io_error = |source| SaveError::Io { path: self.path.clone(), source };
        if std::fs::metadata(&self.path).is_ok_and(|meta| !meta.is_file()) {
            // A device or a pipe (`/dev/stdout`): nothing to keep, and nothing to read back.
            return write(&self.path, text.as_bytes()).map_err(io_error);
        }
        let file = match std::fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound && self.owned.is_none() => Vec::new(),
            Err(e) => return Err(io_error(e)),
        };
        let span = match &self.owned {
            None => file.len()..file.len(),
            Some(owned) => locate(&file, owned).ok_or_else(|| SaveError::Changed { path: self.path.clone() })?,
        };
        let mut game = Vec::with_capacity(text.len() + 2);
        if self.appended {
            game.extend_from_slice(separator(&file[..span.start]).as_bytes());
            game.extend_from_slice(text.as_bytes());
        } else {
            game.extend_from_slice(text.trim_end().as_bytes());
        }
        let mut out = Vec::with_capacity(file.len() - span.len() + game.len());
        out.extend_from_slice(&file[..span.start]);
        out.extend_from_slice(&game);
        out.extend_from_slice(&file[span.end..]);
        write(&self.path, &out).map_err(io_error)?;
        self.owned = Some(Owned { span: span.start..span.start + game.len(), bytes: game });
        Ok(())
    }
}

/// Where `owned` is in `file` now: where it was, or, when the file changed around it, its
/// only occurrence.
fn locate(file: &[u8], owned: &Owned) -> Option<Range<usize>> {
    if file.get(owned.span.clone()) == Some(owned.bytes.as_slice()) {
        return Some(owned.span.clone());
    }
    let needle = owned.bytes.as_slice();
    if needle.is_empty() {
        return None;
    }
    let mut found = file.windows(needle.len()).enumerate().filter(|(_, w)| *w == needle).map(|(i, _)| i);
    match (found.next(), found.next()) {
        (Some(start), None) => Some(start..start + needle.len()),
        _ => None,
    }
}

/// What goes between the file's last game (`before`) and an added one: a blank line.
fn separator(before: &[u8]) -> &'static str {
    if before.is_empty() || before.ends_with(b"\n\n") || before.ends_with(b"\r\n\r\n") {
        ""
    } else if before.ends_with(b"\n") {
        "\n"
    } else {
        "\n\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str = "[Event \"A\"]\n\n1. e4 e5 *\n\n[Event \"B\"]\n\n1. d4 1-0\n";

    #[test]
    fn two_games_started_in_the_same_second_get_a_file_each() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games").join("tempo-20261206-171500.pgn");
        let (mut first, mut second) = (GameSlot::own_file(path.clone()), GameSlot::own_file(path.clone()));
        first.save("[Event \"A\"]\n\n1. e4 *\n").unwrap();
        second.save("[Event \"B\"]\n\n1. d4 *\n").unwrap();
        first.save("[Event \"A\"]\n\n1. e4 e5 *\n").unwrap();
        assert_eq!(first.path(), path);
        assert_eq!(second.path(), dir.path().join("games").join("tempo-20261206-171500-1.pgn"));
        assert_eq!(std::fs::read_to_string(first.path()).unwrap(), "[Event \"A\"]\n\n1. e4 e5 *\n");
        assert_eq!(std::fs::read_to_string(second.path()).unwrap(), "[Event \"B\"]\n\n1. d4 *\n");
    }

    #[test]
    fn a_new_game_is_appended_once_and_then_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.pgn");
        std::fs::write(&path, TWO_GAMES).unwrap();
        let mut slot = GameSlot::append_to(path.clone());
        slot.save("[Event \"C\"]\n\n1. c4 *\n").unwrap();
        slot.save("[Event \"C\"]\n\n1. c4 c5 *\n").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{TWO_GAMES}\n[Event \"C\"]\n\n1. c4 c5 *\n"));
    }

    #[test]
    fn a_new_file_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.pgn");
        let mut slot = GameSlot::append_to(path.clone());
        slot.save("1. e4 *\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "1. e4 *\n");
    }

    #[test]
    fn a_game_read_from_the_file_is_replaced_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("two.pgn");
        std::fs::write(&path, TWO_GAMES).unwrap();
        let first = 0..TWO_GAMES.find("\n\n[Event \"B\"").unwrap();
        let mut slot = GameSlot::replacing(path.clone(), TWO_GAMES.as_bytes(), first);
        slot.save("[Event \"A\"]\n\n1. e4 e5 2. Nf3 *\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[Event \"A\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"B\"]\n\n1. d4 1-0\n"
        );
    }

    #[test]
    fn a_game_moved_by_another_program_is_found_and_a_lost_one_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("moved.pgn");
        let mut slot = GameSlot::append_to(path.clone());
        slot.save("[Event \"Mine\"]\n\n1. e4 *\n").unwrap();
        // Another program puts a game before ours: ours is found where it went.
        let mine = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("[Event \"Theirs\"]\n\n1. d4 *\n\n{mine}")).unwrap();
        slot.save("[Event \"Mine\"]\n\n1. e4 e5 *\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "[Event \"Theirs\"]\n\n1. d4 *\n\n[Event \"Mine\"]\n\n1. e4 e5 *\n"
        );
        // Our game edited away: nothing is written.
        std::fs::write(&path, "[Event \"Theirs\"]\n\n1. d4 *\n").unwrap();
        let error = slot.save("[Event \"Mine\"]\n\n1. e4 e5 2. Nf3 *\n").unwrap_err();
        assert!(matches!(error, SaveError::Changed { .. }), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[Event \"Theirs\"]\n\n1. d4 *\n");
    }

    #[test]
    fn a_failed_write_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("full.pgn");
        std::fs::write(&path, TWO_GAMES).unwrap();
        let mut slot = GameSlot::append_to(path.clone());
        let error = slot
            .save_with("1. c4 *\n", |path, bytes| {
                tempo_output::write_atomically_with(path, |file| {
                    use std::io::Write;
                    file.write_all(&bytes[..bytes.len() / 2])?;
                    Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
                })
            })
            .unwrap_err();
        assert!(error.to_string().contains("disk full"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), TWO_GAMES);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
        // The slot still appends at the next try.
        slot.save("1. c4 *\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{TWO_GAMES}\n1. c4 *\n"));
    }
}
