//! Viriformat: the compact binary game record that NNUE training data is stored in.
//!
//! A file is a sequence of games. Each game is the position its engine moves start from,
//! packed in 32 bytes (marlinformat's `PackedBoard`), then one 4-byte record per ply (the move
//! played and the searcher's score of the position before it), then four zero bytes. A
//! game of 100 plies takes 436 bytes, about 4.4 bytes per position, where the text format
//! (`FEN | score | result`) takes about 70.
//!
//! The layout is Viridithas's viriformat byte for byte, so files written here are read by
//! other engines' tools and the reverse; it is implemented on Tempo's own core instead of
//! depending on the `viriformat` crate, which carries a second chess implementation of its own.
//! All integers are little-endian; squares are a1 = 0 .. h8 = 63.
//!
//! | bytes | field |
//! |---|---|
//! | 8 | occupancy bitboard |
//! | 16 | 32 four-bit pieces, in the order of the occupancy's set bits from the lowest: bits 0..3 the role (pawn 0, knight 1, bishop 2, rook 3, queen 4, king 5, or 6 for a rook that may still castle), bit 3 set for Black |
//! | 1 | side to move (bit 7 set for Black) and en passant square (bits 0..6; 64 if none) |
//! | 1 | halfmove clock |
//! | 2 | fullmove number |
//! | 2 | score of the start position (unused, 0) |
//! | 1 | result: 0 Black won, 1 draw, 2 White won |
//! | 1 | unused (0) |
//!
//! A move is `from | to << 6 | promotion << 12 | kind << 14`, with the promotion piece knight
//! 0 .. queen 3 and the kind 1 for en passant, 2 for castling (encoded as the king taking its
//! own rook, as Tempo's [`Move`] does, which covers Chess960), 3 for promotions, 0 otherwise.
//! A score is an `i16` in centipawns from White's point of view; scores at or beyond
//! [`MATE_SCORE_BOUND`] mean a forced mate.
//!
//! Every move must be stored to replay a game, so the positions a trainer should not learn
//! from (in check, a capture or promotion to play, a mate score) are skipped where positions
//! are taken out of a game, by a [`TrainingFilter`], as Viridithas's tools do.
//!
//! ```
//! use tempo_core::{GameResult, Position};
//! use tempo_notation::{parse_uci_move, PackedGame, ViriReader};
//!
//! let start = Position::startpos();
//! let mut game = PackedGame::new(start, GameResult::Draw);
//! let e4 = parse_uci_move(&start, "e2e4")?;
//! game.push(e4, 25)?;
//! let mut bytes = Vec::new();
//! game.write_to(&mut bytes)?;
//! assert_eq!(bytes.len(), 32 + 4 + 4);
//!
//! let read: Vec<PackedGame> = ViriReader::new(&bytes[..]).collect::<Result<_, _>>()?;
//! assert_eq!(read, vec![game]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, BufReader, Read, Write};
use tempo_core::{
    Bitboard, CastlingMode, Color, GameResult, Move, MoveKind, Piece, Position, PositionError, Role, Setup, Square,
};
use thiserror::Error;

/// Size of the packed start position.
pub const PACKED_BOARD_SIZE: usize = 32;
/// Scores whose magnitude reaches this are mate scores (the mate in `n` plies is stored as
/// `±(32_000 - n)`).
pub const MATE_SCORE_BOUND: i16 = 31_000;
/// The score stored for a mate found `plies` plies from the position.
pub const fn mate_score(plies: u32) -> i16 {
    let plies = if plies > 999 { 999 } else { plies as i16 };
    32_000 - plies
}
/// The longest game a reader accepts (in plies): far beyond any real game, it bounds the
/// memory a corrupt file can make a reader allocate.
pub const MAX_PLIES: usize = 4096;

const UNMOVED_ROOK: u8 = 6;
const TERMINATOR: [u8; 4] = [0; 4];

/// One move of a packed game and the score of the position it was played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move played.
    pub mv: Move,
    /// The searcher's score of the position before the move, in centipawns from White's
    /// point of view; see [`MATE_SCORE_BOUND`].
    pub score: i16,
}

/// A game as viriformat stores it: a start position, the moves played with their scores,
/// and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedGame {
    /// The position the recorded moves start from.
    pub start: Position,
    /// How the game ended.
    pub result: GameResult,
    /// The moves, each with the score of the position it was played in.
    pub moves: Vec<ScoredMove>,
}

