//! Runs the example `examples/pgn_games.rs` (a PGN file read game by game, each game's ending
//! on the board), so that it both compiles and works.

#[allow(dead_code)] // `main` is the example's entry point; the test calls `run`.
#[path = "../examples/pgn_games.rs"]
mod pgn_games;

#[test]
fn pgn_games_reports_each_ending_and_reads_past_a_broken_game() {
    let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
               [White \"C\"]\n\n1. e4 Ke7 1-0\n\n\
               1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n\n\
               [FEN \"8/8/8/4k3/8/8/3NK3/8 w - - 0 1\"]\n\n*\n";
    let mut out = Vec::new();
    let summary = pgn_games::run(pgn.as_bytes(), &mut out).expect("writing to a Vec succeeds");
    let out = String::from_utf8(out).expect("the report is UTF-8");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("A - B: 4 plies, recorded 0-1, on the board ends in 0-1 (checkmate); "), "{out}");
    assert_eq!(lines[1], "broken: game 2, line 8, column 7: no such move \"Ke7\"");
    assert!(
        lines[2].starts_with(
            "? - ?: 8 plies, recorded 1/2-1/2, on the board goes on, the player to move may claim a draw by \
             threefold repetition; rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5 (key 463b96181691fc9c)"
        ),
        "{out}"
    );
    assert!(lines[3].contains("on the board ends in 1/2-1/2 (insufficient material); 8/8/8/4k3/8/8/3NK3/8 w"), "{out}");
    assert_eq!(summary, format!("3 games, 1 broken, {} bytes", pgn.len()));
}

#[test]
fn a_file_that_cannot_be_opened_is_named_in_the_error() {
    let error = pgn_games::open(std::path::Path::new("no/such/games.pgn")).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
    assert!(error.to_string().starts_with("cannot open no/such/games.pgn: "), "{error}");
}
