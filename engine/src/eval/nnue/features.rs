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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Delta {
    removed: [Option<Placement>; 2],
    added: [Option<Placement>; 2],
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
        match m.kind() {
            MoveKind::Normal => Delta {
                removed: [Some((moved, from)), pos.piece_at(to).map(|captured| (captured, to))],
                added: [Some((moved, to)), None],
            },
            MoveKind::Promotion(role) => Delta {
                removed: [Some((moved, from)), pos.piece_at(to).map(|captured| (captured, to))],
                added: [Some((Piece::new(us, role), to)), None],
            },
            MoveKind::EnPassant => {
                // The captured pawn stands beside `from`, on `to`'s file.
                let captured = Square::from_coords(to.file(), from.rank());
                Delta {
                    removed: [Some((moved, from)), Some((Piece::new(!us, Role::Pawn), captured))],
                    added: [Some((moved, to)), None],
                }
            }
            MoveKind::Castle => {
                // "King takes own rook": `to` is the rook's square, in Chess960 as well.
                let rook = Piece::new(us, Role::Rook);
                Delta {
                    removed: [Some((moved, from)), Some((rook, to))],
                    added: [Some((moved, m.castling_king_to())), Some((rook, m.castling_rook_to()))],
                }
            }
        }
    }

    /// The pieces removed.
    #[inline]
    pub(crate) fn removed(&self) -> impl Iterator<Item = Placement> + '_ {
        self.removed.iter().flatten().copied()
    }

    /// The pieces put down.
    #[inline]
    pub(crate) fn added(&self) -> impl Iterator<Item = Placement> + '_ {
        self.added.iter().flatten().copied()
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
