//! SAN parsing never panics; an accepted move is legal (or the null move, which PGN allows
//! as `--`/`0000`) and its canonical SAN reads back as the same move.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tempo_core::Position;
use tempo_notation::{parse_san, san};

const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for fen in POSITIONS {
        let pos: Position = fen.parse().expect("fixed positions are valid");
        if let Ok(m) = parse_san(&pos, text) {
            if m.is_null() {
                continue;
            }
            assert!(pos.is_legal(m));
            assert_eq!(parse_san(&pos, &san(&pos, m)).expect("canonical SAN parses"), m);
        }
    }
});
