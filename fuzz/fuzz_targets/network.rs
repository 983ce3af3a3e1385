//! NNUE network files never panic the reader; an accepted file writes out and reads back
//! the same network.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tempo_engine::Network;

fuzz_target!(|data: &[u8]| {
    if let Ok(network) = Network::from_bytes(data) {
        let written = network.to_bytes();
        assert!(Network::from_bytes(&written).expect("a written network reads back") == network);
    }
});
