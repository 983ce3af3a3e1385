//! `Tablebase`: the tables of one or more folders, found by material, each file mapped and
//! its header read the first time a probe needs it.

use crate::error::{FormatError, OpenError, ProbeError, TableKind};
use crate::mapping::Bytes;
use crate::material::Material;
use crate::table::{DtzTable, WdlTable};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tempo_core::Position;

/// A set of Syzygy tables, from folders or memory.
///
/// Adding a folder only lists it: each file is opened, memory-mapped and checked when a
/// probe first needs it, and a broken file is then reported by that probe (and every
/// later one that needs it) as [`ProbeError::Corrupt`]. Probing takes `&self` and the type
/// is `Sync`, so threads can share one `Tablebase`.
#[derive(Default)]
pub struct Tablebase {
    entries: Vec<Entry>,
    by_material: HashMap<Material, usize, BuildHasherDefault<MaterialHasher>>,
    max_men: u32,
}

struct Entry {
    wdl: Slot<WdlTable>,
    dtz: Slot<DtzTable>,
    /// The material of the file name, which the tables check their headers against.
    material: Material,
}

struct Slot<T> {
    path: Option<PathBuf>,
    table: OnceLock<Result<T, ProbeError>>,
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot { path: None, table: OnceLock::new() }
    }
}

impl<T> Slot<T> {
    fn get(
        &self,
        material: Material,
        kind: TableKind,
        open: impl FnOnce(Bytes, Material) -> Result<T, FormatError>,
    ) -> Result<&T, ProbeError> {
        let result = self.table.get_or_init(|| {
            let Some(path) = &self.path else {
                return Err(ProbeError::MissingTable { name: material.normalized().name(), kind });
            };
            let corrupt = |problem: String| ProbeError::Corrupt { path: path.clone(), problem };
            let bytes = Bytes::map(path).map_err(|e| corrupt(format!("cannot map the file: {e}")))?;
            open(bytes, material).map_err(|e| corrupt(e.0))
        });
        result.as_ref().map_err(Clone::clone)
    }
}

impl Tablebase {
    /// An empty set: every probe fails with [`ProbeError::TooManyPieces`] until tables are
    /// added.
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// The tables of one folder.
    ///
    /// # Errors
    /// When the folder cannot be listed.
    pub fn open(path: impl AsRef<Path>) -> Result<Tablebase, OpenError> {
        let mut tablebase = Tablebase::new();
        tablebase.add_directory(path)?;
        Ok(tablebase)
    }

    /// Adds the `.rtbw` and `.rtbz` files of a folder (not its subfolders) whose names are
    /// table names (`KQvKR.rtbw`); returns how many files were added. A table found in an
    /// earlier folder keeps its file.
    ///
    /// # Errors
    /// When the folder cannot be listed.
    pub fn add_directory(&mut self, path: impl AsRef<Path>) -> Result<usize, OpenError> {
        let path = path.as_ref();
        let open_error = |source| OpenError { path: path.to_path_buf(), source };
        let mut files: Vec<PathBuf> = Vec::new();
        for entry in std::fs::read_dir(path).map_err(open_error)? {
            files.push(entry.map_err(open_error)?.path());
        }
        // Sorted, so that which file wins among duplicates does not depend on the listing.
        files.sort();
        let mut added = 0;
        for file in files {
            let (Some(stem), Some(extension)) =
                (file.file_stem().and_then(|s| s.to_str()), file.extension().and_then(|s| s.to_str()))
            else {
                continue;
            };
            let kind = match extension {
                "rtbw" => TableKind::Wdl,
                "rtbz" => TableKind::Dtz,
                _ => continue,
            };
            let Some(material) = Material::from_name(stem) else { continue };
            if !file.is_file() {
                continue;
            }
            let entry = self.entry(material);
            let path = match kind {
                TableKind::Wdl => &mut entry.wdl.path,
                TableKind::Dtz => &mut entry.dtz.path,
            };
            if path.is_none() {
                *path = Some(file);
                added += 1;
            }
        }
        Ok(added)
    }