/// Why a viriformat record could not be read. The messages count games and plies from 1, as
/// every other report of Tempo's does; the fields count from 0.
#[derive(Debug, Error)]
pub enum ViriError {
    /// Reading the input failed.
    #[error("reading failed: {0}")]
    Io(#[from] io::Error),
    /// The input ends inside a game.
    #[error("game {}: the file ends inside the game (truncated)", .game + 1)]
    Truncated {
        /// The game's index in the file, from 0.
        game: u64,
    },
    /// The packed start position is malformed.
    #[error("game {}: bad start position: {reason}", .game + 1)]
    BadBoard {
        /// The game's index in the file, from 0.
        game: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// The start position breaks a rule of chess.
    #[error("game {}: illegal start position: {source}", .game + 1)]
    IllegalBoard {
        /// The game's index in the file, from 0.
        game: u64,
        /// The rule it breaks.
        source: PositionError,
    },
    /// The result byte is not 0, 1 or 2.
    #[error("game {}: result byte {value} is not 0 (Black won), 1 (draw) or 2 (White won)", .game + 1)]
    BadResult {
        /// The game's index in the file, from 0.
        game: u64,
        /// The byte read.
        value: u8,
    },
    /// A move is not legal in its position.
    #[error("game {}, ply {}: move {raw:#06x} is not legal in the position", .game + 1, .ply + 1)]
    IllegalMove {
        /// The game's index in the file, from 0.
        game: u64,
        /// The move's index in the game, from 0.
        ply: usize,
        /// The move as stored.
        raw: u16,
    },
    /// The game has more than [`MAX_PLIES`] moves.
    #[error("game {}: more than {MAX_PLIES} plies (corrupt file?)", .game + 1)]
    TooLong {
        /// The game's index in the file, from 0.
        game: u64,
    },
}

/// Why a move cannot be added to a [`PackedGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("move {0:?} is not legal in the game's current position")]
pub struct IllegalMoveError(pub Move);

impl PackedGame {
    /// A game starting at `start` with no moves yet.
    pub fn new(start: Position, result: GameResult) -> PackedGame {
        PackedGame { start, result, moves: Vec::new() }
    }

    /// The position after every recorded move.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start;
        for m in &self.moves {
            pos.play_unchecked(m.mv);
        }
        pos
    }

    /// Appends a move played in the current final position.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if the move is not legal there; the game is unchanged.
    pub fn push(&mut self, mv: Move, score: i16) -> Result<(), IllegalMoveError> {
        if !self.final_position().is_legal(mv) {
            return Err(IllegalMoveError(mv));
        }
        self.moves.push(ScoredMove { mv, score });
        Ok(())
    }

    /// Every position of the game with the move played in it, in order.
    pub fn positions(&self) -> impl Iterator<Item = (Position, ScoredMove)> + '_ {
        self.moves.iter().scan(self.start, |pos, &m| {
            let before = *pos;
            pos.play_unchecked(m.mv);
            Some((before, m))
        })
    }

    /// Writes the game in viriformat.
    ///
    /// # Errors
    /// Whatever the writer returns.
    pub fn write_to<W: Write + ?Sized>(&self, out: &mut W) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(PACKED_BOARD_SIZE + 4 * (self.moves.len() + 1));
        bytes.extend_from_slice(&pack_board(&self.start, self.result));
        for m in &self.moves {
            bytes.extend_from_slice(&encode_move(m.mv).to_le_bytes());
            bytes.extend_from_slice(&m.score.to_le_bytes());
        }
        bytes.extend_from_slice(&TERMINATOR);
        out.write_all(&bytes)
    }

    /// The size of the game in viriformat, in bytes.
    pub fn encoded_len(&self) -> usize {
        PACKED_BOARD_SIZE + 4 * (self.moves.len() + 1)
    }
}

/// The 16-bit viriformat form of a move.
pub fn encode_move(m: Move) -> u16 {
    let squares = m.from().index() as u16 | (m.to().index() as u16) << 6;
    let (promotion, kind) = match m.kind() {
        MoveKind::Normal => (0, 0),
        MoveKind::EnPassant => (0, 1),
        MoveKind::Castle => (0, 2),
        MoveKind::Promotion(role) => (role.index() as u16 - 1, 3),
    };
    squares | promotion << 12 | kind << 14
}

