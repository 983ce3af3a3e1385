//! SAN writing and reading speed over every legal move of a few middlegame positions.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tempo_core::CastlingMode;
use tempo_core::Position;
use tempo_notation::{parse_san, san};

const FENS: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
    "1r6/P2k2Pp/8/R7/4Q2Q/5N2/7K/RN5Q w - - 0 1",
];

fn bench(c: &mut Criterion) {
    let cases: Vec<(Position, Vec<(tempo_core::Move, String)>)> = FENS
        .iter()
        .map(|fen| {
            let pos = Position::from_fen(fen, CastlingMode::Standard).expect("valid fen");
            let moves = pos.legal_moves().iter().map(|&m| (m, san(&pos, m))).collect();
            (pos, moves)
        })
        .collect();
    let total: usize = cases.iter().map(|(_, m)| m.len()).sum();
    let mut group = c.benchmark_group("san");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("write", |b| {
        b.iter(|| {
            let mut n = 0;
            for (pos, moves) in &cases {
                for (m, _) in moves {
                    n += san(black_box(pos), *m).len();
                }
            }
            n
        })
    });
    group.bench_function("parse", |b| {
        b.iter(|| {
            let mut n = 0;
            for (pos, moves) in &cases {
                for (_, text) in moves {
                    n += usize::from(parse_san(black_box(pos), text).is_ok());
                }
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
