//! # tempo-core: the rules of chess
//!
//! Squares and bitboards, legal move generation, make-move with incremental Zobrist keys
//! (Polyglot key set), FEN, position validation, games with every ending of the FIDE Laws,
//! clocks, opening books, perft. Pure: no I/O, no wall clock.
//!
//! The vocabulary is at the root: [`Square`] (with a constant for each, `Square::E2`),
//! [`Piece`], [`Move`] (`Display` writes UCI, `e1g1`), [`Bitboard`], [`Position`] (always
//! legal; built from a [`Setup`] or a FEN; [`Position::find_move`] turns squares into the
//! legal move, castling and en passant included), [`Game`], and the [`Score`] engines report.
//! The rest is in modules: [`attacks`] (attack tables for move generators and evaluations),
//! [`fen`], [`game`] (claims, repetition keys), [`opening`] (random plies for openings),
//! [`clock`] (time controls and chess clocks), [`book`] (Polyglot opening books), [`perft`]
//! and [`unwinnable`] (whether a side can still checkmate: dead positions and flag falls).
//!
//! How a game ends is three types, each with one job:
//! - [`GameResult`]: the score, `1-0`, `0-1` or `1/2-1/2` (its `Display`, as PGN writes it);
//! - [`Termination`]: why the game ended by the FIDE Laws; `Display` says it in words
//!   (`insufficient material`), [`Termination::as_str`] gives the stable snake-case name
//!   JSON output uses (`insufficient_material`);
//! - [`Outcome`]: both (`1/2-1/2 (insufficient material)`), from [`Position::outcome`]
//!   (checkmate, stalemate, insufficient material) or [`Game::outcome`] (also the other dead
//!   positions, repetitions, the seventy-five-move rule, claims, agreement, resignation and
//!   the clock).
//!
//! PGN's vocabularies (the `*` of an unfinished game, the `Termination` tag's values) are
//! `tempo-notation`'s.
//!
//! ```
//! use tempo_core::book::{Book, BookBuilder};
//! use tempo_core::perft::perft;
//! use tempo_core::{CastlingMode, Game, Move, Position, Square};
//!
//! // Moves and perft.
//! let pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 20);
//! assert_eq!(perft(&pos, 3), 8_902);
//! assert_eq!(pos.key(), 0x463b96181691fc9c);
//!
//! // FEN: `parse` reads standard chess, `from_fen` either castling notation.
//! let kiwipete: Position = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse()?;
//! assert_eq!(perft(&kiwipete, 2), 2_039);
//! let chess960 = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", CastlingMode::Chess960)?;
//! assert_eq!(chess960.castling_rights(), kiwipete.castling_rights());
//!
//! // Moves by their squares; `find_move` also knows castling (king takes rook) and en passant.
//! let e4 = Move::normal(Square::E2, Square::E4);
//! assert_eq!(e4.to_string(), "e2e4");
//! let castle = kiwipete.find_move(Square::E1, Square::G1, None)?;
//! assert_eq!((castle, castle.to_string()), (Move::castle(Square::E1, Square::H1), "e1g1".to_owned()));
//!
//! // A game keeps the record and judges it.
//! let mut game = Game::new(pos);
//! game.play(e4)?;
//! assert_eq!(game.moves(), [e4]);
//! let mate: Position = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3".parse()?;
//! assert_eq!(mate.outcome().map(|o| o.to_string()), Some("0-1 (checkmate)".to_owned()));
//!
//! // An opening book (Polyglot format): built from weighted moves, probed by position.
//! let mut builder = BookBuilder::new();
//! builder.add(&pos, e4, 2);
//! let book = Book::from_bytes(&builder.build(0).to_bytes())?;
//! assert_eq!(book.probe(&pos).first().map(|&(m, _)| m), Some(e4));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

// The README's example is compiled and run with the doctests, so it cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod attacks;
mod bitboard;
pub mod book;
mod castling;
pub mod clock;
mod error;
pub mod fen;
pub mod game;
mod movegen;
mod moves;
pub mod opening;
mod outcome;
pub mod perft;
mod position;
mod refusal;
mod score;
mod types;
pub mod unwinnable;
mod zobrist;

pub use bitboard::Bitboard;
pub use castling::{CastlingMode, CastlingRights, CastlingSide};
pub use error::{Defect, FenError, MoveError, PositionError};
pub use game::{Game, INCORRECT_CLAIM_BONUS};
pub use movegen::MoveFilter;
pub use moves::{Move, MoveKind, MoveList, MoveListIntoIter, MAX_MOVES};
pub use outcome::{GameResult, Outcome, Termination};
pub use position::{Position, Setup};
pub use refusal::{PlacedPiece, Refusal};
pub use score::{ParseScoreError, Score};
pub use types::{Color, File, ParseSquareError, Piece, Rank, Role, Square};
