//! `tempo-tools tune`: Texel tuning of every evaluation weight.
//!
//! The data are labelled positions: `FEN | score | result` lines from `datagen`, or the
//! main-line positions of PGN games labelled with each game's result. The model is the
//! engine's own evaluation: [`linear_eval`] gives, for each position, the net count of every
//! weighted feature (pieces on squares, mobility counts, pawn-structure features, king
//! danger...), the game phase and the endgame scale, so the model's value under the
//! engine's current weights is `evaluate` itself. The loss is the mean squared error between
//! the target (the result, or a mix with the score's win probability, `--lambda`) and
//! `sigmoid(K * eval / 400)`, with `K` fitted to the data first; Adam descends its gradient,
//! computed in parallel with rayon, and the weights with the best loss on held-out games are
//! kept. `--write FILE` writes them as Rust source in the format of
//! `engine/src/hce/tuned_weights.rs`, which the engine includes.
//!
//! Not tuned: the game-phase weights and the endgame scale factors (they shape the taper
//! rather than add to it) and the king-attack unit weights (the danger table indexed by
//! their sum is tuned).

use crate::adam;
use crate::text_data::parse_line;
use anyhow::{bail, Context, Result};
use clap::Args;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use tempo_core::Position;
use tempo_engine::hce::{linear_eval, WEIGHTS, WEIGHT_COUNT, WEIGHT_SECTIONS};
use tempo_notation::{PgnReader, PgnResult};

/// Parameters: the middlegame halves of the weights, then the endgame halves.
const PARAMS: usize = 2 * WEIGHT_COUNT;

#[derive(Args)]
pub struct TuneArgs {
    /// Labelled positions: `FEN | score | result` lines (from `datagen`) or a `.pgn` file.
    data: PathBuf,
    /// Weight of the game result in the target; the rest is the score's win probability.
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Passes over the data.
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// Adam step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Fraction of the positions (the end of the file) held out to measure the tuned weights
    /// on unseen games.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Keep these weight sections (names as in the written source, e.g. `psqt`) at their
    /// current values; repeatable or comma-separated.
    #[arg(long, value_delimiter = ',')]
    freeze: Vec<String>,
    /// Write the tuned weights as Rust source (e.g. engine/src/hce/tuned_weights.rs).
    #[arg(long)]
    write: Option<PathBuf>,
}

/// Which parameters the tuner may change: all but the frozen sections' (both halves).
fn trainable(frozen: &[String]) -> Result<Vec<bool>> {
    let mut mask = vec![true; PARAMS];
    for name in frozen {
        let Some(section) = WEIGHT_SECTIONS.iter().find(|s| s.name == name.as_str()) else {
            let names: Vec<&str> = WEIGHT_SECTIONS.iter().map(|s| s.name).collect();
            bail!("no weight section `{name}` (sections: {})", names.join(", "));
        };
        for i in section.start..section.start + section.len {
            mask[i] = false;
            mask[WEIGHT_COUNT + i] = false;
        }
    }
    Ok(mask)
}

/// One position reduced to what the model needs.
pub(crate) struct Sample {
    /// `(weight index, White's count minus Black's)`.
    features: Vec<(u16, i16)>,
    /// Phase weight of the middlegame part (phase / 24).
    mg_weight: f32,
    /// Weight of the endgame part ((24 - phase) / 24 * scale / 64).
    eg_weight: f32,
    /// Game result for White (1, 0.5, 0) and search score in centipawns, if known.
    result: f32,
    score: Option<f32>,
}

/// The engine's current weights as a parameter vector.
pub(crate) fn current_params() -> Vec<f64> {
    let mg = WEIGHTS.iter().map(|w| f64::from(w.0));
    let eg = WEIGHTS.iter().map(|w| f64::from(w.1));
    mg.chain(eg).collect()
}

/// Reduces a position; `None` for positions the model cannot use (dead draws).
pub(crate) fn sample(pos: &Position, result: f64, score: Option<f64>) -> Option<Sample> {
    if pos.is_insufficient_material() {
        return None;
    }
    let linear = linear_eval(pos);
    let phase = linear.phase as f32;
    Some(Sample {
        features: linear.features,
        mg_weight: phase / 24.0,
        eg_weight: (24.0 - phase) / 24.0 * linear.scale as f32 / 64.0,
        result: result as f32,
        score: score.map(|s| s as f32),
    })
}

impl Sample {
    /// The model's evaluation (White's view, centipawns) under `params`.
    pub(crate) fn eval(&self, params: &[f64]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, count) in &self.features {
            mg += f64::from(count) * params[usize::from(i)];
            eg += f64::from(count) * params[WEIGHT_COUNT + usize::from(i)];
        }
        mg * f64::from(self.mg_weight) + eg * f64::from(self.eg_weight)
    }
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

