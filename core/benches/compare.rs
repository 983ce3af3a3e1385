//! Side-by-side single-threaded bulk-counting perft: tempo-core against the Rust crates
//! shakmaty, cozy-chess and chess (dev-dependencies only, used as yardsticks), on the five
//! classic positions, in one run on one machine.
//!
//! `cargo bench -p tempo-core --bench compare` (criterion reports elements/s = nodes/s).
//! Time is the benchmark thread's CPU time (see `cpu_time.rs`), so a busy machine does not
//! skew one library against another.

use crate::cpu_time::ThreadCpuTime;
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::str::FromStr;
use std::time::Duration;

mod cpu_time;
mod positions;
use positions::CLASSIC;

fn tempo_perft(fen: &str, depth: u32) -> impl Fn() -> u64 {
    let pos: tempo_core::Position = fen.parse().unwrap();
    move || tempo_core::perft::perft(black_box(&pos), depth)
}

fn shakmaty_perft(fen: &str, depth: u32) -> impl Fn() -> u64 {
    use shakmaty::{fen::Fen, CastlingMode, Chess};
    let pos: Chess = Fen::from_str(fen).unwrap().into_position(CastlingMode::Standard).unwrap();
    move || shakmaty::perft(black_box(&pos), depth)
}

fn cozy_perft(fen: &str, depth: u32) -> impl Fn() -> u64 {
    // The perft of cozy-chess's own examples: bulk counting at the last ply.
    fn perft(board: &cozy_chess::Board, depth: u32) -> u64 {
        let mut nodes = 0;
        if depth == 1 {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        } else {
            board.generate_moves(|moves| {
                for m in moves {
                    let mut child = board.clone();
                    child.play_unchecked(m);
                    nodes += perft(&child, depth - 1);
                }
                false
            });
        }
        nodes
    }
    let board = cozy_chess::Board::from_fen(fen, false).unwrap();
    move || perft(black_box(&board), depth)
}

fn chess_perft(fen: &str, depth: u32) -> impl Fn() -> u64 {
    let board = chess::Board::from_str(fen).unwrap();
    move || chess::MoveGen::movegen_perft_test(black_box(&board), depth as usize) as u64
}

/// A prepared perft run of one library on one position.
type Runner = Box<dyn Fn() -> u64>;

fn compare(c: &mut Criterion<ThreadCpuTime>) {
    for (name, fen, depth, nodes) in CLASSIC {
        let mut group = c.benchmark_group(format!("compare/{name}_d{depth}"));
        group.sample_size(10).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_millis(500));
        group.throughput(Throughput::Elements(nodes));
        let runners: [(&str, Runner); 4] = [
            ("tempo", Box::new(tempo_perft(fen, depth))),
            ("cozy-chess", Box::new(cozy_perft(fen, depth))),
            ("shakmaty", Box::new(shakmaty_perft(fen, depth))),
            ("chess", Box::new(chess_perft(fen, depth))),
        ];
        for (lib, run) in runners {
            assert_eq!(run(), nodes, "{lib} miscounts {name}");
            group.bench_function(lib, |b| b.iter(&run));
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpuTime);
    targets = compare
}
criterion_main!(benches);
