//! Syzygy table files never panic the prober: the input's first byte picks a table and its
//! kind, the rest are the file's bytes; an accepted table is probed on positions of its men.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tempo_core::Position;
use tempo_syzygy::{TableKind, Tablebase};

/// Tables with and without pawns, three and four men, with positions where no man can be
/// captured (so the probe reaches the fuzzed table).
const TABLES: &[(&str, &[&str])] = &[
    ("KNvK", &["8/8/8/4k3/8/8/8/1N2K3 w - - 0 1", "7N/8/8/8/8/8/k7/4K3 b - - 0 1"]),
    ("KRvKP", &["8/8/8/8/2k5/6p1/8/R3K3 w - - 0 1", "8/3p4/8/4k3/8/8/1R6/6K1 b - - 0 1"]),
    ("KPvKP", &["8/3p4/8/4k3/8/8/3P4/6K1 w - - 0 1", "8/8/6p1/k7/8/1P6/8/6K1 b - - 0 1"]),
    ("KBNvK", &["8/8/8/4k3/8/8/8/1NB1K3 w - - 0 1", "8/8/8/4k3/8/8/8/1NB1K3 b - - 0 1"]),
];

fuzz_target!(|data: &[u8]| {
    let Some((&choice, bytes)) = data.split_first() else { return };
    let (name, fens) = TABLES[usize::from(choice >> 1) % TABLES.len()];
    let kind = if choice & 1 == 0 { TableKind::Wdl } else { TableKind::Dtz };
    let mut tables = Tablebase::new();
    if tables.add_bytes(name, kind, bytes.to_vec()).is_ok() {
        for fen in fens {
            let pos: Position = fen.parse().expect("a legal position");
            let _ = tables.probe_wdl(&pos);
            let _ = tables.probe_dtz(&pos);
        }
    }
});
