//! A first program on tempo-core and tempo-notation: a position from FEN, its legal moves in
//! SAN, moves played by squares and in SAN, the endings (checkmate, stalemate, repetition),
//! and a game written to a PGN file and read back.
//!
//! `cargo run -p tempo-notation --example first_program` (the PGN file goes to the temporary
//! folder); `notation/tests/first_program.rs` runs it with the tests.

use std::error::Error;
use std::fs::File;
use std::path::Path;

use tempo_core::{Game, Position, Square};
use tempo_notation::{parse_san, san, write_pgn_io, PgnGame, PgnReader};

fn main() -> Result<(), Box<dyn Error>> {
    run(&std::env::temp_dir().join("tempo-first-program.pgn"))
}

/// Everything the program does, writing its PGN file at `pgn_path`.
pub fn run(pgn_path: &Path) -> Result<(), Box<dyn Error>> {
    // A position from FEN and its legal moves in SAN.
    let italian: Position = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4".parse()?;
    let sans: Vec<String> = italian.legal_moves().iter().map(|&m| san(&italian, m)).collect();
    println!("{} legal moves: {}", sans.len(), sans.join(" "));

    // A move by its squares: castling is the king's two steps (or king takes rook, e1h1).
    let castle = italian.find_move(Square::E1, Square::G1, None)?;
    println!("e1-g1 is {} ({castle}, {castle:?})", san(&italian, castle));

    // A game judges every move; play returns the outcome once the game is over.
    let mut game = Game::new(Position::startpos());
    for text in ["f3", "e5", "g4", "Qh4#"] {
        let m = parse_san(game.position(), text)?;
        if let Some(outcome) = game.play(m)? {
            println!("after {text}: {outcome}"); // 0-1 (checkmate)
        }
    }

    // A position can say on its own whether the rules end the game there.
    let stalemate: Position = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse()?;
    println!("stalemate: {}", stalemate.outcome().ok_or("the game goes on")?); // 1/2-1/2 (stalemate)

    // Repetitions need the game: the third time, the player to move may claim a draw.
    let mut shuffle = Game::new(Position::startpos());
    for text in ["Nf3", "Nf6", "Ng1", "Ng8"].repeat(2) {
        shuffle.play(parse_san(shuffle.position(), text)?)?;
    }
    println!("claimable: {:?}", shuffle.claimable_now());
    println!("claimed: {}", shuffle.claim_draw()?); // 1/2-1/2 (threefold repetition)

    // PGN: the checkmate game written to a file, then read back.
    let mut pgn = PgnGame::from_game(&game);
    pgn.set_tag("White", "Newcomer");
    write_pgn_io(&mut File::create(pgn_path)?, &pgn)?;
    // The reader buffers the file itself, a game at a time: files of any size read in
    // constant memory.
    let mut games = PgnReader::new(File::open(pgn_path)?).games();
    let read = games.next().ok_or("the file holds no game")??;
    assert_eq!(read.mainline(), game.moves());
    println!("{} wrote:\n{}", pgn_path.display(), std::fs::read_to_string(pgn_path)?);
    Ok(())
}
