//! The page end to end in a real browser: headless Chromium driven over WebDriver
//! (chromedriver), the site that `cargo xtask web` built in `target/web/` served by a small
//! server in this test. It plays 1. e4 by clicking the squares, waits for the engine's reply,
//! reads the exported PGN back with Tempo's own reader, loads a PGN and a FEN and malformed
//! ones (the terminal program's errors, the game unchanged), compares the network's
//! evaluations in both WebAssembly builds (simd128 and scalar) with the native ones, and keeps
//! screenshots in `target/web-test/`.
//!
//! Without Chromium, chromedriver or a built site the test says why and passes, unless
//! `TEMPO_WEB_REQUIRED=1` (CI, where `cargo xtask ci` builds the site first), as the Syzygy
//! tests do with their tables.
//!
//! WebDriver is JSON over HTTP on localhost; `webdriver` below speaks it over std's
//! `TcpStream` in a hundred lines, where `thirtyfour` or `fantoccini` would bring an async
//! runtime and an HTTP stack into every debug build of the workspace's tests.

mod webdriver;

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tempo_notation::PgnReader;
use tempo_web::{parse_fen, parse_pgn, WebEngine, WebGame};
use webdriver::{Browser, StaticServer};

fn required() -> bool {
    std::env::var_os("TEMPO_WEB_REQUIRED").is_some_and(|v| !v.is_empty() && v != "0")
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("web lives in the workspace").to_path_buf()
}

/// What the test needs and lacks, if anything.
fn missing() -> Option<String> {
    let site = site_dir();
    for program in [chromium(), chromedriver()] {
        if std::process::Command::new(&program).arg("--version").output().is_err() {
            return Some(format!("{program} is not installed (Debian: apt-get install chromium chromium-driver)"));
        }
    }
    for variant in ["simd", "scalar"] {
        if !site.join(variant).join("tempo_web_bg.wasm").is_file() {
            return Some(format!("no site in {} (build it with `cargo xtask web`)", site.display()));
        }
    }
    None
}

fn site_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"))
        .join("web")
}

fn chromium() -> String {
    std::env::var("TEMPO_CHROMIUM").unwrap_or_else(|_| "chromium".to_owned())
}

fn chromedriver() -> String {
    std::env::var("TEMPO_CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".to_owned())
}