/// The move a 16-bit viriformat move stands for, if it is legal in `pos`.
pub fn decode_move(pos: &Position, raw: u16) -> Option<Move> {
    let from = Square::new(u32::from(raw & 63))?;
    let to = Square::new(u32::from((raw >> 6) & 63))?;
    let m = match raw >> 14 {
        0 => Move::normal(from, to),
        1 => Move::en_passant(from, to),
        2 => Move::castle(from, to),
        _ => Move::promotion(from, to, Role::from_index(usize::from((raw >> 12) & 3) + 1)),
    };
    pos.is_legal(m).then_some(m)
}

fn pack_board(pos: &Position, result: GameResult) -> [u8; PACKED_BOARD_SIZE] {
    let mut out = [0u8; PACKED_BOARD_SIZE];
    let occupied = pos.occupied();
    out[0..8].copy_from_slice(&occupied.0.to_le_bytes());
    let castling_rooks = pos.castling_rights().rooks();
    for (i, square) in occupied.into_iter().enumerate() {
        let piece = pos.piece_at(square).expect("an occupied square holds a piece");
        let role = if piece.role == Role::Rook && castling_rooks.contains(square) {
            UNMOVED_ROOK
        } else {
            piece.role.index() as u8
        };
        let code = role | u8::from(piece.color == Color::Black) << 3;
        out[8 + i / 2] |= code << (4 * (i % 2));
    }
    let ep = pos.ep_square().map_or(64, |sq| sq.index() as u8);
    out[24] = u8::from(pos.turn() == Color::Black) << 7 | ep;
    out[25] = pos.halfmove_clock().min(255) as u8;
    out[26..28].copy_from_slice(&(pos.fullmove_number().min(u32::from(u16::MAX)) as u16).to_le_bytes());
    // Bytes 28..30, the start position's score, stay 0: the scores that matter are the moves'.
    out[30] = match result {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWins => 2,
    };
    out
}

fn unpack_board(bytes: &[u8; PACKED_BOARD_SIZE], game: u64) -> Result<(Position, GameResult), ViriError> {
    let bad = |reason: String| ViriError::BadBoard { game, reason };
    let occupied = Bitboard(u64::from_le_bytes(bytes[0..8].try_into().expect("8 bytes")));
    if occupied.count() > 32 {
        return Err(bad(format!("{} occupied squares; at most 32 fit", occupied.count())));
    }
    let mut setup = Setup::empty();
    for (i, square) in occupied.into_iter().enumerate() {
        let code = (bytes[8 + i / 2] >> (4 * (i % 2))) & 0xf;
        let color = if code & 8 == 0 { Color::White } else { Color::Black };
        let role = match code & 7 {
            UNMOVED_ROOK => {
                setup.castling_rooks = setup.castling_rooks.with(square);
                Role::Rook
            }
            7 => return Err(bad(format!("piece code 7 on {square:?}"))),
            r => Role::from_index(usize::from(r)),
        };
        setup.board[square.index()] = Some(Piece::new(color, role));
    }
    setup.turn = if bytes[24] & 0x80 == 0 { Color::White } else { Color::Black };
    setup.ep_square = match bytes[24] & 0x7f {
        64 => None,
        sq => Some(Square::new(u32::from(sq)).ok_or_else(|| bad(format!("en passant square {sq}")))?),
    };
    setup.halfmove_clock = u32::from(bytes[25]);
    // Writers may leave the fullmove number at zero; a position needs at least 1.
    setup.fullmove_number = u32::from(u16::from_le_bytes([bytes[26], bytes[27]])).max(1);
    let result = match bytes[30] {
        0 => GameResult::BlackWins,
        1 => GameResult::Draw,
        2 => GameResult::WhiteWins,
        value => return Err(ViriError::BadResult { game, value }),
    };
    // The format does not say whether castling is Chess960; the rules are the same, and a
    // standard setup reads as standard chess.
    let pos = Position::from_setup(setup.clone(), CastlingMode::Standard)
        .or_else(|_| Position::from_setup(setup, CastlingMode::Chess960))
        .or_else(PositionError::ignore_impossible_check)
        .map_err(|source| ViriError::IllegalBoard { game, source })?;
    Ok((pos, result))
}

/// Reads the games of a viriformat stream one at a time, checking every move's legality.
///
/// A game with an illegal move or position is reported as an error and reading goes on with
/// the next game (the framing does not depend on the contents); a truncated game or an I/O
/// error ends the stream after its error.
pub struct ViriReader<R: Read> {
    input: BufReader<R>,
    game: u64,
    done: bool,
}

