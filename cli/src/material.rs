//! The material on the board as players count it: pawn 1, knight and bishop 3, rook 5,
//! queen 9. It is read from the position alone, so that it is right for a game started from
//! a FEN or continued from a file as well (a promoted queen counts as a queen, not as a
//! capture).

use tempo_core::{Color, Position, Role};

/// The roles that count, most valuable first (the order the extra pieces are shown in).
const COUNTED: [Role; 5] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// A role's value in pawns; the king has none.
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// The pieces of a position, counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Material {
    /// Pieces per colour and role (indexed by `Color::index` and the role's place in
    /// [`COUNTED`]).
    counts: [[i32; 5]; 2],
}

impl Material {
    /// The material of `pos`.
    pub fn of(pos: &Position) -> Material {
        let mut counts = [[0; 5]; 2];
        for color in Color::ALL {
            for (i, role) in COUNTED.into_iter().enumerate() {
                counts[color.index()][i] = pos.pieces(color, role).count() as i32;
            }
        }
        Material { counts }
    }

    /// `color`'s material less its opponent's, in pawns.
    pub fn balance(&self, color: Color) -> i32 {
        let total = |c: Color| COUNTED.iter().zip(self.counts[c.index()]).map(|(&r, n)| value(r) * n).sum::<i32>();
        total(color) - total(!color)
    }

    /// The pieces `color` has more of than its opponent, role by role, most valuable first:
    /// what a player is "up" (`[Knight, Pawn, Pawn]`).
    pub fn extra(&self, color: Color) -> Vec<Role> {
        let mut out = Vec::new();
        for (i, role) in COUNTED.into_iter().enumerate() {
            let more = self.counts[color.index()][i] - self.counts[(!color).index()][i];
            out.extend(std::iter::repeat_n(role, more.max(0) as usize));
        }
        out
    }

    /// The pawns on the board, both sides together.
    pub fn pawns(&self) -> i32 {
        self.counts[0][4] + self.counts[1][4]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_is_on_the_board() {
        let start = Material::of(&Position::startpos());
        assert_eq!(start.balance(Color::White), 0);
        assert!(start.extra(Color::White).is_empty() && start.extra(Color::Black).is_empty());
        assert_eq!(start.pawns(), 16);

        // White has a knight and two pawns more; Black the exchange (a rook for a bishop).
        let pos: Position = "r3k3/pp6/8/8/8/8/PPPP4/1NB1K3 w - - 0 30".parse().unwrap();
        let m = Material::of(&pos);
        assert_eq!(m.extra(Color::White), [Role::Bishop, Role::Knight, Role::Pawn, Role::Pawn]);
        assert_eq!(m.extra(Color::Black), [Role::Rook]);
        assert_eq!(m.balance(Color::White), 3);
        assert_eq!(m.balance(Color::Black), -3);
        assert_eq!(m.pawns(), 6);

        let rooks = Material::of(&"r7/8/4k3/8/8/3K4/8/7R w - - 0 40".parse().unwrap());
        assert_eq!((rooks.balance(Color::White), rooks.pawns()), (0, 0));
    }
}
