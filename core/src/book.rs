//! Polyglot opening books: the standard format of 16-byte big-endian entries
//! (key u64, move u16, weight u16, learn u32) sorted by key. Position keys are Polyglot keys
//! already (see `zobrist`), so probing is a binary search.
//!
//! Pure: the caller reads and writes the bytes, and supplies the randomness for
//! [`Book::pick`].

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Role, Square};
use std::collections::HashMap;

/// Size of one book entry in bytes.
pub const BOOK_ENTRY_SIZE: usize = 16;

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BookEntry {
    /// Polyglot key of the position.
    pub key: u64,
    /// The move in Polyglot encoding (see [`encode_book_move`]).
    pub raw_move: u16,
    /// Relative weight of the move among the position's entries.
    pub weight: u16,
    /// Learning data (unused by Tempo, preserved).
    pub learn: u32,
}

/// Bytes that are not a Polyglot book.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// The data's length in bytes (carried) is not a multiple of the 16-byte entry size.
    #[error("book size {0} is not a multiple of 16 bytes")]
    Length(usize),
}

/// Polyglot move encoding: to-file (bits 0-2), to-row (3-5), from-file (6-8), from-row
/// (9-11), promotion (12-14: knight 1, bishop 2, rook 3, queen 4). Castling is "king takes
/// rook" (`e1h1`), which is how [`Move`] encodes it too.
pub fn encode_book_move(m: Move) -> u16 {
    let promotion = match m.promotion_role() {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    m.to().index() as u16 | (m.from().index() as u16) << 6 | promotion << 12
}

/// The legal move of `pos` that `raw` encodes, if any.
pub fn decode_book_move(pos: &Position, raw: u16) -> Option<Move> {
    let to = Square::new(u32::from(raw & 63))?;
    let from = Square::new(u32::from((raw >> 6) & 63))?;
    let promotion = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    pos.legal_moves().iter().copied().find(|m| m.from() == from && m.to() == to && m.promotion_role() == promotion)
}

/// An opening book in memory, entries sorted by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<BookEntry>,
}

