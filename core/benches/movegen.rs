//! Criterion benches of tempo-core: legal move generation over a fixed position list,
//! copy-make, and bulk-counting perft of the five classic positions.
//!
//! `cargo bench -p tempo-core --bench movegen`

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::time::Duration;
use tempo_core::{perft::perft, MoveFilter, MoveList, Position};

mod positions;
use positions::CLASSIC;

fn movegen(c: &mut Criterion) {
    let positions: Vec<Position> = CLASSIC.iter().map(|(_, fen, _, _)| fen.parse().unwrap()).collect();
    let total: usize = positions.iter().map(|p| p.legal_moves().len()).sum();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &positions {
                let mut list = MoveList::new();
                black_box(pos).legal_moves_into(&mut list);
                n += list.len();
            }
            n
        })
    });
    group.bench_function("captures_then_quiets", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in &positions {
                let mut list = MoveList::new();
                black_box(pos).generate_moves(MoveFilter::Captures, &mut list);
                black_box(pos).generate_moves(MoveFilter::Quiets, &mut list);
                n += list.len();
            }
            n
        })
    });
    group.bench_function("count_legal_moves", |b| {
        b.iter(|| positions.iter().map(|p| black_box(p).count_legal_moves()).sum::<u64>())
    });
    group.finish();
}

fn make_move(c: &mut Criterion) {
    let positions: Vec<Position> = CLASSIC.iter().map(|(_, fen, _, _)| fen.parse().unwrap()).collect();
    let work: Vec<(Position, MoveList)> = positions.iter().map(|p| (*p, p.legal_moves())).collect();
    let total: usize = work.iter().map(|(_, m)| m.len()).sum();
    let mut group = c.benchmark_group("make");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("copy_make_every_move", |b| {
        b.iter_batched_ref(
            || work.clone(),
            |work| {
                let mut keys = 0u64;
                for (pos, moves) in work.iter() {
                    for &m in moves.iter() {
                        let mut child = *pos;
                        child.play_unchecked(m);
                        keys ^= child.key();
                    }
                }
                keys
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn perft_classic(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_secs(1));
    for (name, fen, depth, nodes) in CLASSIC {
        let pos: Position = fen.parse().unwrap();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}_d{depth}"), |b| {
            b.iter(|| assert_eq!(perft(black_box(&pos), depth), nodes))
        });
    }
    group.finish();
}

criterion_group!(benches, movegen, make_move, perft_classic);
criterion_main!(benches);
