//! The bindings natively: the same Rust the page calls through WebAssembly.

use serde_json::Value;
use tempo_web::{chess960_position, level_elo, parse_fen, WebEngine, WebError, WebGame, MAX_LEVEL};

fn status(game: &WebGame) -> Value {
    serde_json::from_str(&game.status()).expect("status is JSON")
}

#[test]
fn moves_in_san_or_uci_and_the_legal_list() {
    let mut game = WebGame::new();
    let legal: Value = serde_json::from_str(&game.legal_moves()).expect("JSON");
    assert_eq!(legal.as_array().map(Vec::len), Some(20));
    assert_eq!(game.play("e2e4", 0.0), Ok("e4".to_owned()));
    assert_eq!(game.play("e5", 0.0), Ok("e5".to_owned()));
    assert_eq!(game.play("Ng1-f3", 0.0), Ok("Nf3".to_owned()));
    assert_eq!(game.san_moves(), ["e4", "e5", "Nf3"]);
    assert_eq!(game.uci_moves(), ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(game.fens().len(), 4);
    let before = game.fen();
    let refused = game.play("Ke3", 0.0).unwrap_err();
    assert!(matches!(&refused, WebError::Move(text) if text.starts_with("Illegal move Ke3")), "{refused}");
    assert_eq!(game.fen(), before, "a refused move changes nothing");
    game.undo().expect("a move to take back");
    assert_eq!(game.san_moves(), ["e4", "e5"]);
}

#[test]
fn castling_and_promotion_are_listed_for_the_board() {
    let game = WebGame::from_fen("r3k2r/8/8/8/8/8/1p6/R3K2R b KQkq - 0 1").expect("valid");
    let legal: Vec<Value> = serde_json::from_str(&game.legal_moves()).expect("JSON");
    let castle = legal.iter().find(|m| m["san"] == "O-O").expect("black castles short");
    assert_eq!(
        (castle["from"].as_str(), castle["to"].as_str(), castle["rook"].as_str()),
        (Some("e8"), Some("g8"), Some("h8"))
    );
    let promotions: Vec<&str> =
        legal.iter().filter(|m| m["from"] == "b2" && m["to"] == "b1").filter_map(|m| m["promotion"].as_str()).collect();
    assert_eq!(promotions.len(), 4, "{promotions:?}");
}

#[test]
fn endings_come_with_their_reasons() {
    let mut game = WebGame::new();
    for m in ["f3", "e5", "g4", "Qh4#"] {
        game.play(m, 0.0).expect("legal");
    }
    let s = status(&game);
    assert_eq!(s["result"], "0-1");
    assert_eq!(s["reason"], "checkmate");
    assert_eq!(s["check"], "e1");
    assert_eq!(game.legal_moves(), "[]");
    assert!(matches!(game.play("a3", 0.0), Err(WebError::Game(_))));

    let mut game = WebGame::new();
    game.resign("white").expect("a game in progress");
    assert_eq!(status(&game)["outcome"], "0-1 (resignation)");

    let mut game = WebGame::new();
    game.offer_draw("white").expect("an offer");
    game.accept_draw("black").expect("an offer to accept");
    assert_eq!(status(&game)["result"], "1/2-1/2");

    let mut game = WebGame::new().with_time_control("1+0").expect("a time control");
    assert_eq!(status(&game)["clock"], serde_json::json!([60_000, 60_000]));
    assert!(!game.tick(59_000.0));
    assert!(game.tick(2_000.0), "the flag falls below zero");
    assert_eq!(status(&game)["outcome"], "0-1 (time forfeit)");
}

#[test]
fn fixed_move_time_and_clock_limits_for_the_engine() {
    let game = WebGame::new().with_time_control("1/2").expect("two seconds a move");
    let limits: Value = serde_json::from_str(&game.engine_limits(1000)).expect("JSON");
    assert_eq!(limits["movetime"], 1800);
    let game = WebGame::new().with_time_control("5+3").expect("five minutes and three seconds");
    let limits: Value = serde_json::from_str(&game.engine_limits(1000)).expect("JSON");
    assert_eq!((limits["wtime"].as_u64(), limits["winc"].as_u64()), (Some(300_000), Some(3_000)));
    let refused = WebGame::new().with_time_control("5x").err().expect("not a time control");
    assert!(matches!(refused, WebError::TimeControl(_)), "{refused}");
}

#[test]
fn bad_fen_and_pgn_get_the_terminal_programs_errors() {
    let bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1";
    let error = WebGame::from_fen(bad).err().expect("seven ranks");
    let text = error.to_string();
    // `tempo`'s words: `invalid FEN "...": ` and the typed FenError's own message.
    let native = tempo_core::Position::from_fen(bad, tempo_core::CastlingMode::Standard).unwrap_err().to_string();
    assert!(text.starts_with(&format!("invalid FEN {bad:?}: {native}")), "{text}");
    assert!(matches!(WebGame::from_pgn(""), Err(WebError::Pgn(_))));
    let error = WebGame::from_pgn("1. e4 e5 2. Kxe8 *").err().expect("an illegal move");
    assert!(error.to_string().starts_with("the game cannot be read: "), "{error}");
}

#[test]
fn pgn_out_and_back_in() {
    let mut game = WebGame::new();
    for m in ["d4", "Nf6", "c4", "e6"] {
        game.play(m, 0.0).expect("legal");
    }
    let pgn = game.pgn("Ann", "Tempo level 5");
    assert!(pgn.contains("[White \"Ann\"]") && pgn.contains("1. d4 Nf6 2. c4 e6 *"), "{pgn}");
    let back = WebGame::from_pgn(&pgn).expect("its own PGN");
    assert_eq!(back.san_moves(), game.san_moves());
    assert_eq!(back.players(), ["Ann", "Tempo level 5"]);
}

#[test]
fn chess960_games_castle_king_takes_rook() {
    let start = chess960_position(518).expect("518 is the standard setup");
    assert_eq!(start.fen(), tempo_core::fen::STARTING_FEN);
    assert_eq!(start.castling_mode(), tempo_core::CastlingMode::Chess960);
    assert!(chess960_position(960).is_err());
    let mut game = WebGame::from_fen("nrk3rn/pppppppp/8/8/8/8/PPPPPPPP/NRK3RN w GBgb - 0 1").expect("960");
    assert!(game.is_chess960());
    game.play("O-O-O", 0.0).expect("white castles long, the king staying on c1");
    assert_eq!(game.uci_moves(), ["c1b1"]);
    assert!(game.fen().starts_with("nrk3rn/pppppppp/8/8/8/8/PPPPPPPP/N1KR2RN b"), "{}", game.fen());
}

#[test]
fn levels_are_the_terminal_programs() {
    assert_eq!(level_elo(1), Some(1000));
    assert_eq!(level_elo(5), Some(1800));
    assert_eq!(level_elo(MAX_LEVEL), None);
    let mut engine = WebEngine::new();
    assert!(matches!(engine.configure(0, 1, false), Err(WebError::Engine(_))));
    engine.configure(3, 1, false).expect("level 3");
}

#[test]
fn the_engine_searches_and_reports_lines_then_one_best_move() {
    let mut engine = WebEngine::new();
    engine.configure(MAX_LEVEL, 2, false).expect("full strength, two lines");
    let mut events = Vec::new();
    engine
        .search_with(tempo_core::fen::STARTING_FEN, &["e2e4".to_owned()], r#"{"depth": 6}"#, |e| events.push(e))
        .expect("a search");
    let events: Vec<Value> = events.iter().map(|e| serde_json::from_str(e).expect("JSON")).collect();
    let last = events.last().expect("events");
    assert_eq!(last["type"], "bestmove");
    assert_eq!(events.iter().filter(|e| e["type"] == "bestmove").count(), 1);
    let best = last["best"].as_str().expect("a move");
    let pos = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").expect("valid");
    assert!(tempo_notation::parse_uci_move(&pos, best).is_ok(), "{best}");
    assert!(events.iter().any(|e| e["type"] == "info" && e["multipv"] == 2 && e["depth"] == 6));
    let info = events.iter().rev().find(|e| e["type"] == "info" && e["multipv"] == 1).expect("a line");
    assert_eq!(info["pv"][0], best);
    assert!(info["pv_san"][0].as_str().is_some_and(|s| !s.is_empty()));
    let refused = engine.search_with(tempo_core::fen::STARTING_FEN, &["e2e5".to_owned()], "{}", |_| {});
    assert!(matches!(refused, Err(WebError::Move(_))));
    assert!(matches!(engine.search_with("8/8", &[], "{}", |_| {}), Err(WebError::Fen(_))));
    assert!(matches!(
        engine.search_with(tempo_core::fen::STARTING_FEN, &[], "{\"depht\": 3}", |_| {}),
        Err(WebError::Engine(_))
    ));
}
