//! Input features: which feature a piece on a square activates in each perspective, and
//! which pieces a move lifts and puts down.

use super::network::Network;
use tempo_core::{Color, Move, MoveKind, Piece, Position, Role, Square};

/// How one perspective sees the board: from its own side (Black's view flips the ranks)
/// and, in a network with mirrored inputs, with the files flipped while that side's king
/// stands on files e to h, so that its king is always on files a to d.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct View {
    perspective: Color,
    /// XORed into a square's index: 56 flips the ranks, 7 the files.
    flip: usize,
}

impl View {
    /// `perspective`'s view of `pos` for `network`.
    #[inline]
    pub(crate) fn of(network: &Network, pos: &Position, perspective: Color) -> View {
        let mirrored = network.mirrors_inputs() && king_side(pos.king_of(perspective));
        View::new(perspective, mirrored)
    }

    /// `perspective`'s view, with the files flipped if `mirrored`.
    #[inline]
    pub(crate) fn new(perspective: Color, mirrored: bool) -> View {
        let ranks = if perspective == Color::White { 0 } else { 56 };
        View { perspective, flip: ranks ^ if mirrored { 7 } else { 0 } }
    }

    /// The feature `piece` on `square` activates: own pieces first, then the opponent's,
    /// each by role, on the square as this view sees it.
    #[inline]
    pub(crate) fn index(self, piece: Piece, square: Square) -> usize {
        let side = if piece.color == self.perspective { 0 } else { 6 };
        (side + piece.role.index()) * 64 + (square.index() ^ self.flip)
    }
}

/// Whether a king on `square` makes its side's view of a mirrored network flip the files
/// (files e to h).
#[inline]
pub(crate) fn king_side(square: Square) -> bool {
    square.index() & 7 >= 4
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

    /// Where the king went, if the move is a king's (castling included): `(from, to)`.
    /// The mover is always the first piece removed and the first put down.
    #[inline]
    pub(crate) fn king_move(&self) -> Option<(Square, Square)> {
        let ((piece, from), (_, to)) = (self.removed[0], self.added[0]);
        (self.removed_len > 0 && piece.role == Role::King).then_some((from, to))
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
        let feature_index = |perspective, piece, square| View::new(perspective, false).index(piece, square);
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

    #[test]
    fn a_mirrored_view_flips_the_files_too() {
        let white_pawn = Piece::new(Color::White, Role::Pawn);
        let e2 = Square::new(12).unwrap();
        // e2 is d2 mirrored; for Black also rank 7.
        assert_eq!(View::new(Color::White, true).index(white_pawn, e2), 11);
        assert_eq!(View::new(Color::Black, true).index(white_pawn, e2), 6 * 64 + 51);
        assert!(king_side(Square::E8) && king_side(Square::H1));
        assert!(!king_side(Square::D1) && !king_side(Square::A8));
    }

    #[test]
    fn the_king_move_of_a_delta_follows_the_king() {
        let pos: Position = "r3k2r/8/8/8/8/8/4P3/R3K2R w KQkq - 0 1".parse().unwrap();
        for &m in &pos.legal_moves() {
            let delta = Delta::of_move(&pos, m);
            let mut child = pos;
            child.play_unchecked(m);
            if pos.role_at(m.from()) == Some(Role::King) {
                assert_eq!(delta.king_move(), Some((m.from(), child.king_of(Color::White))), "{m:?}");
            } else {
                assert_eq!(delta.king_move(), None, "{m:?}");
            }
        }
    }
}
