//! `tempo`: the program people run. Until the interactive game lands, it prints the perft
//! of the start position (see README).

use anyhow::Result;
use std::time::Instant;
use tempo_core::{perft, Position};

fn main() -> Result<()> {
    let pos = Position::startpos();
    println!("Tempo {}: perft of the start position", env!("CARGO_PKG_VERSION"));
    for depth in 1..=6 {
        let start = Instant::now();
        let nodes = perft(&pos, depth);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "depth {depth}: {nodes:>12} nodes  {:>8.3} s  {:>6.1} Mnps",
            secs,
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
}
