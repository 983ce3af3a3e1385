//! The bench node count is the engine's behavioural fingerprint: it must not change
//! unless the search or evaluation changes, and then this number and the commit message's
//! `Bench:` line change together.

use tempo_engine::{run_bench, BENCH_DEPTH};

/// Nodes of `tempo-uci bench` (depth `BENCH_DEPTH`, 16 MiB hash, one thread).
const EXPECTED_BENCH_NODES: u64 = 3_947_411;

#[test]
fn bench_node_count_is_fixed() {
    let report = run_bench(BENCH_DEPTH, 16, |_, _| {});
    assert_eq!(report.nodes, EXPECTED_BENCH_NODES, "update EXPECTED_BENCH_NODES and say so in the commit message");
    assert_eq!(report.nodes, report.nodes_per_position.iter().sum::<u64>());
}