impl<R: Read> ViriReader<R> {
    /// A reader over `input` (buffered internally).
    pub fn new(input: R) -> ViriReader<R> {
        ViriReader { input: BufReader::with_capacity(1 << 16, input), game: 0, done: false }
    }

    /// Fills `buf` completely; `Ok(false)` if the input ended before the first byte.
    fn read_full(&mut self, buf: &mut [u8]) -> Result<bool, ViriError> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.input.read(&mut buf[filled..]) {
                Ok(0) if filled == 0 => return Ok(false),
                Ok(0) => return Err(ViriError::Truncated { game: self.game }),
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(true)
    }

    fn next_game(&mut self) -> Result<Option<PackedGame>, ViriError> {
        let mut board = [0u8; PACKED_BOARD_SIZE];
        if !self.read_full(&mut board)? {
            return Ok(None);
        }
        // Read the whole record before judging it, so that a bad game leaves the stream at
        // the next one.
        let mut raw_moves = Vec::new();
        loop {
            let mut record = [0u8; 4];
            if !self.read_full(&mut record)? {
                return Err(ViriError::Truncated { game: self.game });
            }
            if record == TERMINATOR {
                break;
            }
            if raw_moves.len() == MAX_PLIES {
                return Err(ViriError::TooLong { game: self.game });
            }
            raw_moves.push((u16::from_le_bytes([record[0], record[1]]), i16::from_le_bytes([record[2], record[3]])));
        }
        let (start, result) = unpack_board(&board, self.game)?;
        let mut game = PackedGame::new(start, result);
        game.moves.reserve(raw_moves.len());
        let mut pos = start;
        for (ply, (raw, score)) in raw_moves.into_iter().enumerate() {
            let mv = decode_move(&pos, raw).ok_or(ViriError::IllegalMove { game: self.game, ply, raw })?;
            pos.play_unchecked(mv);
            game.moves.push(ScoredMove { mv, score });
        }
        Ok(Some(game))
    }
}

impl<R: Read> Iterator for ViriReader<R> {
    type Item = Result<PackedGame, ViriError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = self.next_game();
        self.game += 1;
        match item {
            Ok(Some(game)) => Some(Ok(game)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                if matches!(e, ViriError::Io(_) | ViriError::Truncated { .. } | ViriError::TooLong { .. }) {
                    self.done = true;
                }
                Some(Err(e))
            }
        }
    }
}

/// How far reading has got (the input itself is not shown, so that any `R` will do).
impl<R: Read> std::fmt::Debug for ViriReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ViriReader").field("games_read", &self.game).field("done", &self.done).finish_non_exhaustive()
    }
}

impl<R: Read> ViriReader<R> {
    /// The underlying buffered input, e.g. to ask how far reading has got.
    pub fn get_ref(&self) -> &BufReader<R> {
        &self.input
    }
}

/// Which positions of a game a trainer learns from: the usual filter of NNUE data
/// generation. Positions that fail it still belong to the game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainingFilter {
    /// Skip positions before this ply of the whole game (as counted by the fullmove number).
    pub min_ply: u32,
    /// Skip positions whose side to move is in check: their score is about the escape.
    pub skip_check: bool,
    /// Skip positions whose best move is a capture or a promotion: the score depends on the
    /// exchange in progress, which a static evaluation cannot see.
    pub skip_tactical: bool,
    /// Skip scores of at least this magnitude (mate scores by default).
    pub max_score: i16,
}

impl Default for TrainingFilter {
    fn default() -> TrainingFilter {
        TrainingFilter { min_ply: 0, skip_check: true, skip_tactical: true, max_score: MATE_SCORE_BOUND }
    }
}

impl TrainingFilter {
    /// A filter that keeps every position.
    pub const NONE: TrainingFilter =
        TrainingFilter { min_ply: 0, skip_check: false, skip_tactical: false, max_score: i16::MAX };

