//! Speed in the browser against native, on this machine (docs/measurements.md, "Tempo in the
//! browser"): the page's load time, the engine's bench (same positions, one thread) in both
//! WebAssembly builds in headless Chromium and natively, and perft in the page and natively,
//! and in chess.js when given its file.
//!
//! ```text
//! cargo xtask web
//! cargo run --release -p tempo-web --example browser_bench -- [--depth 10] [--chess-js FILE]
//! ```

// The browser test's WebDriver client; this program does not click or take screenshots.
#[allow(dead_code)]
#[path = "../tests/webdriver/mod.rs"]
mod webdriver;

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tempo_core::Position;
use webdriver::{Browser, StaticServer};

const PERFT: &[(&str, &str, u32)] = &[
    ("start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let depth: u32 = flag("--depth").map_or(10, |d| d.parse().expect("--depth N"));
    let chess_js = flag("--chess-js").map(PathBuf::from);
    let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/web");
    let server = StaticServer::start(site);
    let browser = Browser::start("chromedriver", "chromium");

    // Native figures only from an optimised build (`--release`); the browser's stand alone.
    let native = (!cfg!(debug_assertions)).then(|| tempo_engine::run_bench(depth, 16, |_, _| {}));
    let native_nps = native.as_ref().map_or(f64::NAN, |n| n.nodes as f64 / n.elapsed.as_secs_f64());
    match &native {
        Some(n) => println!(
            "native bench depth {depth}: {} nodes, {:.0} ms, {native_nps:.0} nodes/s",
            n.nodes,
            n.elapsed.as_secs_f64() * 1e3
        ),
        None => println!("native figures skipped: run with --release"),
    }
    for build in ["simd", "scalar"] {
        browser.navigate(&format!("{}/?build={build}", server.url()));
        let ready = wait_ready(&browser);
        let bench = browser.execute_async(
            "const done = arguments[arguments.length - 1]; window.tempoPage.bench(arguments[0]).then(done, (e) => done(String(e)))",
            json!([depth]),
        );
        let (nodes, ms) = (bench["nodes"].as_u64().expect("nodes"), bench["ms"].as_f64().expect("ms"));
        let nps = nodes as f64 / ms * 1e3;
        println!(
            "{build:>6}: page ready {ready:.0} ms; bench {nodes} nodes{}, {ms:.0} ms, {nps:.0} nodes/s ({:.0}% of native)",
            match &native {
                Some(n) if n.nodes == nodes => " (= native)",
                Some(_) => " (NOT the native count)",
                None => "",
            },
            nps / native_nps * 100.0
        );
        for (name, fen, d) in PERFT {
            let page = browser.execute("return window.tempoPage.perft(arguments[0], arguments[1])", json!([fen, d]));
            let mnps = page["nodes"].as_f64().expect("nodes") / page["ms"].as_f64().expect("ms") / 1e3;
            println!("        perft {name} d{d}: {} nodes, {mnps:.1} M nodes/s", page["nodes"]);
        }
    }
    for (name, fen, d) in PERFT.iter().filter(|_| native.is_some()) {
        let pos: Position = fen.parse().expect("valid FEN");
        let start = Instant::now();
        let nodes = tempo_core::perft::perft(&pos, *d);
        println!(
            "native perft {name} d{d}: {nodes} nodes, {:.1} M nodes/s",
            nodes as f64 / start.elapsed().as_secs_f64() / 1e6
        );
    }
    if let Some(file) = chess_js {
        let source = std::fs::read_to_string(&file).expect("reading chess.js");
        for (name, fen, d) in PERFT {
            let d = d - 1; // chess.js is slower: one ply less
            let script = format!(
                "{source}\n;const game = new Chess(arguments[0]); const start = performance.now(); \
                 const nodes = game.perft(arguments[1]); return {{nodes, ms: performance.now() - start}};"
            );
            let result: Value = browser.execute(&script, json!([fen, d]));
            let mnps = result["nodes"].as_f64().expect("nodes") / result["ms"].as_f64().expect("ms") / 1e3;
            println!("chess.js ({}) perft {name} d{d}: {} nodes, {mnps:.2} M nodes/s", file.display(), result["nodes"]);
        }
    }
}

fn wait_ready(browser: &Browser) -> f64 {
    let start = Instant::now();
    loop {
        let ready = browser.execute("return window.tempoPage ? window.tempoPage.readyAt : 0", json!([]));
        if ready.as_f64().is_some_and(|t| t > 0.0) {
            return ready.as_f64().unwrap_or_default();
        }
        assert!(start.elapsed().as_secs() < 60, "the page did not load");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
