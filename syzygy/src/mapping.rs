//! A table file's bytes: memory-mapped from disk, or owned (tables handed over in memory).
//! The crate's only `unsafe` is the mapping itself.

use std::fs::File;
use std::path::Path;

/// The bytes of one table file.
pub(crate) enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Bytes {
    /// Maps a file read-only.
    pub(crate) fn map(path: &Path) -> std::io::Result<Bytes> {
        let file = File::open(path)?;
        // SAFETY: `Mmap::map` is unsafe because another process may change or truncate the
        // file while it is mapped, which would change memory Rust believes immutable (or
        // fault on access past a truncation). Tablebase files are written once and
        // distributed read-only; a user who rewrites a table while a program probes it gets
        // wrong answers or a SIGBUS, as with every Syzygy prober (Fathom, python-chess).
        // Nothing else is unsafe: every read goes through bounds-checked slices.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        #[cfg(unix)]
        {
            // Probes jump around the file: read-ahead would only waste page cache. A failure
            // to advise changes nothing but speed.
            let _ = map.advise(memmap2::Advice::Random);
        }
        Ok(Bytes::Mapped(map))
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
            Bytes::Owned(bytes) => bytes,
        }
    }
}