    /// `true` if a trainer should learn from `pos`, in which `played` was played.
    pub fn accepts(&self, pos: &Position, played: ScoredMove) -> bool {
        pos.ply() >= self.min_ply
            && !(self.skip_check && pos.is_check())
            && !(self.skip_tactical && (pos.is_capture(played.mv) || played.mv.is_promotion()))
            && played.score.unsigned_abs() < self.max_score.unsigned_abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_uci_move;

    fn game_from(fen: &str, moves: &[&str], result: GameResult) -> PackedGame {
        let start = Position::from_fen(fen, CastlingMode::Standard)
            .or_else(|_| Position::from_fen(fen, CastlingMode::Chess960))
            .unwrap();
        let mut game = PackedGame::new(start, result);
        for (i, m) in moves.iter().enumerate() {
            let mv = parse_uci_move(&game.final_position(), m).unwrap();
            game.push(mv, i as i16 * 7 - 20).unwrap();
        }
        game
    }

    fn round_trip(game: &PackedGame) -> PackedGame {
        let mut bytes = Vec::new();
        game.write_to(&mut bytes).unwrap();
        assert_eq!(bytes.len(), game.encoded_len());
        let mut games = ViriReader::new(&bytes[..]);
        let read = games.next().unwrap().unwrap();
        assert!(games.next().is_none());
        read
    }

    #[test]
    fn the_specifications_example_bytes() {
        // The example game of the viriformat specification: 1. e4 e5 2. Qh5 Ke7 3. Qxe5#. The
        // specification's hex dump shows each piece byte with its two nibbles swapped; the
        // bytes below are what Viridithas's writer produces (entry 0 in the low nibble).
        let start = Position::startpos();
        let mut game = PackedGame::new(start, GameResult::WhiteWins);
        for (m, score) in [("e2e4", 10), ("e7e5", 20), ("d1h5", -30), ("e8e7", 32767), ("h5e5", 32767)] {
            let mv = parse_uci_move(&game.final_position(), m).unwrap();
            game.push(mv, score).unwrap();
        }
        let mut bytes = Vec::new();
        game.write_to(&mut bytes).unwrap();
        let expected: [u8; 56] = [
            0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, // occupancy
            0x16, 0x42, 0x25, 0x61, 0x00, 0x00, 0x00, 0x00, 0x88, 0x88, 0x88, 0x88, 0x9e, 0xca, 0xad, 0xe9, 0x40, 0x00,
            0x01, 0x00, 0x00, 0x00, 0x02, 0x00, // stm/ep, clocks, score, result, extra
            0x0c, 0x07, 0x0a, 0x00, 0x34, 0x09, 0x14, 0x00, 0xc3, 0x09, 0xe2, 0xff, 0x3c, 0x0d, 0xff, 0x7f, 0x27, 0x09,
            0xff, 0x7f, 0x00, 0x00, 0x00, 0x00,
        ];
        assert_eq!(bytes, expected);
        assert_eq!(round_trip(&game), game);
    }

    #[test]
    fn special_moves_and_positions_round_trip() {
        // Castling both ways, en passant, promotions with and without capture, Black to move.
        let games = [
            game_from(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                &["e1g1", "e8c8", "a2a4", "b4a3"],
                GameResult::Draw,
            ),
            game_from("8/1P4k1/8/8/8/8/6Kp/8 w - - 0 60", &["b7b8q", "h2h1n"], GameResult::BlackWins),
            game_from("1r5k/P7/8/8/8/8/8/K7 w - - 3 70", &["a7b8r"], GameResult::WhiteWins),
            game_from("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", &["d4e3"], GameResult::Draw),
        ];
        for game in &games {
            assert_eq!(&round_trip(game), game);
        }
    }

    #[test]
    fn chess960_castling_rights_and_moves_round_trip() {
        let game = game_from(
            "qrbkrnnb/pppppppp/8/8/8/8/PPPPPPPP/QRBKRNNB w EBeb - 0 1",
            &["f1e3", "f8e6", "g1f3", "g8f6", "d1e1"],
            GameResult::Draw,
        );
        let read = round_trip(&game);
        assert_eq!(read.start.castling_rights(), game.start.castling_rights());
        assert_eq!(read.start.castling_mode(), CastlingMode::Chess960);
        assert_eq!(read.final_position(), game.final_position());
    }

    #[test]
    fn a_bad_game_is_reported_and_the_next_one_read() {
        let good = game_from(tempo_core::fen::STARTING_FEN, &["e2e4", "e7e5"], GameResult::Draw);
        let mut bytes = Vec::new();
        good.write_to(&mut bytes).unwrap();
        let mut bad = bytes.clone();
        // The first move, e2e4 (0x070c), becomes f2e8 (0x0f0d).
        bad[32] = 0x0d;
        bad[33] = 0x0f;
        let mut stream = bad.clone();
        stream.extend_from_slice(&bytes);
        let results: Vec<_> = ViriReader::new(&stream[..]).collect();
        assert_eq!(results.len(), 2);
        assert!(matches!(results[0], Err(ViriError::IllegalMove { game: 0, ply: 0, .. })), "{:?}", results[0]);
        assert_eq!(results[1].as_ref().unwrap(), &good);
    }

    #[test]
    fn truncation_and_bad_fields_are_typed_errors() {
        let good = game_from(tempo_core::fen::STARTING_FEN, &["e2e4"], GameResult::Draw);
        let mut bytes = Vec::new();
        good.write_to(&mut bytes).unwrap();
        for cut in 1..bytes.len() {
            let results: Vec<_> = ViriReader::new(&bytes[..cut]).collect();
            assert!(matches!(results.as_slice(), [Err(ViriError::Truncated { game: 0 })]), "cut {cut}: {results:?}");
        }
        let mut bad_result = bytes.clone();
        bad_result[30] = 3;
        assert!(matches!(ViriReader::new(&bad_result[..]).next(), Some(Err(ViriError::BadResult { value: 3, .. }))));
        let mut no_king = bytes.clone();
        no_king[10] &= 0xf0; // e1: the king becomes a pawn
        assert!(matches!(ViriReader::new(&no_king[..]).next(), Some(Err(ViriError::IllegalBoard { .. }))));
        let mut code7 = bytes;
        code7[8] |= 0x07;
        assert!(matches!(ViriReader::new(&code7[..]).next(), Some(Err(ViriError::BadBoard { .. }))));
    }

    #[test]
    fn the_training_filter_skips_checks_captures_promotions_and_mates() {
        let filter = TrainingFilter::default();
        let pos: Position = "4k3/8/8/3p4/4P3/8/8/4K2R w K - 0 30".parse().unwrap();
        let quiet = ScoredMove { mv: parse_uci_move(&pos, "e4e5").unwrap(), score: 40 };
        let capture = ScoredMove { mv: parse_uci_move(&pos, "e4d5").unwrap(), score: 40 };
        assert!(filter.accepts(&pos, quiet));
        assert!(!filter.accepts(&pos, capture));
        assert!(!filter.accepts(&pos, ScoredMove { score: mate_score(3), ..quiet }));
        assert!(!filter.accepts(&pos, ScoredMove { score: -mate_score(8), ..quiet }));
        assert!(TrainingFilter::NONE.accepts(&pos, capture));
        let check: Position = "4k3/8/8/8/8/8/8/4K2r w - - 0 30".parse().unwrap();
        let escape = ScoredMove { mv: parse_uci_move(&check, "e1e2").unwrap(), score: -300 };
        assert!(!filter.accepts(&check, escape));
        let promotion: Position = "4k3/P7/8/8/8/8/8/4K3 w - - 0 30".parse().unwrap();
        let queen = ScoredMove { mv: parse_uci_move(&promotion, "a7a8q").unwrap(), score: 900 };
        assert!(!filter.accepts(&promotion, queen));
        let early = TrainingFilter { min_ply: 20, ..filter };
        assert!(!early.accepts(
            &Position::startpos(),
            ScoredMove { mv: parse_uci_move(&Position::startpos(), "e2e4").unwrap(), score: 0 }
        ));
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..400)) {
            for game in ViriReader::new(&bytes[..]).take(50).flatten() {
                let _ = game.final_position();
            }
        }

        #[test]
        fn random_games_round_trip(seed in proptest::num::u64::ANY, plies in 0usize..120) {
            let mut game = PackedGame::new(Position::startpos(), GameResult::Draw);
            let mut state = seed;
            let mut pos = game.start;
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let mv = moves.as_slice()[(state >> 33) as usize % moves.len()];
                game.moves.push(ScoredMove { mv, score: (state >> 48) as i16 });
                pos.play_unchecked(mv);
            }
            proptest::prop_assert_eq!(round_trip(&game), game);
        }
    }

    #[test]
    fn pushing_an_illegal_move_changes_nothing() {
        let mut game = PackedGame::new(Position::startpos(), GameResult::Draw);
        let e5 = Move::normal(Square::E1, Square::new(36).unwrap());
        assert_eq!(game.push(e5, 0), Err(IllegalMoveError(e5)));
        assert!(game.moves.is_empty());
    }
}
