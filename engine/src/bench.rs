//! The fixed benchmark: a built-in list of positions, each searched single-threaded to a
//! fixed depth with freshly cleared tables. The node count identifies the search's
//! behaviour (any functional change alters it) and is the same on every machine; nodes
//! per second measures speed.

use crate::evaluator::Evaluator;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use crate::facade::SEARCH_STACK_SIZE;
use crate::limits::Limits;
use crate::search::{Control, NodeCounter, Shared, Worker};
use crate::tt::TranspositionTable;
use crate::Instant;
use std::time::Duration;
use tempo_core::Position;

/// Default bench depth.
pub const BENCH_DEPTH: u32 = 14;

/// The bench positions: openings, middlegames with tactics, endgames of every kind
/// (a subset in the spirit of Stockfish's bench list).
pub const BENCH_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
    "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "r1q2rk1/2p1bppp/2Pp4/p6b/Q1PNp3/4B3/PP1R1PPP/2K4R w - - 2 18",
    "4k2r/1pb2ppp/1p2p3/1R1p4/3P4/2r1PN2/P4PPP/1R4K1 b - - 3 22",
    "3q2k1/pb3p1p/4pbp1/2r5/PpN2N2/1P2P2P/5PP1/Q2R2K1 b - - 4 26",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
    "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
    "7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1",
    "8/2p5/8/2kPKp1p/2p4P/2P5/3P4/8 w - - 0 1",
    "8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1",
    "8/pp2r1k1/2p1p3/3pP2p/1P1P1P1P/P5KR/8/8 w - - 0 1",
    "8/3p4/p1bk3p/Pp6/1Kp1PpPp/2P2P1P/2P5/5B2 b - - 0 1",
    "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
    "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
    "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
    "6k1/4pp1p/3p2p1/P1pPb3/R7/1r2P1PP/3B1P2/6K1 w - - 0 1",
    "8/3p3B/5p2/5P2/p7/PP5b/k7/6K1 w - - 0 1",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 80",
    "8/8/8/5N2/8/p7/8/2NK3k w - - 0 82",
    "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 85",
    "8/8/1P6/5pr1/8/4R3/7k/2K5 w - - 0 19",
    "8/2p4P/8/kr6/6R1/8/8/1K6 w - - 0 1",
    "8/8/3P3k/8/1p6/8/1P6/1K3n2 b - - 0 1",
    "r2r1n2/pp2bk2/2p1p2p/3q4/3PN1QP/2P3R1/P4PP1/5RK1 w - - 0 1",
    "8/8/8/8/8/6k1/6p1/6K1 w - - 0 1",
    "7k/7P/6K1/8/3B4/8/8/8 b - - 0 1",
];

/// The result of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Nodes per position, in list order.
    pub nodes_per_position: Vec<u64>,
    /// Total nodes.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / micros
    }
}

/// Runs the bench to `depth` with a `hash_mb` table and the engine's default evaluation
/// (the built-in network), calling `progress(index, fen)` before each position. Its node
/// count at [`BENCH_DEPTH`] with 16 MiB is the engine's signature.
///
/// # Panics
/// If a built-in position fails to parse (a test guards the list) or the table cannot be
/// allocated.
pub fn run_bench(depth: u32, hash_mb: usize, progress: impl FnMut(usize, &str) + Send) -> BenchReport {
    run_bench_with(depth, hash_mb, &Evaluator::embedded(), progress)
}

/// [`run_bench`] evaluating with `evaluator`.
///
/// # Panics
/// As [`run_bench`].
pub fn run_bench_with(
    depth: u32,
    hash_mb: usize,
    evaluator: &Evaluator,
    mut progress: impl FnMut(usize, &str) + Send,
) -> BenchReport {
    let tt = TranspositionTable::new(hash_mb).expect("bench hash table fits in memory");
    let limits = Limits::depth(depth);
    let start = Instant::now();
    let mut per_position = Vec::with_capacity(BENCH_FENS.len());
    let run = || {
        let mut worker = Worker::new(0);
        worker.set_evaluator(evaluator);
        for (i, fen) in BENCH_FENS.iter().enumerate() {
            progress(i, fen);
            let pos: Position = fen.parse().expect("bench positions are valid");
            tt.clear();
            worker.clear();
            let control = Control::new(false, Instant::now());
            let counters = [NodeCounter::default()];
            let shared = Shared::untimed(&tt, &control, &counters, &limits);
            let moves = pos.legal_moves();
            worker.prepare(&[], &moves);
            worker.iterative_deepening(&shared, &pos, &mut |_| {});
            per_position.push(worker.nodes());
        }
    };
    // The search recurses deeply: run it on a thread with a large stack. A browser has no
    // threads (wasm32-unknown-unknown cannot spawn one); there the caller's stack, which the
    // web build links large enough, serves.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .stack_size(SEARCH_STACK_SIZE)
            .spawn_scoped(scope, run)
            .expect("spawning the bench thread");
        let _ = handle.join();
    });
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        let mut run = run;
        run();
    }
    let elapsed = start.elapsed();
    BenchReport { nodes: per_position.iter().sum(), nodes_per_position: per_position, elapsed }
}
