//! Move-ordering statistics learnt during search: butterfly history (side, whether the
//! opponent attacks the origin and the destination, from, to),
//! continuation history (previous piece and square, this piece and square), capture history
//! and countermoves. All use the "gravity" update, which keeps every entry within
//! `±HISTORY_MAX` and lets recent results outweigh old ones.

use crate::parameters as param;
use tempo_core::{Bitboard, Color, Move, Piece, Position, Role, Square};

/// Largest magnitude of any history entry.
pub const HISTORY_MAX: i32 = 16_384;

/// Index of a piece (0..12) for history tables.
#[inline]
pub fn piece_index(piece: Piece) -> usize {
    piece.color.index() * 6 + piece.role.index()
}

/// The continuation-history context of a move: moved piece and destination square. Index
/// `NO_CONTEXT` stands for "no move" (root, null move) and has its own dummy table.
#[inline]
pub fn move_context(pos: &Position, m: Move) -> usize {
    let piece = pos.piece_at(m.from()).unwrap_or(Piece::new(pos.turn(), Role::Pawn));
    piece_index(piece) * 64 + m.castling_king_to().index()
}

/// The context of "no previous move".
pub const NO_CONTEXT: usize = 12 * 64;
const CONTEXTS: usize = 13 * 64;

/// The history bonus of the move that cut off at `depth`.
#[inline]
pub fn stat_bonus(depth: i32) -> i32 {
    (param::history_bonus_quadratic() * depth * depth + param::history_bonus_linear() * depth
        - param::history_bonus_offset())
    .clamp(0, param::history_bonus_max())
}

/// The history malus of the moves tried before the one that cut off at `depth`.
#[inline]
pub fn stat_malus(depth: i32) -> i32 {
    (param::history_malus_quadratic() * depth * depth + param::history_malus_linear() * depth
        - param::history_malus_offset())
    .clamp(0, param::history_malus_max())
}

#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = i32::from(*entry);
    *entry = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
}

/// All history tables of one search thread.
pub struct History {
    butterfly: Vec<i16>,
    continuation: Vec<i16>,
    capture: Vec<i16>,
    countermoves: Vec<Option<Move>>,
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

impl History {
    /// Empty tables.
    pub fn new() -> History {
        History {
            butterfly: vec![0; 2 * 4 * 64 * 64],
            continuation: vec![0; CONTEXTS * 12 * 64],
            capture: vec![0; 12 * 64 * 6],
            countermoves: vec![None; CONTEXTS],
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
        self.countermoves.fill(None);
    }

    /// The butterfly entry of `m` for `color`. The same move is a different move when it
    /// takes a piece out of an attack or puts it into one, so each of the four cases of
    /// `threatened` (the squares the opponent attacks) at its origin and destination has its
    /// own entry.
    #[inline]
    fn butterfly_index(color: Color, m: Move, threatened: Bitboard) -> usize {
        let case = 2 * usize::from(threatened.contains(m.from())) + usize::from(threatened.contains(m.to()));
        (color.index() * 4 + case) * 4096 + m.from().index() * 64 + m.to().index()
    }

    /// Butterfly history of a quiet move; `threatened` is every square the opponent attacks.
    #[inline]
    pub fn butterfly(&self, color: Color, m: Move, threatened: Bitboard) -> i32 {
        i32::from(self.butterfly[Self::butterfly_index(color, m, threatened)])
    }

    /// Continuation history of the move with context `this` after a move with context `prev`.
    #[inline]
    pub fn continuation(&self, prev: usize, this: usize) -> i32 {
        i32::from(self.continuation[prev * 768 + this])
    }

    /// Capture history of `piece` capturing `captured` on `to`.
    #[inline]
    pub fn capture(&self, piece: usize, to: Square, captured: Role) -> i32 {
        i32::from(self.capture[(piece * 64 + to.index()) * 6 + captured.index()])
    }

    /// The remembered reply to the move with context `prev`.
    #[inline]
    pub fn countermove(&self, prev: usize) -> Option<Move> {
        self.countermoves[prev]
    }

    /// Rewards (positive bonus) or punishes a quiet move in every table that scores it;
    /// `threatened` is every square the opponent attacks.
    #[inline]
    pub fn update_quiet(
        &mut self,
        color: Color,
        m: Move,
        threatened: Bitboard,
        this: usize,
        prevs: &[usize],
        bonus: i32,
    ) {
        gravity(&mut self.butterfly[Self::butterfly_index(color, m, threatened)], bonus);
        for &prev in prevs {
            if prev != NO_CONTEXT {
                gravity(&mut self.continuation[prev * 768 + this], bonus);
            }
        }
    }

    /// Rewards or punishes a capture.
    #[inline]
    pub fn update_capture(&mut self, piece: usize, to: Square, captured: Role, bonus: i32) {
        gravity(&mut self.capture[(piece * 64 + to.index()) * 6 + captured.index()], bonus);
    }

    /// Remembers `m` as the refutation of the move with context `prev`.
    #[inline]
    pub fn set_countermove(&mut self, prev: usize, m: Move) {
        if prev != NO_CONTEXT {
            self.countermoves[prev] = Some(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiet_move_learns_apart_by_the_threats_at_its_squares() {
        let mut history = History::new();
        let m = Move::normal(Square::E4, Square::E5);
        let attacked_from = Bitboard::from_square(Square::E4);
        let attacked_to = Bitboard::from_square(Square::E5);
        history.update_quiet(Color::White, m, attacked_from, NO_CONTEXT, &[], 1000);
        assert!(history.butterfly(Color::White, m, attacked_from) > 0);
        for other in [Bitboard::EMPTY, attacked_to, attacked_from | attacked_to] {
            assert_eq!(history.butterfly(Color::White, m, other), 0, "{other:?}");
        }
        assert_eq!(history.butterfly(Color::Black, m, attacked_from), 0);
    }

    #[test]
    fn gravity_stays_bounded() {
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, 1600);
        }
        assert!(i32::from(e) <= HISTORY_MAX);
        for _ in 0..1000 {
            gravity(&mut e, -1600);
        }
        assert!(i32::from(e) >= -HISTORY_MAX);
    }
}
