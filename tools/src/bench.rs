//! `tempo-tools bench`: the engine's fixed bench (built-in positions, fixed depth, one
//! thread, cleared tables), ending with `Bench: N nodes M nps`.

use anyhow::Result;
use clap::Args;
use tempo_engine::{run_bench, BENCH_DEPTH};

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth (the signature is defined at the default).
    #[arg(long, default_value_t = BENCH_DEPTH)]
    depth: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

/// Runs the bench.
pub fn run(args: &BenchArgs) -> Result<bool> {
    let report = run_bench(args.depth, args.hash.max(1), |_, _| {});
    for (i, nodes) in report.nodes_per_position.iter().enumerate() {
        outln!("position {:>2}: {nodes} nodes", i + 1)?;
    }
    outln!("Bench: {} nodes {} nps", report.nodes, report.nps())?;
    Ok(true)
}
