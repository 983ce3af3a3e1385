//! The errors of opening folders and probing positions.

use std::path::PathBuf;

/// Why a folder of tables could not be added.
#[derive(Debug, thiserror::Error)]
#[error("cannot read the tablebase folder {}", path.display())]
pub struct OpenError {
    /// The folder.
    pub path: PathBuf,
    /// What the operating system said.
    #[source]
    pub source: std::io::Error,
}

/// Why a position could not be probed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// Syzygy tables hold no position in which castling is still allowed.
    #[error("syzygy tables hold no position with castling rights")]
    CastlingRights,
    /// The position has more men than the largest table present.
    #[error("the position has {pieces} men, the largest table present {max}")]
    TooManyPieces {
        /// Men on the board, kings included.
        pieces: u32,
        /// The most men of any table added.
        max: u32,
    },
    /// A table the probe needs was not found in any folder.
    #[error("no {kind} table {name} in the tablebase folders")]
    MissingTable {
        /// The table's name, such as `KQvKR`.
        name: String,
        /// `WDL` or `DTZ`.
        kind: TableKind,
    },
    /// A table file exists but cannot be read or does not follow the format.
    #[error("{path}: {problem}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
}

/// The two kinds of table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Win/draw/loss tables, `.rtbw`.
    Wdl,
    /// Distance-to-zeroing tables, `.rtbz`.
    Dtz,
}

impl TableKind {
    /// The file extension, without the dot.
    pub const fn extension(self) -> &'static str {
        match self {
            TableKind::Wdl => "rtbw",
            TableKind::Dtz => "rtbz",
        }
    }
}

impl std::fmt::Display for TableKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TableKind::Wdl => "WDL",
            TableKind::Dtz => "DTZ",
        })
    }
}

/// A format violation found while reading a table's bytes; the tablebase adds the file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FormatError(pub(crate) String);

impl FormatError {
    pub(crate) fn new(problem: impl Into<String>) -> FormatError {
        FormatError(problem.into())
    }
}

/// Shorthand for the table reader's results.
pub(crate) type FormatResult<T> = Result<T, FormatError>;
