//! Writing a user's file so that no failure costs what it held: the new content goes to a
//! temporary file in the same folder, which is flushed and synced and then renamed over the
//! original. A crash, a full disk or a refused write before the rename leaves the old file
//! whole; the rename itself is atomic on the same file system.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Replaces the content of `path` with `bytes` atomically (see the module docs).
///
/// Through a symbolic link the file it points to is replaced, not the link. A path that
/// exists but is not a regular file (`/dev/null`, `/dev/stdout`, a pipe) is written in
/// place, since a rename would replace the device itself. A replaced file keeps its
/// permissions.
///
/// # Errors
/// The I/O error of the step that failed; the original file is then unchanged and the
/// temporary file removed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, |file| file.write_all(bytes))
}

/// [`write_atomically`], with the new content written by `fill` into the temporary file
/// (for content produced piece by piece, and for tests that make the write fail).
///
/// # Errors
/// As [`write_atomically`], including any error `fill` returns.
pub fn write_atomically_with(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    if !replaced_by_rename(path) {
        let mut file = fs::OpenOptions::new().write(true).truncate(true).open(path)?;
        fill(&mut file)?;
        return file.flush();
    }
    let target = fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    let tmp = temporary_path(&target)?;
    let result = (|| {
        let mut file = fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Ok(meta) = fs::metadata(&target) {
            file.set_permissions(meta.permissions())?;
        }
        fill(&mut file)?;
        file.flush()?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, &target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
        return result;
    }
    // The rename is durable once the folder is synced; a folder that cannot be opened for
    // that (some file systems) still holds the renamed file.
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
    }
    Ok(())
}

/// `true` for a path that is a regular file (after following links) or does not exist yet.
fn replaced_by_rename(path: &Path) -> bool {
    fs::metadata(path).map_or(true, |meta| meta.is_file())
}

/// A fresh name beside `target`: one per write, since two writers in one process (a game
/// saved by the Ctrl-C handler while another save runs) must not share a temporary file.
fn temporary_path(target: &Path) -> io::Result<PathBuf> {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let name = target.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, format!("{} is not a file name", target.display()))
    })?;
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let tmp = format!(".{}.{}-{n}.tmp", name.to_string_lossy(), std::process::id());
    Ok(target.with_file_name(tmp))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn replaces_and_creates() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pgn");
        write_atomically(&path, b"first").unwrap();
        write_atomically(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert_eq!(entries(dir.path()), ["games.pgn"], "no temporary file left");
    }

    #[test]
    fn a_failed_write_leaves_the_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pgn");
        fs::write(&path, b"the games of a lifetime").unwrap();
        // Half the new content written, then the disk is full.
        let error = write_atomically_with(&path, |file| {
            file.write_all(b"half")?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "no space left on device"))
        })
        .unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::StorageFull);
        assert_eq!(fs::read(&path).unwrap(), b"the games of a lifetime");
        assert_eq!(entries(dir.path()), ["games.pgn"], "the temporary file is removed");
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no such folder").join("games.pgn");
        assert_eq!(write_atomically(&path, b"x").unwrap_err().kind(), io::ErrorKind::NotFound);
    }

    #[cfg(unix)]
    #[test]
    fn links_stay_links_and_modes_stay() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("games.pgn");
        fs::write(&file, b"old").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.pgn");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(fs::read(&file).unwrap(), b"new");
        assert_eq!(fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o640);
    }

    #[test]
    fn devices_are_written_in_place() {
        // A rename over /dev/null, as root, would turn it into a regular file for the whole
        // machine.
        if Path::new("/dev/null").exists() {
            assert!(!replaced_by_rename(Path::new("/dev/null")));
            write_atomically(Path::new("/dev/null"), b"gone").unwrap();
            assert!(!fs::metadata("/dev/null").unwrap().is_file());
        }
    }
}
