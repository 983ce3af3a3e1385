//! PGN reading and validation speed (every SAN parsed and every move played), in bytes and in
//! moves per second, over the repository's fixtures repeated into a larger buffer; and the
//! replay of their main lines through `Game`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::path::PathBuf;
use tempo_core::{Move, Position};
use tempo_notation::{pgn_string, PgnReader, Visitor};

/// Counts moves; builds nothing.
struct CountMoves(u64);

impl Visitor for CountMoves {
    type Output = ();
    fn play(&mut self, _before: &Position, _m: Move) {
        self.0 += 1;
    }
    fn end_game(&mut self) {}
}

fn corpus() -> Vec<u8> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/pgn");
    let mut one = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("data/pgn")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    names.sort();
    for path in names {
        one.extend(std::fs::read(path).expect("fixture"));
        one.extend(b"\n\n");
    }
    one.repeat(40)
}

fn count_moves(bytes: &[u8]) -> u64 {
    let mut reader = PgnReader::new(bytes);
    let mut visitor = CountMoves(0);
    while let Some(game) = reader.read_game(&mut visitor) {
        black_box(game.ok());
    }
    visitor.0
}

fn bench(c: &mut Criterion) {
    let bytes = corpus();
    let moves = count_moves(&bytes);
    let mut group = c.benchmark_group("pgn_validate");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("bytes", |b| b.iter(|| count_moves(black_box(&bytes))));
    group.throughput(Throughput::Elements(moves));
    group.bench_function("moves", |b| b.iter(|| count_moves(black_box(&bytes))));
    group.finish();

    let mut group = c.benchmark_group("pgn_tree");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read_games", |b| b.iter(|| PgnReader::new(black_box(&bytes[..])).games().count()));
    let games: Vec<_> = PgnReader::new(&bytes[..]).games().filter_map(Result::ok).collect();
    group.bench_function("write_games", |b| {
        b.iter(|| games.iter().map(|g| pgn_string(black_box(g)).len()).sum::<usize>())
    });
    group.finish();

    // The arbiter's cost: every main-line move through `Game::play`, which applies every
    // automatic ending (dead positions included) after each move.
    let mut group = c.benchmark_group("game_replay");
    group.throughput(Throughput::Elements(games.iter().map(|g| g.moves.len() as u64).sum()));
    group.bench_function("moves", |b| {
        b.iter(|| games.iter().filter_map(|g| black_box(g).to_game().ok()).map(|g| g.moves().len()).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
