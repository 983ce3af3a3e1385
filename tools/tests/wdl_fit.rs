//! `tempo-tools data wdl-fit`: games whose results follow a known model give that model back.

use std::process::Command;
use tempo_core::{Bitboard, CastlingMode, GameResult, Position, Square};
use tempo_engine::wdl_material;
use tempo_notation::PackedGame;

/// The model that made the results: `a` and `b` by material.
fn truth(material: i32) -> (f64, f64) {
    let x = f64::from(material) / 58.0;
    (300.0 - 150.0 * x, 80.0 + 70.0 * x)
}

#[test]
fn the_fit_recovers_the_model_behind_the_results() {
    // The start position with more and more pieces taken off: eight material counts.
    let removals = ["", "d8d1", "d8d1a8h1", "d8d1a8h1a1h8", "d8d1a8h1a1h8b8g1", "d8d1a8h1a1h8b8g1b1g8"];
    let removals = removals.iter().chain(&["d8d1a8h1a1h8b8g1b1g8c8f1", "d8d1a8h1a1h8b8g1b1g8c8f1c1f8"]);
    let mut bytes = Vec::new();
    let mut materials = Vec::new();
    for removal in removals {
        let mut setup = Position::startpos().to_setup();
        for square in removal.as_bytes().chunks(2) {
            let square: Square = std::str::from_utf8(square).unwrap().parse().unwrap();
            setup.board[square.index()] = None;
        }
        setup.castling_rooks = Bitboard::EMPTY;
        let pos = Position::from_setup(setup, CastlingMode::Standard).unwrap();
        let material = wdl_material(&pos);
        materials.push(material);
        let (a, b) = truth(material);
        let mv = pos.legal_moves()[0];
        for v in (-20..=20).map(|i| i * 20) {
            let x = f64::from(v);
            let (pw, pl) = (1.0 / (1.0 + ((a - x) / b).exp()), 1.0 / (1.0 + ((a + x) / b).exp()));
            let counts = [(pw * 100.0).round(), ((1.0 - pw - pl) * 100.0).round(), (pl * 100.0).round()];
            for (result, n) in [GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins].into_iter().zip(counts)
            {
                for _ in 0..n as usize {
                    let mut game = PackedGame::new(pos, result);
                    game.push(mv, v as i16).unwrap();
                    game.write_to(&mut bytes).unwrap();
                }
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.vf");
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tempo-tools")).args(["data", "wdl-fit"]).arg(&path).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    for material in materials {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&material.to_string()))
            .unwrap_or_else(|| panic!("material {material}: {text}"));
        let fields: Vec<f64> = line.split_whitespace().map(|f| f.parse().unwrap()).collect();
        let (a, b) = truth(material);
        assert!((fields[2] - a).abs() < 3.0 && (fields[3] - b).abs() < 3.0, "{line} against {a} {b}");
    }
    assert!(text.contains("pub const WDL_A: [f64; 4] = ["), "{text}");

    // Too few games for a model is an error, not a guess.
    let small = dir.path().join("small.vf");
    std::fs::write(&small, &std::fs::read(&path).unwrap()[..4000]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tempo-tools")).args(["data", "wdl-fit"]).arg(&small).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("too few games to fit the model"));
}
