//! Every PGN fixture in `data/pgn` reads without error and matches what python-chess reads
//! (`data/pgn/expected.json`); writing and re-reading reproduces every game exactly.

use serde_json::Value;
use std::path::PathBuf;
use tempo_core::Position;
use tempo_notation::{pgn_string, san_line, uci_move, Annotations, PgnGame, PgnNode, PgnReader};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/pgn")
}

fn read_all(bytes: &[u8]) -> Vec<PgnGame> {
    PgnReader::new(bytes).games().map(|g| g.unwrap_or_else(|e| panic!("{e}"))).collect()
}

#[derive(Default, Debug, PartialEq)]
struct Counts {
    nodes: u64,
    variations: u64,
    comments: u64,
    nags: u64,
    clocks: u64,
    max_depth: u64,
}

fn count(line: &[PgnNode], depth: u64, c: &mut Counts) {
    c.max_depth = c.max_depth.max(depth);
    for node in line {
        c.nodes += 1;
        c.comments += u64::from(!node.comments.is_empty());
        c.nags += node.nags.len() as u64;
        c.clocks += u64::from(node.comments.iter().any(|t| Annotations::parse(t).clock.is_some()));
        for v in &node.variations {
            c.variations += 1;
            count(v, depth + 1, c);
        }
    }
}

/// The FEN as python-chess writes it: X-FEN castling (`KQkq`) where possible and the en
/// passant square only when a capture is legal.
fn fen_of(pos: &Position) -> String {
    pos.fen_with_legal_ep()
}

/// Tags in writer order: the Seven Tag Roster first.
fn normalized(game: &PgnGame) -> PgnGame {
    const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
    let mut game = game.clone();
    game.tags.sort_by_key(|(name, _)| ROSTER.iter().position(|r| r == name).unwrap_or(ROSTER.len()));
    game
}

#[test]
fn fixtures_match_python_chess() {
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(data_dir().join("expected.json")).unwrap()).unwrap();
    let files = expected["files"].as_object().unwrap();
    assert_eq!(files.len(), 7);
    for (file, games_expected) in files {
        let bytes = std::fs::read(data_dir().join(file)).unwrap();
        let games = read_all(&bytes);
        let games_expected = games_expected.as_array().unwrap();
        assert_eq!(games.len(), games_expected.len(), "{file}");
        for (game, exp) in games.iter().zip(games_expected) {
            let what = format!("{file} game {}", exp["index"]);
            let headers: Vec<(String, String)> = exp["headers"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
                .collect();
            // python-chess keeps tag values as written (escapes included); Tempo unescapes
            // them as the PGN standard says, so compare in written form.
            let mut ours: Vec<(String, String)> =
                game.tags.iter().map(|(k, v)| (k.clone(), v.replace('\\', "\\\\").replace('"', "\\\""))).collect();
            let mut theirs = headers.clone();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "{what}");
            assert_eq!(fen_of(&game.start), exp["start_fen"].as_str().unwrap(), "{what}");
            let sans = san_line(&game.start, &game.mainline());
            let exp_san: Vec<&str> =
                exp["mainline_san"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
            assert_eq!(sans, exp_san, "{what}");
            let positions = game.mainline_positions();
            let ucis: Vec<String> = game.mainline().iter().zip(&positions).map(|(&m, pos)| uci_move(pos, m)).collect();
            let exp_uci: Vec<&str> =
                exp["mainline_uci"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
            assert_eq!(ucis, exp_uci, "{what}");
            let last = game.final_position();
            assert_eq!(fen_of(&last), exp["final_fen"].as_str().unwrap(), "{what}");
            assert_eq!(game.result.map(|r| r.as_str()), exp["result_tag"].as_str(), "{what}");
            assert_eq!(last.is_checkmate(), exp["final_position"]["checkmate"].as_bool().unwrap(), "{what}");
            assert_eq!(last.is_stalemate(), exp["final_position"]["stalemate"].as_bool().unwrap(), "{what}");
            let mut c = Counts::default();
            count(&game.moves, 0, &mut c);
            c.comments += u64::from(!game.comments.is_empty());
            let mut exp_comments = exp["comments"].as_u64().unwrap();
            if file == "edge-cases.pgn" && exp["index"] == 6 {
                // python-chess discards `;` comments; Tempo keeps them.
                exp_comments += 1;
            }
            let exp_counts = Counts {
                nodes: exp["nodes"].as_u64().unwrap(),
                variations: exp["variations"].as_u64().unwrap(),
                comments: exp_comments,
                nags: exp["nags"].as_u64().unwrap(),
                clocks: exp["clocks"].as_u64().unwrap(),
                max_depth: exp["max_variation_depth"].as_u64().unwrap(),
            };
            assert_eq!(c, exp_counts, "{what}");
        }
    }
}

#[test]
fn write_then_read_reproduces_every_game() {
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pgn") {
            continue;
        }
        let games = read_all(&std::fs::read(&path).unwrap());
        let written: String = games.iter().map(pgn_string).collect();
        for line in written.lines() {
            assert!(line.chars().count() <= 80 || line.starts_with('['), "{}: long line {line:?}", path.display());
        }
        let again = read_all(written.as_bytes());
        assert_eq!(games.len(), again.len());
        for (a, b) in games.iter().zip(&again) {
            let mut a = normalized(a);
            // A game without a termination marker is written with `*`.
            a.result = a.result.or(b.result);
            assert!(a == *b, "{}: {:?}", path.display(), a.tags);
        }
        // Writing is deterministic: a second round gives the same text.
        let twice: String = again.iter().map(pgn_string).collect();
        assert_eq!(written, twice);
    }
}

#[test]
fn writer_snapshots() {
    for name in ["edge-cases.pgn", "molinari-bordais-1979.pgn", "cutechess-fischerrandom.pgn"] {
        let games = read_all(&std::fs::read(data_dir().join(name)).unwrap());
        let written: String = games.iter().map(pgn_string).collect();
        insta::assert_snapshot!(name, written);
    }
}
