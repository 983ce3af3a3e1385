//! Input features: which feature a piece on a square activates in each perspective, and
//! which pieces a move lifts and puts down.

use tempo_core::{Color, Move, MoveKind, Piece, Position, Role, Square};

/// The feature `piece` on `square` activates in `perspective`'s accumulator: own pieces
/// first, then the opponent's, each by role, and the board seen from `perspective`'s side
/// (Black's view flips the ranks).
#[inline]
pub(crate) fn feature_index(perspective: Color, piece: Piece, square: Square) -> usize {
    let side = if piece.color == perspective { 0 } else { 6 };
    let square = match perspective {
        Color::White => square.index(),
        Color::Black => square.index() ^ 56,
    };
    (side + piece.role.index()) * 64 + square
}

/// A piece on a square: one feature in each perspective.
pub(crate) type Placement = (Piece, Square);

/// The pieces a move removes from squares and puts on squares: at most two of each
/// (castling moves king and rook; a capture removes the mover and the captured piece, and
/// puts the mover down). An empty delta is a null move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Delta {
    removed: [Placement; 2],
    added: [Placement; 2],
    removed_len: u8,
    added_len: u8,
}

impl Default for Delta {
    fn default() -> Delta {
        let unused = (Piece::new(Color::White, Role::Pawn), Square::A1);
        Delta { removed: [unused; 2], added: [unused; 2], removed_len: 0, added_len: 0 }
    }
}

impl Delta {
    /// The changes of legal move `m` in `pos` (the position before the move).
    ///
    /// # Panics
    /// If `m`'s from-square is empty (`m` is not a legal move of `pos`).
    #[inline]
    pub(crate) fn of_move(pos: &Position, m: Move) -> Delta {
        let us = pos.turn();
        let from = m.from();
        let to = m.to();
        let moved = Piece::new(us, pos.role_at(from).expect("a legal move starts on a piece"));
        let mut delta = Delta::default();
        match m.kind() {
            MoveKind::Normal | MoveKind::Promotion(_) => {
                delta.remove(moved, from);
                if let Some(captured) = pos.piece_at(to) {
                    delta.remove(captured, to);
                }
                let role = m.promotion_role().unwrap_or(moved.role);
                delta.add(Piece::new(us, role), to);
            }
            MoveKind::EnPassant => {
                // The captured pawn stands beside `from`, on `to`'s file.
                delta.remove(moved, from);
                delta.remove(Piece::new(!us, Role::Pawn), Square::from_coords(to.file(), from.rank()));
                delta.add(moved, to);
            }
            MoveKind::Castle => {
                // "King takes own rook": `to` is the rook's square, in Chess960 as well.
                let rook = Piece::new(us, Role::Rook);
                delta.remove(moved, from);
                delta.remove(rook, to);
                delta.add(moved, m.castling_king_to());
                delta.add(rook, m.castling_rook_to());
            }
        }
        delta
    }

    #[inline]
    fn remove(&mut self, piece: Piece, square: Square) {
        self.removed[usize::from(self.removed_len)] = (piece, square);
        self.removed_len += 1;
    }

    #[inline]
    fn add(&mut self, piece: Piece, square: Square) {
        self.added[usize::from(self.added_len)] = (piece, square);
        self.added_len += 1;
    }

    /// The pieces removed.
    #[inline]
    pub(crate) fn removed(&self) -> &[Placement] {
        &self.removed[..usize::from(self.removed_len)]
    }

    /// The pieces put down.
    #[inline]
    pub(crate) fn added(&self) -> &[Placement] {
        &self.added[..usize::from(self.added_len)]
    }
}

/// Every piece of `pos` with its square.
pub(crate) fn placements(pos: &Position) -> impl Iterator<Item = Placement> + '_ {
    [Color::White, Color::Black].into_iter().flat_map(move |color| {
        Role::ALL.into_iter().flat_map(move |role| pos.pieces(color, role).map(move |sq| (Piece::new(color, role), sq)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_the_contract() {
        let white_pawn = Piece::new(Color::White, Role::Pawn);
        let black_king = Piece::new(Color::Black, Role::King);
        let e2 = Square::new(12).unwrap();
        let e8 = Square::E8;
        // Own pawn on e2 from White's view; the same pawn is the opponent's, on e7, for Black.
        assert_eq!(feature_index(Color::White, white_pawn, e2), 12);
        assert_eq!(feature_index(Color::Black, white_pawn, e2), 6 * 64 + 52);
        // Black's king on e8: own king on e1 for Black, opponent's king on e8 for White.
        assert_eq!(feature_index(Color::Black, black_king, e8), 5 * 64 + 4);
        assert_eq!(feature_index(Color::White, black_king, e8), 11 * 64 + 60);
        // Every (perspective, piece, square) has its own index below 768 in each perspective.
        for perspective in [Color::White, Color::Black] {
            let mut seen = vec![false; 768];
            for color in [Color::White, Color::Black] {
                for role in Role::ALL {
                    for sq in Square::all() {
                        let i = feature_index(perspective, Piece::new(color, role), sq);
                        assert!(!seen[i]);
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
}
