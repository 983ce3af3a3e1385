//! Deterministic random input: whatever arrives, the server never panics, answers every
//! `go` with exactly one `bestmove`, and still answers `isready` at the end.

mod common;

use common::{bestmoves, server};

const WORDS: &[&str] = &[
    "uci",
    "isready",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "stop",
    "ponderhit",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "Clear",
    "UCI_Elo",
    "ucinewgame",
    "d",
    "eval",
    "e2e4",
    "e7e5",
    "g1f3",
    "a7a8q",
    "0000",
    "e1g1",
    "-1",
    "0",
    "1",
    "2",
    "3",
    "99999999999999999999",
    "x",
    "8/8/8/8/8/8/8/8",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "w",
    "b",
    "KQkq",
    "-",
    "\u{fffd}",
    "register",
    "debug",
    "on",
];

#[test]
fn random_lines_never_break_the_server() {
    let (mut server, buffer) = server();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut gos = 0;
    for _ in 0..400 {
        let len = 1 + next() % 8;
        let mut words: Vec<&str> = (0..len).map(|_| WORDS[(next() % WORDS.len() as u64) as usize]).collect();
        if next() % 3 == 0 {
            words.insert(0, ["go", "position", "setoption"][(next() % 3) as usize]);
        }
        // Keep searches and perft small: this is about robustness, not speed.
        let line: String = words.join(" ").replace("99999999999999999999", "1");
        let line = if line.starts_with("go") { format!("{line} depth 2") } else { line };
        // `go ... perft` is a developer command without a bestmove (refused when malformed).
        if line.contains("perft") || line.contains("Hash value") || line.contains("Threads value") {
            continue;
        }
        let before = bestmoves(&buffer.text()).len();
        server.handle_line(&line);
        if line.starts_with("go") {
            server.handle_line("stop");
            server.wait();
            gos += 1;
            assert_eq!(bestmoves(&buffer.text()).len(), before + 1, "after {line:?}");
        }
    }
    assert!(gos > 10);
    server.handle_line("isready");
    server.finish();
    assert!(buffer.text().ends_with("readyok\n"));
}
