//! A corrupt or truncated table is an error, never a panic: probes over garbage bytes,
//! over real tables with bytes changed or cut off, and a garbage file in a folder.

mod support;

use proptest::prelude::*;
use tempo_core::Position;
use tempo_syzygy::{ProbeError, TableKind, Tablebase};

const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Positions of the tables the properties corrupt (KNvK, KRvKP, KPvKP), none with a
/// capture of a man, so a probe reaches the corrupt table.
const POSITIONS: &[&str] = &[
    "8/8/8/4k3/8/8/8/1N2K3 w - - 0 1",
    "8/8/8/4k3/8/8/8/1N2K3 b - - 0 1",
    "7N/8/8/8/8/8/k7/4K3 w - - 0 1",
    "8/8/8/8/2k5/6p1/8/R3K3 w - - 0 1",
    "8/8/8/8/2k5/6p1/8/R3K3 b - - 0 1",
    "8/3p4/8/4k3/8/8/1R6/6K1 w - - 0 1",
    "8/3p4/8/4k3/8/8/3P4/6K1 w - - 0 1",
    "8/8/6p1/k7/8/1P6/8/6K1 b - - 0 1",
];

fn probe_all(tables: &Tablebase) {
    for fen in POSITIONS {
        let pos: Position = fen.parse().unwrap();
        // Any answer will do; the property is that there is one.
        let _ = tables.probe_wdl(&pos);
        let _ = tables.probe_dtz(&pos);
        let _ = tables.root_moves(&pos, true);
    }
}

/// Garbage with the right magic number and a plausible size (64n + 16 bytes).
fn garbage(kind: TableKind) -> impl Strategy<Value = Vec<u8>> {
    (0usize..6, proptest::collection::vec(any::<u8>(), 0..400)).prop_map(move |(n, mut body)| {
        let magic = if kind == TableKind::Wdl { WDL_MAGIC } else { DTZ_MAGIC };
        let mut bytes = magic.to_vec();
        bytes.append(&mut body);
        bytes.resize(64 * n + 16, 0);
        bytes
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn garbage_tables_never_panic(
        name in prop_oneof![Just("KNvK"), Just("KRvKP"), Just("KPvKP")],
        wdl in garbage(TableKind::Wdl),
        dtz in garbage(TableKind::Dtz),
    ) {
        let mut tables = Tablebase::new();
        let _ = tables.add_bytes(name, TableKind::Wdl, wdl);
        let _ = tables.add_bytes(name, TableKind::Dtz, dtz);
        probe_all(&tables);
    }
}

/// A real table's bytes with some changed, or cut short.
#[derive(Debug, Clone)]
enum Damage {
    Flip(Vec<(prop::sample::Index, u8)>),
    Truncate(prop::sample::Index),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        3 => proptest::collection::vec((any::<prop::sample::Index>(), 1u8..), 1..8).prop_map(Damage::Flip),
        1 => any::<prop::sample::Index>().prop_map(Damage::Truncate),
    ]
}

fn damaged(mut bytes: Vec<u8>, damage: &Damage) -> Vec<u8> {
    match damage {
        Damage::Flip(changes) => {
            // Bias towards the header, where a change matters most: half the changes land
            // in the first 256 bytes.
            for (i, (at, xor)) in changes.iter().enumerate() {
                let len = if i % 2 == 0 { bytes.len().min(256) } else { bytes.len() };
                let at = at.index(len);
                bytes[at] ^= xor;
            }
        }
        Damage::Truncate(at) => bytes.truncate(at.index(bytes.len())),
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn damaged_real_tables_never_panic(
        name in prop_oneof![Just("KNvK"), Just("KRvKP"), Just("KPvKP")],
        kind in prop_oneof![Just(TableKind::Wdl), Just(TableKind::Dtz)],
        damage in damage(),
    ) {
        let Some(folder) = support::tables() else { return Ok(()) };
        let mut tables = Tablebase::open(&folder).unwrap();
        let bytes = std::fs::read(folder.join(format!("{name}.{}", kind.extension()))).unwrap();
        if tables.add_bytes(name, kind, damaged(bytes, &damage)).is_ok() {
            probe_all(&tables);
        }
    }
}

#[test]
fn a_garbage_file_is_reported_on_probing_and_the_other_tables_still_work() {
    let Some(folder) = support::tables() else { return };
    let dir = std::env::temp_dir().join(format!("tempo-syzygy-garbage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for table in ["KRvK.rtbw", "KRvK.rtbz"] {
        std::fs::copy(folder.join(table), dir.join(table)).unwrap();
    }
    std::fs::write(dir.join("KQvK.rtbw"), b"this is not a table").unwrap();
    std::fs::write(dir.join("KQvK.rtbz"), [DTZ_MAGIC.as_slice(), &[0; 12]].concat()).unwrap();
    let tables = Tablebase::open(&dir).unwrap();
    let kqk: Position = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1".parse().unwrap();
    match tables.probe_wdl(&kqk) {
        Err(ProbeError::Corrupt { path, problem }) => {
            assert_eq!(path, dir.join("KQvK.rtbw"));
            assert!(problem.contains("magic"), "{problem}");
        }
        other => panic!("{other:?}"),
    }
    // The error is kept: the second probe says the same.
    assert!(matches!(tables.probe_wdl(&kqk), Err(ProbeError::Corrupt { .. })));
    let krk: Position = "4k3/8/8/8/8/8/8/3RK3 w - - 0 1".parse().unwrap();
    // python-chess: 23.
    assert_eq!(tables.probe_dtz(&krk), Ok(23));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_folder_is_an_error() {
    let missing = std::env::temp_dir().join("tempo-syzygy-no-such-folder");
    let error = Tablebase::open(&missing).expect_err("no such folder");
    assert_eq!(error.path, missing);
}
