//! The client driving a real engine: the `tempo-uci` binary of this crate.

use std::time::Duration;
use tempo_core::{CastlingMode, Game, Position};
use tempo_engine::Limits;
use tempo_notation::parse_uci_move;
use tempo_uci::{go_params, EngineSpec, UciClient};

#[test]
fn start_sets_options_and_plays_a_chess960_game() {
    let spec = EngineSpec {
        command: env!("CARGO_BIN_EXE_tempo-uci").to_owned(),
        args: Vec::new(),
        options: vec![("Hash".to_owned(), "1".to_owned()), ("UCI_Chess960".to_owned(), "true".to_owned())],
    };
    let patience = Duration::from_secs(30);
    let mut client = UciClient::start(&spec, patience).unwrap();
    assert!(client.name.as_deref().is_some_and(|n| n.starts_with("Tempo")), "{:?}", client.name);
    // White castles short, written king takes rook as Chess960 wants.
    let start = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Chess960).unwrap();
    let mut game = Game::new(start);
    game.play(parse_uci_move(&start, "e1h1").unwrap()).unwrap();
    client.set_game(&game).unwrap();
    let pos = *game.position();
    let (best, _) = client.go(&go_params(&pos, &Limits::depth(2)), patience, |_| {}).unwrap();
    let m = parse_uci_move(&pos, &best).unwrap();
    assert!(pos.is_legal(m), "{best}");
    client.quit();
}
