//! Every PGN fixture in `data/pgn` reads without error and matches what python-chess reads
//! (`data/pgn/expected.json`); writing and re-reading reproduces every game exactly.

use serde_json::Value;
use std::path::PathBuf;
use tempo_core::{CastlingMode, Position};
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
    // Of our own fixtures, the one whose comments hold runs of spaces and quoted tag lines.
    let comments = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/comments-quoting-tags.pgn");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(data_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    paths.push(comments);
    for path in paths {
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
            // The writer supplies the Seven Tag Roster tags a game lacks.
            let mut b = b.clone();
            b.tags.retain(|(name, _)| a.tags.iter().any(|(n, _)| n == name));
            assert!(a == b, "{}: {:?}", path.display(), a.tags);
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

/// A game as python-chess 1.11.2 reads it: Chess960 or not, the main line in UCI (Chess960
/// castling as king takes rook), the final position as Shredder-FEN.
struct Reading {
    chess960: bool,
    uci: &'static str,
    final_fen: &'static str,
}

const COMMENTS_QUOTING_TAGS: [Reading; 4] = [
    Reading {
        chess960: false,
        uci: "e2e4 e7e5 g1f3 b8c6",
        final_fen: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w HAha - 2 3",
    },
    Reading {
        chess960: false,
        uci: "d2d4 d7d5",
        final_fen: "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w HAha - 0 2",
    },
    Reading {
        chess960: false,
        uci: "c2c4 e7e5",
        final_fen: "rnbqkbnr/pppp1ppp/8/4p3/2P5/8/PP1PPPPP/RNBQKBNR w HAha - 0 2",
    },
    Reading {
        chess960: false,
        uci: "g1f3 g8f6",
        final_fen: "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w HAha - 2 2",
    },
];

const CHESS960_INFERRED: [Reading; 7] = [
    Reading { chess960: true, uci: "c1g1 c8g8", final_fen: "nr3rkn/pppppppp/8/8/8/8/PPPPPPPP/NR3RKN w - - 2 2" },
    Reading { chess960: true, uci: "c1b1 c8g8", final_fen: "nr3rkn/pppppppp/8/8/8/8/PPPPPPPP/N1KR2RN w - - 2 2" },
    Reading { chess960: true, uci: "c1g1 c8b8", final_fen: "n1kr2rn/pppppppp/8/8/8/8/PPPPPPPP/NR3RKN w - - 2 2" },
    Reading { chess960: true, uci: "c1b1 c8g8", final_fen: "nr3rkn/pppppppp/8/8/8/8/PPPPPPPP/N1KR2RN w - - 2 2" },
    Reading { chess960: true, uci: "e1b1 e8h8", final_fen: "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2" },
    Reading { chess960: false, uci: "e1g1 e8c8 g1g2", final_fen: "2kr3r/8/8/8/8/8/6K1/R4R2 b - - 3 2" },
    Reading { chess960: false, uci: "e2e4 e8d7", final_fen: "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2" },
];

/// The Shredder-FEN as python-chess writes it: the en passant square only when a capture is
/// legal.
fn shredder_fen_of(pos: &Position) -> String {
    let fen = pos.shredder_fen();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    let ep = pos.legal_ep_square().map_or("-".to_owned(), |sq| sq.to_string());
    fields[3] = &ep;
    fields.join(" ")
}

#[test]
fn tag_lines_in_comments_and_inferred_chess960_match_python_chess() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for (file, expected) in
        [("comments-quoting-tags.pgn", &COMMENTS_QUOTING_TAGS[..]), ("chess960-inferred.pgn", &CHESS960_INFERRED[..])]
    {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for ending in ["\n", "\r\n", "\r"] {
            let what = format!("{file} with {ending:?}");
            let games = read_all(text.replace('\n', ending).as_bytes());
            assert_eq!(games.len(), expected.len(), "{what}");
            for (i, (game, exp)) in games.iter().zip(expected).enumerate() {
                assert_eq!(game.start.castling_mode() == CastlingMode::Chess960, exp.chess960, "{what} game {i}");
                let positions = game.mainline_positions();
                let ucis: Vec<String> =
                    game.mainline().iter().zip(&positions).map(|(&m, pos)| uci_move(pos, m)).collect();
                assert_eq!(ucis.join(" "), exp.uci, "{what} game {i}");
                assert_eq!(shredder_fen_of(&game.final_position()), exp.final_fen, "{what} game {i}");
            }
        }
    }
}

#[test]
fn comments_quoting_tags_keep_their_text() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/comments-quoting-tags.pgn");
    let games = read_all(&std::fs::read(path).unwrap());
    assert_eq!(games[1].moves[0].comments, ["see game [Event \"Foo\"] for details"]);
    assert_eq!(
        games[2].moves[0].comments,
        ["quoting the header: [White \"Somebody\"] [Black \"Someone else\"] end of quote"]
    );
    assert_eq!(games[3].moves[0].comments, ["first paragraph  second paragraph"]);
    assert_eq!(games[0].moves[0].annotations().clock, Some(std::time::Duration::from_secs(300)));
}
