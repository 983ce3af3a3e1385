//! Search values, mate scores and their conversion to what a user sees (centipawns, mate in
//! N moves, win/draw/loss estimates).

use tempo_core::Score;

/// A search value in centipawns, from the side to move's point of view.
pub type Value = i32;

/// The deepest ply the search ever reaches (stack and PV arrays are sized by it).
pub const MAX_PLY: usize = 128;
/// A value larger than any real score: the initial alpha-beta window.
pub const INFINITE: Value = 32_001;
/// The score of giving mate right now; mate in `n` plies scores `MATE - n`.
pub const MATE: Value = 32_000;
/// Scores at least this large (in absolute value) are mate scores.
pub const MATE_BOUND: Value = MATE - MAX_PLY as Value;
/// The score of a draw.
pub const DRAW: Value = 0;

/// The score of mating in `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// The score of being mated in `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

/// `true` for a score that announces a forced mate for either side.
#[inline]
pub const fn is_mate_score(v: Value) -> bool {
    v.abs() >= MATE_BOUND
}

/// The score a user sees for a search value: centipawns, or mate in moves (not plies).
pub fn to_score(v: Value) -> Score {
    if v >= MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE + v) / 2)
    } else {
        Score::Cp(v)
    }
}

/// Win/draw/loss estimate in per mille, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Expected wins per thousand games.
    pub win: u32,
    /// Expected draws per thousand games.
    pub draw: u32,
    /// Expected losses per thousand games.
    pub loss: u32,
}

impl Wdl {
    /// The estimate for a search value.
    ///
    /// A logistic model: `win = 1 / (1 + exp((A - v) / B))`, `loss` symmetric. The constants
    /// (A = 200 cp for an even win chance, B = 80 cp) are a first approximation in the
    /// spirit of Stockfish's WDL model and are not yet fitted to Tempo's own games; the tools
    /// issue refits them.
    pub fn from_value(v: Value) -> Wdl {
        if v >= MATE_BOUND {
            return Wdl { win: 1000, draw: 0, loss: 0 };
        }
        if v <= -MATE_BOUND {
            return Wdl { win: 0, draw: 0, loss: 1000 };
        }
        const A: f64 = 200.0;
        const B: f64 = 80.0;
        let x = f64::from(v);
        let win = (1000.0 / (1.0 + ((A - x) / B).exp())).round() as u32;
        let loss = (1000.0 / (1.0 + ((A + x) / B).exp())).round() as u32;
        let win = win.min(1000);
        let loss = loss.min(1000 - win);
        Wdl { win, draw: 1000 - win - loss, loss }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(to_score(mate_in(1)), Score::Mate(1));
        assert_eq!(to_score(mate_in(3)), Score::Mate(2));
        assert_eq!(to_score(mated_in(0)), Score::Mate(0));
        assert_eq!(to_score(mated_in(2)), Score::Mate(-1));
        assert_eq!(to_score(35), Score::Cp(35));
    }

    #[test]
    fn wdl_sums_to_a_thousand_and_is_symmetric() {
        for v in [-3000, -400, -50, 0, 50, 400, 3000, MATE - 3] {
            let w = Wdl::from_value(v);
            assert_eq!(w.win + w.draw + w.loss, 1000);
            let m = Wdl::from_value(-v);
            assert_eq!((w.win, w.loss), (m.loss, m.win));
        }
    }
}
