//! The repository's EPD suites and opening books read through the notation layer.

use std::path::PathBuf;
use tempo_core::Position;
use tempo_notation::{Epd, PgnReader};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data").join(path)
}

fn lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(data(path))
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// The FEN with the en passant field only when a capture is legal (as EPD writers do).
fn normalized_fen(pos: &Position) -> String {
    let fen = pos.fen();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    let ep = pos.legal_ep_square().map_or("-".to_owned(), |sq| sq.to_string());
    fields[3] = &ep;
    fields.join(" ")
}

#[test]
fn test_suites_read_and_write_back_exactly() {
    for file in ["epd/wac.epd", "epd/bratko-kopec.epd"] {
        for line in lines(file) {
            let epd = Epd::parse(&line).unwrap_or_else(|e| panic!("{file}: {line}: {e}"));
            assert!(!epd.best_moves().unwrap().is_empty() || !epd.avoid_moves().unwrap().is_empty(), "{line}");
            assert!(epd.id().is_some());
            assert_eq!(epd.to_string(), line);
        }
    }
}

#[test]
fn perft_suites_read() {
    for file in ["perft/standard.epd", "perft/cpw.epd", "perft/fischer.epd", "perft/tricky.epd", "perft/tricky960.epd"]
    {
        for line in lines(file) {
            let epd = Epd::parse(&line).unwrap_or_else(|e| panic!("{file}: {line}: {e}"));
            let counts = epd.perft_counts().unwrap();
            assert!(!counts.is_empty(), "{line}");
            if let Some(&(_, d1)) = counts.iter().find(|(depth, _)| *depth == 1) {
                assert_eq!(d1, epd.position.legal_moves().len() as u64, "{file}: {line}");
            }
        }
    }
}

#[test]
fn opening_book_pgn_matches_its_epd() {
    let fens = lines("openings/openings.epd");
    let games: Vec<_> = PgnReader::new(std::fs::File::open(data("openings/openings.pgn")).unwrap())
        .games()
        .map(Result::unwrap)
        .collect();
    assert_eq!(games.len(), fens.len());
    for (game, fen) in games.iter().zip(&fens) {
        assert_eq!(game.moves.len(), 16);
        assert_eq!(&normalized_fen(&game.final_position()), fen, "{:?}", game.tag("Event"));
    }
}
