//! `data/fen/cases.txt`: by the strict reader (`tempo-tools fen check`), every valid FEN
//! parses and round-trips; every invalid one is rejected.

use std::path::Path;
use tempo_core::CastlingMode;
use tempo_core::{Position, Setup};

#[test]
fn verdicts_match_the_policy() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/fen/cases.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut wrong = Vec::new();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let mut cols = line.split('\t');
        let verdict = cols.next().unwrap();
        let fen = cols.next().unwrap_or("");
        let why = cols.next().unwrap_or("");
        count += 1;
        let strict = Setup::from_fen_strict(fen, CastlingMode::Standard)
            .and_then(|setup| Ok(Position::from_setup(setup, CastlingMode::Standard)?));
        match (verdict, strict) {
            ("valid", Ok(pos)) => {
                if pos.fen() != fen {
                    wrong.push(format!("round trip: {fen:?} -> {:?}", pos.fen()));
                }
            }
            ("invalid", Err(_)) => {}
            ("valid", Err(e)) => wrong.push(format!("rejected valid {fen:?} ({why}): {e}")),
            ("invalid", Ok(_)) => wrong.push(format!("accepted invalid {fen:?} ({why})")),
            (other, _) => panic!("unknown verdict {other}"),
        }
    }
    assert!(count >= 50);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
