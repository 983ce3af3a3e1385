//! Which pieces a move lifts and puts down, and each perspective's view of a position (the
//! feature of a piece on a square is the format's, [`super::format::InputMapping`]).

use super::format::View;
use super::network::NetworkOf;
use tempo_core::{Color, Move, MoveKind, Piece, Position, Role, Square};

/// How `perspective` sees `pos` under `network`'s input mapping.
#[inline]
pub(crate) fn view_of<const H: usize>(network: &NetworkOf<H>, pos: &Position, perspective: Color) -> View {
    network.input_mapping().view(perspective, pos.king_of(perspective))
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
