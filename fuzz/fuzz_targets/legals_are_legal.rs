//! Random games driven by the fuzzer's bytes: every generated move leaves a legal position
//! (the mover's king not attacked, the key consistent), the count matches bulk counting,
//! and moves outside the list are rejected by `play`.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tempo_core::{Move, Position, Square};

fuzz_target!(|data: &[u8]| {
    let mut pos = Position::startpos();
    for chunk in data.chunks(3) {
        let moves = pos.legal_moves();
        assert_eq!(moves.len() as u64, pos.count_legal_moves());
        for &m in moves.iter() {
            let mut child = pos;
            child.play_unchecked(m);
            let mover = pos.turn();
            assert!(!child.is_attacked(child.king_of(mover), !mover, child.occupied()), "{m:?} leaves the king in check");
            assert_eq!(child.key(), child.compute_key());
        }
        // An arbitrary from/to pair is played only if it is in the list.
        if chunk.len() == 3 {
            let from = Square::new(u32::from(chunk[1] % 64)).unwrap();
            let to = Square::new(u32::from(chunk[2] % 64)).unwrap();
            let m = Move::normal(from, to);
            let mut copy = pos;
            assert_eq!(copy.play(m).is_ok(), moves.contains(m));
        }
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[chunk[0] as usize % moves.len()]);
    }
});
