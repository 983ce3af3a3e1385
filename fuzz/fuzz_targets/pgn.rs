//! The PGN reader never panics and always makes progress: it ends on any input.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tempo_notation::{pgn_string, PgnReader};

fuzz_target!(|data: &[u8]| {
    for game in PgnReader::new(data).games().take(10_000) {
        if let Ok(game) = game {
            // Whatever was read can be written.
            let _ = pgn_string(&game);
        }
    }
});
