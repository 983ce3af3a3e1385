//! # tempo-core: the rules of chess
//!
//! Squares and bitboards, legal move generation, make-move with incremental Zobrist keys
//! (Polyglot key set), FEN, position validation, perft. Pure: no I/O, no wall clock.
//!
//! ```
//! use tempo_core::{perft, Position};
//!
//! let pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 20);
//! assert_eq!(perft(&pos, 3), 8_902);
//! assert_eq!(pos.key(), 0x463b96181691fc9c);
//!
//! let kiwipete: Position =
//!     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse()?;
//! assert_eq!(perft(&kiwipete, 2), 2_039);
//! # Ok::<(), tempo_core::FenError>(())
//! ```

mod attacks;
mod bitboard;
mod book;
mod castling;
mod clock;
mod error;
mod fen;
mod game;
mod movegen;
mod moves;
mod perft;
mod position;
mod types;
mod zobrist;

pub use attacks::{
    aligned, attacks, between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
pub use bitboard::Bitboard;
pub use book::{decode_book_move, encode_book_move, Book, BookBuilder, BookEntry, BookError, BOOK_ENTRY_SIZE};
pub use castling::{CastlingMode, CastlingRights, CastlingSide};
pub use clock::{Clock, Stage, TimeControl, TimeControlError, TimeUnit};
pub use error::{FenError, MoveError, PositionError};
pub use fen::{parse_fen, STARTING_FEN};
pub use game::{
    can_ever_checkmate, repetition_key, ClaimResult, ClaimableDraw, DrawClaim, Game, GameError, GameResult, Outcome,
    Termination,
};
pub use movegen::MoveFilter;
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use perft::{divide, perft, perft_plain, perft_within};
pub use position::{Ending, Position, Setup};
pub use types::{Color, File, ParseSquareError, Piece, Rank, Role, Square};
