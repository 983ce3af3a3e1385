//! The perft divide listing, `move: count` for each root move, as Stockfish's `go perft`
//! prints it: the one listing of `tempo perft --divide`, `tempo-tools perft --divide` and
//! `tempo-uci`'s `go perft`, so that their outputs compare line for line.

use tempo_core::{Move, Position};

use crate::move_notation::MoveNotation;

/// The lines of a divide of `root` (each count as [`tempo_core::perft::divide`] gives it,
/// in the order given), each root move written in `notation`: `e2e4: 600` or `e4: 600`.
/// The caller adds the total in its own form.
pub fn divide_lines<'a>(
    root: &'a Position,
    counts: &'a [(Move, u64)],
    notation: MoveNotation,
) -> impl Iterator<Item = String> + 'a {
    counts.iter().map(move |&(m, count)| format!("{}: {count}", notation.write(root, m)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempo_core::perft::divide;

    #[test]
    fn one_line_per_root_move_in_the_chosen_notation() {
        let pos = Position::startpos();
        let counts = divide(&pos, 2);
        let uci: Vec<String> = divide_lines(&pos, &counts, MoveNotation::Uci).collect();
        let san: Vec<String> = divide_lines(&pos, &counts, MoveNotation::San).collect();
        assert_eq!((uci.len(), san.len()), (20, 20));
        assert!(uci.contains(&"g1f3: 20".to_owned()), "{uci:?}");
        assert!(san.contains(&"Nf3: 20".to_owned()), "{san:?}");
        // The same moves in the same order, only the notation differs.
        for (u, s) in uci.iter().zip(&san) {
            assert_eq!(u.split_once(": ").unwrap().1, s.split_once(": ").unwrap().1);
        }
    }
}
