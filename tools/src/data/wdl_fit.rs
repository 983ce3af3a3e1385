//! `tempo-tools data wdl-fit`: fits the engine's win/draw/loss model (what `UCI_ShowWDL`
//! shows) to the results of scored games.
//!
//! The model is Stockfish's: `win = 1 / (1 + exp((a - v) / b))` for a score `v`, `loss` its
//! mirror, where `a` (the score of an even win chance) and `b` (its spread) are cubics in
//! the material `m / 58` ([`wdl_material`]). As in Stockfish's WDL_model, each material count
//! gets its own maximum-likelihood `(a, b)` over the results of its positions, and the cubics
//! are then fitted to those by least squares, weighted by the positions behind each.

use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use tempo_core::GameResult;
use tempo_engine::{wdl_material, wdl_model, WDL_A, WDL_B, WDL_MATERIAL};
use tempo_notation::ViriReader;

/// Scores beyond this (centipawns) are decided games: they say little about the model's
/// middle, and adjudicated wins end there.
const SCORE_LIMIT: i32 = 1500;

/// A material count needs this many positions for its own `(a, b)`.
const MIN_POSITIONS: u64 = 2_000;

/// Results by material and score, from White's view.
struct Histogram {
    /// `[white wins, draws, black wins]` for each (material, score) cell.
    cells: Vec<[u64; 3]>,
}

const SCORES: usize = 2 * SCORE_LIMIT as usize + 1;
const MATERIALS: usize = (WDL_MATERIAL.1 - WDL_MATERIAL.0 + 1) as usize;

impl Histogram {
    fn new() -> Histogram {
        Histogram { cells: vec![[0; 3]; MATERIALS * SCORES] }
    }

    fn add(&mut self, material: i32, score: i32, result: GameResult) {
        let m = (material - WDL_MATERIAL.0) as usize;
        let s = (score + SCORE_LIMIT) as usize;
        let outcome = match result {
            GameResult::WhiteWins => 0,
            GameResult::Draw => 1,
            GameResult::BlackWins => 2,
        };
        self.cells[m * SCORES + s][outcome] += 1;
    }

    /// The non-empty cells of one material: (score, counts).
    fn of_material(&self, material: i32) -> Vec<(f64, [u64; 3])> {
        let m = (material - WDL_MATERIAL.0) as usize;
        self.cells[m * SCORES..(m + 1) * SCORES]
            .iter()
            .enumerate()
            .filter(|(_, c)| c.iter().sum::<u64>() > 0)
            .map(|(s, c)| (s as f64 - f64::from(SCORE_LIMIT), *c))
            .collect()
    }
}

/// The fit of one material count.
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialFit {
    pub material: i32,
    pub positions: u64,
    pub a: f64,
    pub b: f64,
}

/// The whole fit.
#[derive(Debug)]
pub struct WdlFit {
    pub games: u64,
    pub positions: u64,
    pub by_material: Vec<MaterialFit>,
    /// The cubics (highest power first).
    pub a: [f64; 4],
    pub b: [f64; 4],
    /// Mean log-likelihood of the results per position under the fitted cubics, and under
    /// the engine's present coefficients.
    pub log_likelihood: f64,
    pub log_likelihood_engine: f64,
}

/// The log-likelihood of `cells` (scores with their results) under a model's win and loss
/// probabilities at each score.
fn log_likelihood(cells: &[(f64, [u64; 3])], mut model: impl FnMut(f64) -> (f64, f64)) -> f64 {
    cells
        .iter()
        .map(|&(v, [w, d, l])| {
            let (pw, pl) = model(v);
            let pd = 1.0 - pw - pl;
            let ln = |p: f64| p.max(1e-12).ln();
            w as f64 * ln(pw) + d as f64 * ln(pd) + l as f64 * ln(pl)
        })
        .sum()
}

/// The maximum-likelihood `(a, b)` of one material's cells: a coarse grid, then a pattern
/// search that halves its steps until they are below a hundredth of a centipawn.
fn fit_material(cells: &[(f64, [u64; 3])]) -> (f64, f64) {
    let ll = |a: f64, b: f64| {
        log_likelihood(cells, |v| (1.0 / (1.0 + ((a - v) / b).exp()), 1.0 / (1.0 + ((a + v) / b).exp())))
    };
    let mut best = (200.0, 80.0, f64::NEG_INFINITY);
    for a in (0..=80).map(|i| f64::from(i) * 10.0) {
        for b in (1..=50).map(|i| f64::from(i) * 10.0) {
            let value = ll(a, b);
            if value > best.2 {
                best = (a, b, value);
            }
        }
    }
    let (mut a, mut b, mut value) = best;
    let mut step = 5.0;
    while step > 0.01 {
        let mut moved = false;
        for (da, db) in [(step, 0.0), (-step, 0.0), (0.0, step), (0.0, -step)] {
            let (na, nb) = (a + da, (b + db).max(1.0));
            let candidate = ll(na, nb);
            if candidate > value {
                (a, b, value, moved) = (na, nb, candidate, true);
            }
        }
        if !moved {
            step /= 2.0;
        }
    }
    (a, b)
}

