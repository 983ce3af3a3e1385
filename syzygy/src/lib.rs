//! Syzygy endgame tablebases, read by Tempo itself: the result (WDL) and the distance to
//! the next capture or pawn move (DTZ) of positions with few men, from the `.rtbw` and
//! `.rtbz` files of one or more folders.
//!
//! ```no_run
//! use tempo_core::Position;
//! use tempo_syzygy::{Tablebase, Wdl};
//!
//! let tables = Tablebase::open("/path/to/syzygy")?;
//! let pos: Position = "8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1".parse()?;
//! assert_eq!(tables.probe_wdl(&pos)?, Wdl::Loss);
//! assert_eq!(tables.probe_dtz(&pos)?, -53);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Values and signs are python-chess's (`chess.syzygy`), which the tests check position by
//! position. The format is the same for 3 to 7 men; the tests cover the 3- and 4-men
//! tables (the ones that can be downloaded from a package registry).
//!
//! Files are memory-mapped and read only where a probe needs them; every read is
//! bounds-checked, so a truncated or corrupt file is a [`ProbeError::Corrupt`], never a
//! panic.

mod bytes;
mod encoding;
mod error;
mod mapping;
mod material;
mod pairs;
mod probe;
mod table;
mod tablebase;

pub use error::{OpenError, ProbeError, TableKind};
pub use probe::{RootMove, Wdl};
pub use tablebase::Tablebase;
