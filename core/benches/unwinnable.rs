//! The dead-position test's costs: the screens `Game` runs after every move
//! (`statics::pawns_blocked`, then `statics::pawns_run_into_blocked_pawns` where a pawn can
//! move), and the static proofs and the full decision it runs when the
//! screen lets a position through, on the positions of the repository's EPD suites (WAC and
//! Bratko-Kopec: middlegames and endgames from real games) and on `data/unwinnable/cases.txt`.
//! `tempo-tools unwinnable` prints the full decision's per-case timings (median, 99th
//! percentile, worst).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use tempo_core::unwinnable::{can_mate, statics};
use tempo_core::{CastlingMode, Color, Position, Setup};

/// The positions of a file of FENs or EPD records (the first four fields of each line).
fn positions(relative: &str, skip_label: bool) -> Vec<Position> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|line| {
            let line = if skip_label { line.split_once(' ')?.1 } else { line };
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            let fen = format!("{} 0 1", fields.join(" "));
            let setup = Setup::from_fen(&fen, CastlingMode::Standard).ok()?;
            Position::from_setup(setup, CastlingMode::Standard).or_else(|e| e.into_repaired()).ok()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut games = positions("data/epd/wac.epd", false);
    games.extend(positions("data/epd/bratko-kopec.epd", false));
    let cases = positions("data/unwinnable/cases.txt", true);

    let mut group = c.benchmark_group("dead_position_screen");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("pawns_blocked/games", |b| {
        b.iter(|| games.iter().filter(|pos| statics::pawns_blocked(black_box(pos))).count())
    });
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("pawns_blocked/cases", |b| {
        b.iter(|| cases.iter().filter(|pos| statics::pawns_blocked(black_box(pos))).count())
    });
    // Both screens, as `Game` runs them: the second where a pawn can still move.
    let screens = |pos: &Position| statics::pawns_blocked(pos) || statics::pawns_run_into_blocked_pawns(pos);
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("both/games", |b| b.iter(|| games.iter().filter(|pos| screens(black_box(pos))).count()));
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("both/cases", |b| b.iter(|| cases.iter().filter(|pos| screens(black_box(pos))).count()));
    group.finish();

    let mut group = c.benchmark_group("dead_position_proofs");
    group.throughput(Throughput::Elements(cases.len() as u64 * 2));
    group.bench_function("static/cases", |b| {
        b.iter(|| {
            let mut proofs = 0;
            for pos in &cases {
                for side in [Color::White, Color::Black] {
                    let pos = black_box(pos);
                    proofs += usize::from(
                        statics::material_cannot_mate(pos, side) || statics::frozen_pawns_prevent_mate(pos, side),
                    );
                }
            }
            proofs
        })
    });
    // The full decision where the position is open: a helpmate found at once.
    group.throughput(Throughput::Elements(games.len() as u64));
    group.sample_size(10);
    group.bench_function("can_mate/games", |b| {
        b.iter(|| games.iter().filter(|pos| can_mate(black_box(pos), pos.turn(), 20_000).decided().is_some()).count())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
