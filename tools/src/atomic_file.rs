//! Writing a file a user owns so that a failed run never costs the old one: the bytes go to
//! a temporary file in the same folder, which is synced and then renamed over the target.
//! A crash, a full disk or a refused write leaves the previous file whole.

use anyhow::{Context, Result};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Replaces `path` with `bytes` atomically: readers see the old file or the new one, never
/// a part. A path that exists and is not a regular file (`/dev/stdout`, a pipe) is written
/// in place, since renaming over it would replace the device itself; a symbolic link is
/// followed, so the file it points to is replaced and the link stays.
///
/// # Errors
/// When the temporary file cannot be created, written or synced, or the rename fails; the
/// temporary file is removed and `path` is as it was.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let target = match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()));
        }
        Ok(_) => std::fs::canonicalize(path).with_context(|| format!("cannot resolve {}", path.display()))?,
        Err(_) => path.to_owned(),
    };
    let temporary = temporary_path(&target)?;
    let written = write_synced(&temporary, bytes).and_then(|()| {
        std::fs::rename(&temporary, &target).with_context(|| format!("cannot replace {}", path.display()))
    });
    if written.is_err() {
        // Best effort: the error that matters is the one being returned.
        let _ = std::fs::remove_file(&temporary);
    }
    written?;
    // The rename is durable once the folder's entry is: sync it where the platform allows.
    if let Some(dir) = folder_of(&target).and_then(|dir| File::open(dir).ok()) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// The folder holding `path` (`.` for a bare file name).
fn folder_of(path: &Path) -> Option<&Path> {
    match path.parent() {
        Some(dir) if dir.as_os_str().is_empty() => Some(Path::new(".")),
        other => other,
    }
}

/// A name beside `path` that no other writer uses: hidden, with the process id.
fn temporary_path(path: &Path) -> Result<PathBuf> {
    let name = path.file_name().with_context(|| format!("{} is not a file name", path.display()))?;
    let dir = folder_of(path).unwrap_or(Path::new("."));
    Ok(dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id())))
}

fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    file.write_all(bytes).with_context(|| format!("cannot write {}", path.display()))?;
    file.sync_all().with_context(|| format!("cannot sync {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn creates_and_replaces_a_file_leaving_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.bin");
        write_atomically(&path, b"first").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        write_atomically(&path, b"second, longer").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second, longer");
        assert_eq!(names_in(dir.path()), ["book.bin"]);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.bin");
        std::fs::write(&path, b"the old book").unwrap();
        // Injected failure: a folder holds the temporary file's name, so it cannot be made.
        let temporary = temporary_path(&std::fs::canonicalize(&path).unwrap()).unwrap();
        std::fs::create_dir(&temporary).unwrap();
        let error = write_atomically(&path, b"new").unwrap_err();
        assert!(format!("{error:#}").contains("cannot create"), "{error:#}");
        assert_eq!(std::fs::read(&path).unwrap(), b"the old book");
    }

    #[test]
    fn a_folder_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("book.bin");
        std::fs::create_dir(&target).unwrap();
        assert!(write_atomically(&target, b"new").is_err());
        assert!(target.is_dir());
        assert_eq!(names_in(dir.path()), ["book.bin"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.bin");
        std::fs::write(&real, b"old").unwrap();
        let link = dir.path().join("link.bin");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    }
}