/// Weighted least squares of a cubic through `(x, y, weight)` points (highest power first).
///
/// # Panics
/// Never for four or more points with distinct `x` (the normal equations are then regular).
fn fit_cubic(points: &[(f64, f64, f64)]) -> [f64; 4] {
    // Normal equations M c = r for the powers x^3, x^2, x, 1.
    let mut m = [[0.0f64; 5]; 4];
    for &(x, y, w) in points {
        let powers = [x * x * x, x * x, x, 1.0];
        for i in 0..4 {
            for j in 0..4 {
                m[i][j] += w * powers[i] * powers[j];
            }
            m[i][4] += w * powers[i] * y;
        }
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..4 {
        let pivot = (col..4).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs())).expect("rows left");
        m.swap(col, pivot);
        let pivot_row = m[col];
        for (row, values) in m.iter_mut().enumerate() {
            if row != col && pivot_row[col] != 0.0 {
                let factor = values[col] / pivot_row[col];
                for (value, pivot_value) in values.iter_mut().zip(pivot_row).skip(col) {
                    *value -= factor * pivot_value;
                }
            }
        }
    }
    std::array::from_fn(|i| if m[i][i] == 0.0 { 0.0 } else { m[i][4] / m[i][i] })
}

/// Reads the games of `files` and fits the model.
///
/// # Errors
/// If a file cannot be read, a game is broken, or too few material counts have enough
/// positions to fit cubics through.
pub fn fit(files: &[PathBuf]) -> Result<WdlFit> {
    let mut histogram = Histogram::new();
    let (mut games, mut positions) = (0u64, 0u64);
    for path in files {
        let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        for game in ViriReader::new(std::io::BufReader::new(file)) {
            let game = game.with_context(|| format!("reading {}", path.display()))?;
            games += 1;
            for (pos, m) in game.positions() {
                let score = i32::from(m.score);
                if score.abs() <= SCORE_LIMIT {
                    histogram.add(wdl_material(&pos), score, game.result);
                    positions += 1;
                }
            }
        }
    }
    let mut by_material = Vec::new();
    for material in WDL_MATERIAL.0..=WDL_MATERIAL.1 {
        let cells = histogram.of_material(material);
        let count: u64 = cells.iter().map(|(_, c)| c.iter().sum::<u64>()).sum();
        if count >= MIN_POSITIONS {
            let (a, b) = fit_material(&cells);
            by_material.push(MaterialFit { material, positions: count, a, b });
        }
    }
    if by_material.len() < 8 {
        bail!(
            "only {} material counts have {MIN_POSITIONS} positions or more: too few games to fit the model",
            by_material.len()
        );
    }
    let points = |pick: fn(&MaterialFit) -> f64| -> Vec<(f64, f64, f64)> {
        by_material.iter().map(|f| (f64::from(f.material) / 58.0, pick(f), f.positions as f64)).collect()
    };
    let a = fit_cubic(&points(|f| f.a));
    let b = fit_cubic(&points(|f| f.b));
    let mean_ll = |a: &[f64; 4], b: &[f64; 4]| {
        let total: f64 = (WDL_MATERIAL.0..=WDL_MATERIAL.1)
            .map(|material| log_likelihood(&histogram.of_material(material), |v| wdl_model(v, material, a, b)))
            .sum();
        total / positions.max(1) as f64
    };
    Ok(WdlFit {
        games,
        positions,
        log_likelihood: mean_ll(&a, &b),
        log_likelihood_engine: mean_ll(&WDL_A, &WDL_B),
        by_material,
        a,
        b,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cubic_through_exact_points_is_recovered() {
        let truth = [2.0, -3.0, 0.5, 7.0];
        let points: Vec<_> = (0..10)
            .map(|i| {
                let x = f64::from(i) / 5.0;
                (x, ((truth[0] * x + truth[1]) * x + truth[2]) * x + truth[3], 1.0 + f64::from(i))
            })
            .collect();
        let fitted = fit_cubic(&points);
        for (f, t) in fitted.iter().zip(truth) {
            assert!((f - t).abs() < 1e-6, "{fitted:?}");
        }
    }

    #[test]
    fn the_material_fit_finds_the_model_that_made_the_counts() {
        // Expected counts of 100,000 positions a score under a = 150, b = 60.
        let (a, b) = (150.0, 60.0);
        let cells: Vec<(f64, [u64; 3])> = (-60..=60)
            .map(|i| {
                let v = f64::from(i) * 10.0;
                let (pw, pl) = (1.0 / (1.0 + ((a - v) / b).exp()), 1.0 / (1.0 + ((a + v) / b).exp()));
                let n = 100_000.0;
                (v, [(n * pw).round() as u64, (n * (1.0 - pw - pl)).round() as u64, (n * pl).round() as u64])
            })
            .collect();
        let (fa, fb) = fit_material(&cells);
        assert!((fa - a).abs() < 0.5 && (fb - b).abs() < 0.5, "{fa} {fb}");
    }
}
