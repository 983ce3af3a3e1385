//! EPD parsing never panics; an accepted line writes out and reads back the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tempo_notation::Epd;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(epd) = Epd::parse(text) {
        let written = epd.to_string();
        let again = Epd::parse(&written).expect("written EPD parses");
        assert_eq!(again.to_string(), written);
    }
});
