//! Search values, mate scores and their conversion to what a user sees (centipawns, mate in
//! N moves, win/draw/loss estimates).

use tempo_core::{Position, Role, Score};

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

/// The model's material count of a position: pawns 1, knights and bishops 3, rooks 5,
/// queens 9, both sides together, clamped to the range the model was fitted on.
pub fn wdl_material(pos: &Position) -> i32 {
    let count = |role| pos.by_role(role).count() as i32;
    let material = count(Role::Pawn)
        + 3 * count(Role::Knight)
        + 3 * count(Role::Bishop)
        + 5 * count(Role::Rook)
        + 9 * count(Role::Queen);
    material.clamp(WDL_MATERIAL.0, WDL_MATERIAL.1)
}

/// The material counts the model covers; fewer or more are read as the nearest.
pub const WDL_MATERIAL: (i32, i32) = (17, 78);

/// The model's `a` (the score of an even win chance) and `b` (its spread), each a cubic in
/// `material / 58` written from the highest power down: Stockfish's form of the model.
/// Today a first approximation, the same at every material (a = 200 cp, b = 80 cp):
/// `tempo-tools data wdl-fit` fits them to scored games, and docs/wdl.md says why the fit to
/// the self-play data (1,000-node games, far more decisive than a user's) is not used.
pub const WDL_A: [f64; 4] = [0.0, 0.0, 0.0, 200.0];
/// See [`WDL_A`].
pub const WDL_B: [f64; 4] = [0.0, 0.0, 0.0, 80.0];

/// A cubic with coefficients from the highest power down.
fn cubic(p: &[f64; 4], x: f64) -> f64 {
    ((p[0] * x + p[1]) * x + p[2]) * x + p[3]
}

impl Wdl {
    /// The estimate for a search value in a position of `material` ([`wdl_material`]).
    ///
    /// A logistic model: `win = 1 / (1 + exp((a - v) / b))`, `loss` its mirror, with `a` and
    /// `b` from [`WDL_A`] and [`WDL_B`] at this material.
    pub fn from_value(v: Value, material: i32) -> Wdl {
        if v >= MATE_BOUND {
            return Wdl { win: 1000, draw: 0, loss: 0 };
        }
        if v <= -MATE_BOUND {
            return Wdl { win: 0, draw: 0, loss: 1000 };
        }
        let (win, loss) = wdl_model(f64::from(v), material, &WDL_A, &WDL_B);
        let win = ((1000.0 * win).round() as u32).min(1000);
        let loss = ((1000.0 * loss).round() as u32).min(1000 - win);
        Wdl { win, draw: 1000 - win - loss, loss }
    }
}

/// The model's win and loss probabilities (between 0 and 1) for score `v` at `material`
/// under coefficients `a` and `b` (the fit tries others).
pub fn wdl_model(v: f64, material: i32, a: &[f64; 4], b: &[f64; 4]) -> (f64, f64) {
    let x = f64::from(material.clamp(WDL_MATERIAL.0, WDL_MATERIAL.1)) / 58.0;
    let (a, b) = (cubic(a, x), cubic(b, x).max(1.0));
    (1.0 / (1.0 + ((a - v) / b).exp()), 1.0 / (1.0 + ((a + v) / b).exp()))
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
        for material in [0, 17, 40, 78, 100] {
            for v in [-3000, -400, -50, 0, 50, 400, 3000, MATE - 3] {
                let w = Wdl::from_value(v, material);
                assert_eq!(w.win + w.draw + w.loss, 1000);
                let m = Wdl::from_value(-v, material);
                assert_eq!((w.win, w.loss), (m.loss, m.win));
            }
        }
    }
}
