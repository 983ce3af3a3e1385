//! FEN parsing never panics, and every accepted FEN round-trips.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tempo_core::{CastlingMode, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        if let Ok(pos) = Position::from_fen(text, mode) {
            let again = Position::from_fen(&pos.fen(), mode).expect("written FEN parses");
            assert_eq!(again, pos);
            assert_eq!(pos.key(), pos.compute_key());
        }
    }
});
