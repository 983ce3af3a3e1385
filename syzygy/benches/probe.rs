//! Probe speed on the 200 positions of python-chess's `endgame.epd` (3 and 4 men), one
//! thread, tables already open: WDL and DTZ. `benches/python_probe.py` times python-chess
//! on the same positions; docs/measurements.md has both.
//!
//! `cargo bench -p tempo-syzygy --bench probe` (fetches python-chess's tables into the
//! cache on first use, as the tests do).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tempo_core::Position;
use tempo_syzygy::Tablebase;

#[path = "../tests/support/mod.rs"]
mod support;

fn probe(c: &mut Criterion) {
    let Some(tree) = support::python_chess() else { return };
    let tables = Tablebase::open(tree.join("data/syzygy/regular")).expect("the tables");
    let epd = std::fs::read_to_string(tree.join("data/endgame.epd")).expect("endgame.epd");
    let positions: Vec<Position> = epd
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(' ').take(4).collect::<Vec<_>>().join(" ").parse().expect("a position"))
        .collect();
    // Open every table before timing.
    for pos in &positions {
        tables.probe_dtz(pos).expect("probes");
    }
    let mut group = c.benchmark_group("syzygy");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("probe_wdl", |b| {
        b.iter(|| positions.iter().map(|p| i32::from(tables.probe_wdl(black_box(p)).unwrap().to_i8())).sum::<i32>())
    });
    group.bench_function("probe_dtz", |b| {
        b.iter(|| positions.iter().map(|p| tables.probe_dtz(black_box(p)).unwrap()).sum::<i32>())
    });
    group.finish();
}

criterion_group!(benches, probe);
criterion_main!(benches);