impl Book {
    /// Reads a book from its bytes (entries are sorted if they are not already).
    ///
    /// # Errors
    /// [`BookError::Length`] if the size is not a multiple of 16 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() % BOOK_ENTRY_SIZE != 0 {
            return Err(BookError::Length(bytes.len()));
        }
        let mut entries: Vec<BookEntry> = bytes
            .chunks_exact(BOOK_ENTRY_SIZE)
            .map(|c| BookEntry {
                key: u64::from_be_bytes(c[0..8].try_into().expect("8 bytes")),
                raw_move: u16::from_be_bytes([c[8], c[9]]),
                weight: u16::from_be_bytes([c[10], c[11]]),
                learn: u32::from_be_bytes(c[12..16].try_into().expect("4 bytes")),
            })
            .collect();
        if !entries.is_sorted_by_key(|e| e.key) {
            entries.sort_by_key(|e| e.key);
        }
        Ok(Book { entries })
    }

    /// A book from entries in any order.
    pub fn from_entries(mut entries: Vec<BookEntry>) -> Book {
        // Within a key, heaviest first (the order Polyglot writes).
        entries.sort_by(|a, b| a.key.cmp(&b.key).then(b.weight.cmp(&a.weight)).then(a.raw_move.cmp(&b.raw_move)));
        Book { entries }
    }

    /// The book in its file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() * BOOK_ENTRY_SIZE);
        for e in &self.entries {
            out.extend_from_slice(&e.key.to_be_bytes());
            out.extend_from_slice(&e.raw_move.to_be_bytes());
            out.extend_from_slice(&e.weight.to_be_bytes());
            out.extend_from_slice(&e.learn.to_be_bytes());
        }
        out
    }

    /// Every entry, sorted by key.
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` if the book has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries of the position with `key`.
    pub fn entries_for(&self, key: u64) -> &[BookEntry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The book's legal moves in `pos` with their weights, heaviest first. Entries whose
    /// move is not legal (a key collision or a broken book) are skipped.
    pub fn probe(&self, pos: &Position) -> Vec<(Move, u16)> {
        let mut moves: Vec<(Move, u16)> = self
            .entries_for(pos.key())
            .iter()
            .filter_map(|e| decode_book_move(pos, e.raw_move).map(|m| (m, e.weight)))
            .collect();
        moves.sort_by_key(|&(_, weight)| std::cmp::Reverse(weight));
        moves
    }

    /// A book move chosen with probability proportional to its weight; `random` is any
    /// uniformly distributed number from the caller. `None` when the book has no move here
    /// (or only zero weights).
    pub fn pick(&self, pos: &Position, random: u64) -> Option<Move> {
        let moves = self.probe(pos);
        let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let mut target = random % total;
        for (m, w) in moves {
            if target < u64::from(w) {
                return Some(m);
            }
            target -= u64::from(w);
        }
        None
    }
}

/// Accumulates move statistics (for example from PGN games) into a [`Book`].
#[derive(Clone, Debug, Default)]
pub struct BookBuilder {
    scores: HashMap<(u64, u16), u64>,
}

impl BookBuilder {
    /// An empty builder.
    pub fn new() -> BookBuilder {
        BookBuilder::default()
    }

    /// Records that `m` was played in `pos`, scoring `points` (Polyglot's convention: 2 for a
    /// win of the side that played it, 1 for a draw, 0 for a loss).
    pub fn add(&mut self, pos: &Position, m: Move, points: u64) {
        *self.scores.entry((pos.key(), encode_book_move(m))).or_default() += points;
    }

    /// Number of distinct (position, move) pairs recorded.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// `true` if nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// The book: moves with a score of at least `min_score`, weights scaled down uniformly if
    /// any exceeds the 16-bit range.
    pub fn build(&self, min_score: u64) -> Book {
        let max = self.scores.values().copied().max().unwrap_or(0);
        let scale = if max > u64::from(u16::MAX) { max.div_ceil(u64::from(u16::MAX)) } else { 1 };
        let entries = self
            .scores
            .iter()
            .filter(|&(_, &score)| score >= min_score.max(1))
            .map(|(&(key, raw_move), &score)| BookEntry {
                key,
                raw_move,
                weight: (score / scale).max(1) as u16,
                learn: 0,
            })
            .collect();
        Book::from_entries(entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingMode;
    use crate::Square;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn move_encoding_matches_polyglot() {
        // e2e4: from e2 (file 4, row 1), to e4 (file 4, row 3).
        let e4 = Move::normal(sq("e2"), sq("e4"));
        assert_eq!(encode_book_move(e4), 4 | 3 << 3 | 4 << 6 | 1 << 9);
        assert_eq!(decode_book_move(&Position::startpos(), encode_book_move(e4)), Some(e4));
        let castle = Move::castle(Square::E1, Square::H1);
        let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastlingMode::Standard).unwrap();
        assert_eq!(decode_book_move(&pos, encode_book_move(castle)), Some(castle));
        let promo = Move::promotion(sq("a7"), sq("a8"), Role::Knight);
        assert_eq!(encode_book_move(promo) >> 12, 1);
        assert_eq!(decode_book_move(&Position::startpos(), 0x7fff), None);
    }

    #[test]
    fn build_write_read_probe() {
        let start = Position::startpos();
        let e4 = Move::normal(sq("e2"), sq("e4"));
        let d4 = Move::normal(sq("d2"), sq("d4"));
        let mut builder = BookBuilder::new();
        builder.add(&start, e4, 2);
        builder.add(&start, e4, 1);
        builder.add(&start, d4, 1);
        builder.add(&start, Move::normal(sq("a2"), sq("a3")), 0);
        let book = builder.build(1);
        assert_eq!(book.len(), 2);
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), 32);
        assert_eq!(&bytes[0..8], &0x463b_9618_1691_fc9cu64.to_be_bytes());
        let read = Book::from_bytes(&bytes).unwrap();
        assert_eq!(read, book);
        assert_eq!(read.probe(&start), vec![(e4, 3), (d4, 1)]);
        assert_eq!(read.pick(&start, 0), Some(e4));
        assert_eq!(read.pick(&start, 3), Some(d4));
        let mut after = start;
        after.play(e4).unwrap();
        assert_eq!(read.probe(&after), vec![]);
        assert_eq!(read.pick(&after, 7), None);
        assert_eq!(Book::from_bytes(&bytes[..20]), Err(BookError::Length(20)));
    }

    #[test]
    fn weights_are_scaled_into_16_bits() {
        let start = Position::startpos();
        let mut builder = BookBuilder::new();
        builder.add(&start, Move::normal(sq("e2"), sq("e4")), 200_000);
        builder.add(&start, Move::normal(sq("d2"), sq("d4")), 100_000);
        let book = builder.build(1);
        let weights: Vec<u16> = book.probe(&start).iter().map(|&(_, w)| w).collect();
        // Scaled by ceil(200000 / 65535) = 4, keeping the 2:1 ratio.
        assert_eq!(weights, vec![50_000, 25_000]);
    }
}