    /// Adds one table from memory (for tables embedded in a program, and for tests):
    /// `name` is the table's name, such as `KQvKR`. The bytes are checked at once.
    ///
    /// # Errors
    /// [`ProbeError::Corrupt`] when the name is not a table name or the bytes not a table
    /// of that name; the set is then unchanged.
    pub fn add_bytes(&mut self, name: &str, kind: TableKind, bytes: Vec<u8>) -> Result<(), ProbeError> {
        let path = PathBuf::from(format!("{name}.{}", kind.extension()));
        let corrupt = |problem: String| ProbeError::Corrupt { path: path.clone(), problem };
        let material = Material::from_name(name).ok_or_else(|| corrupt("not a table name".into()))?;
        let bytes = Bytes::Owned(bytes);
        match kind {
            TableKind::Wdl => {
                let table = WdlTable::new(bytes, material).map_err(|e| corrupt(e.0))?;
                let entry = self.entry(material);
                entry.wdl = Slot { path: Some(path), table: OnceLock::from(Ok(table)) };
            }
            TableKind::Dtz => {
                let table = DtzTable::new(bytes, material).map_err(|e| corrupt(e.0))?;
                let entry = self.entry(material);
                entry.dtz = Slot { path: Some(path), table: OnceLock::from(Ok(table)) };
            }
        }
        Ok(())
    }

    fn entry(&mut self, material: Material) -> &mut Entry {
        let index = match self.by_material.get(&material) {
            Some(&index) => index,
            None => {
                let index = self.entries.len();
                self.entries.push(Entry { wdl: Slot::default(), dtz: Slot::default(), material });
                self.by_material.insert(material, index);
                self.by_material.insert(material.mirrored(), index);
                self.max_men = self.max_men.max(material.men());
                index
            }
        };
        &mut self.entries[index]
    }

    /// The most men (kings included) of any table added, 0 when there is none: a position
    /// with more cannot be probed.
    pub fn max_pieces(&self) -> u32 {
        self.max_men
    }

    /// How many distinct tables (WDL, DTZ or both) have been added.
    pub fn table_count(&self) -> usize {
        self.entries.len()
    }

    fn lookup(&self, pos: &Position, kind: TableKind) -> Result<(&Entry, Material), ProbeError> {
        let material = Material::of(pos);
        match self.by_material.get(&material) {
            Some(&index) => Ok((&self.entries[index], material)),
            None if material.men() > self.max_men => {
                Err(ProbeError::TooManyPieces { pieces: material.men(), max: self.max_men })
            }
            None => Err(ProbeError::MissingTable { name: material.normalized().name(), kind }),
        }
    }

    /// The WDL table's value of a position with a table's men (-2 to 2), before captures
    /// and en passant are resolved.
    pub(crate) fn wdl_table(&self, pos: &Position) -> Result<i8, ProbeError> {
        let (entry, material) = self.lookup(pos, TableKind::Wdl)?;
        let table = entry.wdl.get(entry.material, TableKind::Wdl, WdlTable::new)?;
        table.probe(pos, material).map_err(|e| corrupt(&entry.wdl, e))
    }

    /// The DTZ table's stored distance, `None` when it stores the other side to move.
    pub(crate) fn dtz_table(&self, pos: &Position, wdl: i8) -> Result<Option<i32>, ProbeError> {
        let (entry, material) = self.lookup(pos, TableKind::Dtz)?;
        let table = entry.dtz.get(entry.material, TableKind::Dtz, DtzTable::new)?;
        table.probe(pos, material, wdl).map_err(|e| corrupt(&entry.dtz, e))
    }
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase").field("tables", &self.entries.len()).field("max_pieces", &self.max_men).finish()
    }
}

fn corrupt<T>(slot: &Slot<T>, error: FormatError) -> ProbeError {
    ProbeError::Corrupt { path: slot.path.clone().unwrap_or_default(), problem: error.0 }
}

/// The registry's hasher: a material key is already a well-spread `u64` of counts, so one
/// multiplication mixes it (SipHash would cost more than the rest of a WDL table read).
#[derive(Default)]
struct MaterialHasher(u64);

impl Hasher for MaterialHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}
