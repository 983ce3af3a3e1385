//! `tempo perft`: the number of leaf nodes of the legal move tree, for checking a position.

use anyhow::Result;
use serde_json::json;
use std::time::Instant;
use tempo_core::perft::{divide, perft};
use tempo_notation::{divide_lines, MoveNotation};

use crate::args::PerftArgs;

/// Runs `tempo perft`.
pub fn run(args: &PerftArgs) -> Result<i32> {
    let pos = args.source()?.position(args.game)?;
    let started = Instant::now();
    let (nodes, split) = if args.divide && args.depth > 0 {
        let split = divide(&pos, args.depth);
        (split.iter().map(|(_, n)| n).sum(), split)
    } else {
        (perft(&pos, args.depth), Vec::new())
    };
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        let mut out = json!({
            "fen": pos.fen(),
            "depth": args.depth,
            "nodes": nodes,
            "time_ms": (secs * 1000.0) as u64,
        });
        if args.divide {
            // UCI keys unless asked otherwise: the JSON form is for programs.
            let notation = args.notation.unwrap_or(MoveNotation::Uci);
            let moves: serde_json::Map<String, serde_json::Value> =
                split.iter().map(|&(m, n)| (notation.write(&pos, m), json!(n))).collect();
            out["divide"] = serde_json::Value::Object(moves);
        }
        outln!("{out}")?;
        return Ok(0);
    }
    for line in divide_lines(&pos, &split, args.notation.unwrap_or(MoveNotation::San)) {
        outln!("{line}")?;
    }
    let nps = nodes as f64 / secs.max(1e-9);
    outln!("perft {}: {nodes} nodes ({:.3} s, {:.1} Mnps)", args.depth, secs, nps / 1e6)?;
    Ok(0)
}