fn target(s: &Sample, k: f64, lambda: f64) -> f64 {
    let result = f64::from(s.result);
    match s.score {
        Some(score) => lambda * result + (1.0 - lambda) * sigmoid(k, f64::from(score)),
        None => result,
    }
}

fn loss(samples: &[Sample], params: &[f64], k: f64, lambda: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples.par_iter().map(|s| (target(s, k, lambda) - sigmoid(k, s.eval(params))).powi(2)).sum();
    sum / samples.len() as f64
}

/// The `K` that makes the current evaluation predict the results best (golden-section search).
fn fit_k(samples: &[Sample], params: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 4.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(samples, params, a, 1.0) < loss(samples, params, b, 1.0) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn gradient(samples: &[Sample], params: &[f64], k: f64, lambda: f64) -> Vec<f64> {
    let scale = 2.0 / samples.len().max(1) as f64 * k * std::f64::consts::LN_10 / 400.0;
    samples
        .par_iter()
        .fold(
            || vec![0.0; PARAMS],
            |mut grad, s| {
                let p = sigmoid(k, s.eval(params));
                let common = (p - target(s, k, lambda)) * p * (1.0 - p) * scale;
                for &(i, count) in &s.features {
                    let c = common * f64::from(count);
                    grad[usize::from(i)] += c * f64::from(s.mg_weight);
                    grad[WEIGHT_COUNT + usize::from(i)] += c * f64::from(s.eg_weight);
                }
                grad
            },
        )
        .reduce(
            || vec![0.0; PARAMS],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

fn load(path: &Path) -> Result<Vec<Sample>> {
    let is_pgn = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    if is_pgn {
        let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let mut samples = Vec::new();
        for game in PgnReader::new(std::io::BufReader::new(file)).games() {
            let Ok(game) = game else { continue };
            let result = match game.result {
                Some(PgnResult::WhiteWins) => 1.0,
                Some(PgnResult::BlackWins) => 0.0,
                Some(PgnResult::Draw) => 0.5,
                _ => continue,
            };
            // Opening positions say little about the result; in-check positions are noisy.
            for pos in game.mainline_positions().into_iter().skip(8) {
                if !pos.is_check() {
                    samples.extend(sample(&pos, result, None));
                }
            }
        }
        return Ok(samples);
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let lines: Vec<(usize, &str)> = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).collect();
    lines
        .par_iter()
        .filter_map(|&(i, line)| {
            let parsed = parse_line(line).map(|l| sample(&l.pos, l.result, Some(l.score)));
            match parsed {
                Ok(s) => s.map(Ok),
                Err(e) => Some(Err(e.context(format!("{}:{}", path.display(), i + 1)))),
            }
        })
        .collect()
}

/// The weights as Rust source, in the format of `engine/src/hce/tuned_weights.rs`.
pub(crate) fn weights_source(params: &[f64], note: &str) -> String {
    const ROLES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    let mut out = String::new();
    out.push_str("// Evaluation weights, (middlegame, endgame) centipawns, laid out as `WEIGHT_SECTIONS` says.\n");
    out.push_str("// Written by `tempo-tools tune --write`; the engine includes this file, so a tuning run\n");
    out.push_str("// changes the engine by rewriting it.\n");
    let _ = writeln!(out, "// {note}");
    out.push_str("/// Every evaluation weight, laid out as [`WEIGHT_SECTIONS`] says.\n");
    out.push_str("#[rustfmt::skip]\n");
    out.push_str("pub const WEIGHTS: [S; WEIGHT_COUNT] = [\n");
    for section in WEIGHT_SECTIONS {
        let _ = writeln!(out, "    // {}", section.name);
        for (row, start) in (section.start..section.start + section.len).step_by(section.row).enumerate() {
            if section.name == "psqt" && row % 8 == 0 {
                let _ = writeln!(out, "    // {} (a8 first)", ROLES[row / 8]);
            }
            out.push_str("   ");
            for i in start..(start + section.row).min(section.start + section.len) {
                let (mg, eg) = (params[i].round() as i32, params[WEIGHT_COUNT + i].round() as i32);
                let _ = write!(out, " S({mg}, {eg}),");
            }
            out.push('\n');
        }
    }
    out.push_str("];\n");
    out
}

/// Runs the tuner.
pub fn run(args: &TuneArgs) -> Result<bool> {
    let trainable = trainable(&args.freeze)?;
    let mut samples = load(&args.data)?;
    if samples.len() < 100 {
        bail!("{} usable positions: too few to tune on", samples.len());
    }
    // The hold-out set is the end of the file: other games than the training set (positions
    // of one game are contiguous and share a result, so interleaving would leak).
    let held_out = ((samples.len() as f64) * args.validation.clamp(0.0, 0.5)).round() as usize;
    let validation = samples.split_off(samples.len() - held_out);
    let training = samples;
    let mut params = current_params();
    let k = fit_k(&training, &params);
    let initial = (loss(&training, &params, k, args.lambda), loss(&validation, &params, k, args.lambda));
    outln!(
        "{} training and {} validation positions; K = {k:.3}; loss {:.6} / {:.6}",
        training.len(),
        validation.len(),
        initial.0,
        initial.1
    )?;

    // Adam, keeping the parameters with the best validation loss (early stopping: past that
    // point the weights fit the training games' noise).
    let mut m = vec![0.0; PARAMS];
    let mut v = vec![0.0; PARAMS];
    let mut best = (if validation.is_empty() { initial.0 } else { initial.1 }, params.clone(), 0);
    for epoch in 1..=args.epochs {
        let grad = gradient(&training, &params, k, args.lambda);
        let corrections = adam::corrections(epoch as u64);
        for j in (0..PARAMS).filter(|&j| trainable[j]) {
            params[j] -= args.rate * adam::step(&mut m[j], &mut v[j], grad[j], corrections);
        }
        let judged = if validation.is_empty() { &training } else { &validation };
        let judged_loss = loss(judged, &params, k, args.lambda);
        if judged_loss < best.0 {
            best = (judged_loss, params.clone(), epoch);
        }
        if epoch % 50 == 0 || epoch == args.epochs {
            outln!("epoch {epoch}: loss {:.6} / {:.6}", loss(&training, &params, k, args.lambda), judged_loss)?;
        }
    }
    let judged_name = if validation.is_empty() { "training" } else { "validation" };
    outln!("best {judged_name} loss at epoch {}", best.2)?;
    let rounded: Vec<f64> = best.1.iter().map(|p| p.round()).collect();
    let last = (loss(&training, &rounded, k, args.lambda), loss(&validation, &rounded, k, args.lambda));
    outln!("tuned (rounded): loss {:.6} / {:.6} (from {:.6} / {:.6})", last.0, last.1, initial.0, initial.1)?;
    if let Some(path) = &args.write {
        let note = format!(
            "Tuned on {} positions of {}: K {k:.3}, lambda {}, epoch {} of {}; loss {:.6} -> {:.6} (validation {:.6} -> {:.6}).",
            training.len(),
            args.data.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            args.lambda,
            best.2,
            args.epochs,
            initial.0,
            last.0,
            initial.1,
            last.1
        );
        tempo_output::write_atomically(path, weights_source(&rounded, &note).as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        outln!("weights written to {}", path.display())?;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_is_the_engine_evaluation_at_the_current_weights() {
        let params = current_params();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
            // A king attack with queen and rooks, passed pawns, threats by pawns.
            "r4rk1/1b3p1p/p3pPpQ/1p2P3/3q4/P2B4/1P4PP/R4R1K w - - 0 1",
            "2k5/8/1P6/8/3n4/4P3/8/4K2R b K - 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            let s = sample(&pos, 0.5, None).unwrap();
            let engine = f64::from(tempo_engine::hce::trace(&pos).white_value);
            // The engine rounds its integer arithmetic; the model does not.
            assert!((s.eval(&params) - engine).abs() <= 2.0, "{fen}: model {} engine {engine}", s.eval(&params));
        }
    }

    #[test]
    fn frozen_sections_are_masked_and_unknown_ones_rejected() {
        let mask = trainable(&["tempo".to_owned(), "psqt".to_owned()]).unwrap();
        let tempo = WEIGHT_SECTIONS.iter().find(|s| s.name == "tempo").unwrap();
        assert!(!mask[tempo.start] && !mask[WEIGHT_COUNT + tempo.start]);
        let psqt = WEIGHT_SECTIONS.iter().find(|s| s.name == "psqt").unwrap();
        assert_eq!(mask.iter().filter(|&&m| !m).count(), 2 * (psqt.len + tempo.len));
        let err = trainable(&["nonsense".to_owned()]).unwrap_err().to_string();
        assert!(err.contains("no weight section `nonsense`") && err.contains("psqt"), "{err}");
    }

    #[test]
    fn the_source_reproduces_the_current_weights() {
        let text = weights_source(&current_params(), "test");
        let shipped = include_str!("../../engine/src/hce/tuned_weights.rs");
        let body = |t: &str| {
            t.lines()
                .filter(|l| !l.trim_start().starts_with("//") && !l.trim().is_empty())
                .flat_map(|l| l.split("),").map(|w| w.split_whitespace().collect::<String>()).collect::<Vec<_>>())
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
        };
        assert_eq!(body(&text), body(shipped));
    }
}