/// Polls `script`'s value until `done` accepts it, or fails after `patience`.
fn wait_for(browser: &Browser, script: &str, patience: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let value = browser.execute(script, json!([]));
        if done(&value) {
            return value;
        }
        assert!(start.elapsed() < patience, "waited {patience:?} for {script}; last value {value}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn snapshot(browser: &Browser) -> Value {
    browser.execute("return window.tempoPage.snapshot()", json!([]))
}

fn open_page(browser: &Browser, server: &StaticServer, build: &str) {
    browser.navigate(&format!("{}/?build={build}", server.url()));
    wait_for(browser, "return document.body.dataset.ready === 'true'", Duration::from_secs(30), |v| v == &json!(true));
    assert_eq!(browser.execute("return window.tempoPage.build", json!([])), json!(build));
}

/// Sets a text field's value as a paste would.
fn paste(browser: &Browser, id: &str, text: &str) {
    browser.execute("document.getElementById(arguments[0]).value = arguments[1]", json!([id, text]));
}

fn error_text(browser: &Browser) -> String {
    let value =
        browser.execute("const e = document.getElementById('error'); return e.hidden ? '' : e.textContent", json!([]));
    value.as_str().unwrap_or_default().to_owned()
}

/// Positions whose network evaluations the two WebAssembly builds must match natively.
const EVAL_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

#[test]
fn the_page_plays_loads_and_evaluates_in_chromium() {
    if let Some(why) = missing() {
        assert!(!required(), "the browser test is required (TEMPO_WEB_REQUIRED) but: {why}");
        eprintln!("SKIPPED: {why}; set TEMPO_WEB_REQUIRED=1 to make this a failure");
        return;
    }
    let artifacts = site_dir().with_file_name("web-test");
    std::fs::create_dir_all(&artifacts).expect("creating target/web-test");
    let server = StaticServer::start(site_dir());
    let browser = Browser::start(&chromedriver(), &chromium());

    // 1. e4 by clicking e2 and e4; the engine (level 5, one second a move) answers.
    open_page(&browser, &server, "simd");
    browser.click("rect[data-square='e2']");
    browser.click("rect[data-square='e4']");
    let state = wait_for(&browser, "return window.tempoPage.snapshot()", Duration::from_secs(60), |v| {
        v["san"].as_array().is_some_and(|moves| moves.len() == 2) && v["thinking"] == json!(false)
    });
    assert_eq!(state["san"][0], json!("e4"), "{state}");
    let reply = state["san"][1].as_str().expect("the engine's reply in SAN").to_owned();
    let listed = browser.execute("return document.getElementById('moves').textContent", json!([]));
    assert!(listed.as_str().is_some_and(|t| t.contains("e4") && t.contains(&reply)), "move list: {listed}");
    browser.execute("window.scrollTo(0, 0)", json!([]));
    std::fs::write(artifacts.join("game.png"), browser.screenshot()).expect("writing the screenshot");

    // The exported PGN, read back by Tempo's reader, holds the same two moves.
    browser.click("#pgn-export");
    let pgn = browser.execute("return document.getElementById('pgn').value", json!([]));
    let pgn = pgn.as_str().expect("PGN text");
    let game = PgnReader::new(pgn.as_bytes()).games().next().expect("a game").expect("a readable game");
    let mut pos = game.start;
    let sans: Vec<String> = game
        .mainline()
        .iter()
        .map(|&m| {
            let text = tempo_notation::san(&pos, m);
            pos.play_unchecked(m);
            text
        })
        .collect();
    assert_eq!(sans, ["e4".to_owned(), reply.clone()], "{pgn}");

    // A PGN loaded: its moves on the board, the final position the native reader's.
    let loaded = "[Event \"Test\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 *\n";
    paste(&browser, "pgn", loaded);
    browser.click("#pgn-load");
    let state = snapshot(&browser);
    let (native, _) = parse_pgn(loaded).expect("the test's PGN is valid");
    assert_eq!(state["fen"], json!(native.position().fen()), "{state}");
    assert_eq!(state["san"], json!(["d4", "d5", "c4", "e6", "Nc3", "Nf6"]));
    assert_eq!(error_text(&browser), "");

    // A malformed PGN: the terminal's error, the game unchanged.
    let broken = "1. d4 d5 2. Kxe8 *";
    paste(&browser, "pgn", broken);
    browser.click("#pgn-load");
    let expected = parse_pgn(broken).expect_err("the broken PGN is refused natively").to_string();
    assert_eq!(error_text(&browser), expected);
    assert_eq!(snapshot(&browser)["fen"], state["fen"], "a bad PGN changed the game");

    // A FEN loaded, then a malformed one.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    paste(&browser, "fen", fen);
    browser.click("#fen-load");
    assert_eq!(error_text(&browser), "");
    assert_eq!(snapshot(&browser)["fen"], json!(fen));
    let bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1";
    paste(&browser, "fen", bad);
    browser.click("#fen-load");
    let expected = parse_fen(bad).expect_err("the malformed FEN is refused natively").to_string();
    assert!(expected.starts_with("invalid FEN"), "{expected}");
    assert_eq!(error_text(&browser), expected);
    assert_eq!(snapshot(&browser)["fen"], json!(fen), "a bad FEN changed the game");

    // The analysis view of the good FEN again: MultiPV lines, then a screenshot.
    paste(&browser, "fen", fen);
    browser.click("#fen-load");
    assert_eq!(error_text(&browser), "");
    browser.execute(
        "document.getElementById('mode').value = 'analysis'; document.getElementById('mode').onchange()",
        json!([]),
    );
    // Three rows from the start (placeholders until the engine reports), so the panel keeps
    // its height and the controls below it do not move under the pointer.
    assert_eq!(browser.execute("return document.querySelectorAll('#lines-out li').length", json!([])), json!(3));
    wait_for(
        &browser,
        "return document.querySelectorAll('#lines-out li:not(.pending)').length",
        Duration::from_secs(30),
        |v| v.as_u64().is_some_and(|n| n >= 3),
    );
    std::thread::sleep(Duration::from_secs(2));
    browser.execute("window.scrollTo(0, 0)", json!([]));
    std::fs::write(artifacts.join("analysis.png"), browser.screenshot()).expect("writing the screenshot");

    // The network in both builds gives the native evaluations.
    let mut engine = WebEngine::new();
    let native: Vec<i32> = EVAL_FENS.iter().map(|fen| engine.evaluate(fen).expect("valid FEN")).collect();
    for build in ["simd", "scalar"] {
        open_page(&browser, &server, build);
        let evals = browser.execute_async(
            "const done = arguments[arguments.length - 1]; window.tempoPage.evaluate(arguments[0]).then(done, (e) => done(String(e)))",
            json!([EVAL_FENS]),
        );
        assert_eq!(evals, json!(native), "the {build} build's evaluations differ from the native ones");
    }

    // And the game the test played is one the native bindings accept move by move.
    let mut replay = WebGame::new();
    replay.play("e4", 0.0).expect("e4");
    replay.play(&reply, 0.0).expect("the engine's reply is legal");
}
