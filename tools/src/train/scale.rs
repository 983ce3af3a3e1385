//! `--match-scale`: keep a new network's evaluation on its parent's scale.
//!
//! A network trained on search scores learns their scale, and a search's scores are steeper
//! than the static evaluation it searched with (measured on Tempo's own games: the recorded
//! scores are about 1.13 times the static evaluation of the same positions, for the
//! hand-crafted evaluation and for the first network alike). So every generation trained on
//! the previous one's games evaluates some 13% steeper than its parent, while the search's
//! margins (futility, null-move, razoring, aspiration windows, the draw and win adjudication
//! of datagen) were tuned for the parent's scale. The steeper network plays worse for it
//! alone: the first network with its output multiplied by 1.13 lost 41.5 Elo to itself, and
//! a second generation that lost 75 Elo played even once scaled back (see
//! `engine/nets/README.md`).
//!
//! The fix is one number: the ratio of the root-mean-square evaluations of parent and child
//! over the same positions (symmetric, unlike a regression of either on the other, which
//! noise in the regressor biases towards zero), multiplied into the child's output layer.
//! On generation 1's games the three estimates agree within 2% (for the second generation's
//! fresh network: RMS ratio 0.815, parent regressed on child 0.805, the inverse of child on
//! parent 0.825), and the fit recovers a known factor (generation 1 times 1.13: 0.8815).
//! Positions that either network already judges decided (beyond [`DECIDED_CP`]) are left
//! out: their exact value does not matter to the search and would dominate the squares.

use super::data::{Dataset, Target};
use super::model::{Network, CLIP, SCALE};
use rayon::prelude::*;

/// Evaluations beyond this many centipawns (either network) are left out of the fit.
pub const DECIDED_CP: f32 = 1500.0;

/// At most this many positions, evenly spaced through the set, are evaluated.
const SAMPLE: usize = 200_000;

/// What the fit found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScaleFit {
    /// The factor to multiply the child's output by: RMS(parent) / RMS(child).
    pub factor: f64,
    /// Positions the fit used (neither evaluation decided).
    pub positions: usize,
}

/// The factor that puts `child`'s evaluations on `parent`'s scale over `data`, or `None` if
/// no position of `data` is undecided for both.
pub fn fit(parent: &Network, child: &Network, data: &Dataset) -> Option<ScaleFit> {
    let step = data.len().div_ceil(SAMPLE).max(1);
    let indices: Vec<u32> = (0..data.len() as u32).step_by(step).collect();
    let sums: Vec<(f64, f64, usize)> = indices
        .par_chunks(4096)
        .map(|chunk| {
            // Each network sees the positions through its own input mapping.
            let for_parent = data.gather(chunk, None, parent.shape().inputs, Target::new(0.0));
            let for_child = data.gather(chunk, None, child.shape().inputs, Target::new(0.0));
            let mut sums = (0.0, 0.0, 0);
            for ((stm, other, _), (child_stm, child_other, _)) in for_parent.positions().zip(for_child.positions()) {
                let p = parent.output(stm, other) * SCALE;
                let c = child.output(child_stm, child_other) * SCALE;
                if p.abs() <= DECIDED_CP && c.abs() <= DECIDED_CP {
                    sums.0 += f64::from(p) * f64::from(p);
                    sums.1 += f64::from(c) * f64::from(c);
                    sums.2 += 1;
                }
            }
            sums
        })
        .collect();
    let (parent_sq, child_sq, positions) =
        sums.iter().fold((0.0, 0.0, 0), |acc, s| (acc.0 + s.0, acc.1 + s.1, acc.2 + s.2));
    (positions > 0 && child_sq > 0.0).then(|| ScaleFit { factor: (parent_sq / child_sq).sqrt(), positions })
}

/// Multiplies the network's output (every output weight and bias) by `factor`, keeping the
/// weights within the trainer's clip so that the quantised network cannot overflow; returns
/// how many weights the clip changed.
pub fn apply(net: &mut Network, factor: f32) -> usize {
    let start = net.shape().output_start();
    let mut clipped = 0;
    for w in &mut net.params_mut()[start..] {
        let scaled = *w * factor;
        *w = scaled.clamp(-CLIP, CLIP);
        clipped += usize::from(*w != scaled);
    }
    clipped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::data::InputMapping;
    use crate::train::model::{Activation, Shape};
    use tempo_core::{CastlingMode, Position};

    fn dataset() -> Dataset {
        let mut data = Dataset::new();
        for pos in positions() {
            assert!(data.push(&pos, 0, 0.5));
        }
        data
    }

    fn positions() -> Vec<Position> {
        let mut positions = Vec::new();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
            "8/5k2/8/3K4/8/8/4P3/8 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        ] {
            positions.push(Position::from_fen(fen, CastlingMode::Standard).unwrap());
        }
        positions
    }

    #[test]
    fn the_factor_undoes_a_known_scaling() {
        let shape = Shape { hidden: 16, buckets: 4, inputs: InputMapping::Plain };
        let parent = Network::random(shape, Activation::Screlu, 3);
        let mut child = parent.clone();
        assert_eq!(apply(&mut child, 1.25), 0);
        let data = dataset();
        let fit = fit(&parent, &child, &data).unwrap();
        assert_eq!(fit.positions, data.len());
        assert!((fit.factor - 0.8).abs() < 1e-5, "{fit:?}");
        for (stm, other, _) in data.gather(&[0, 1, 2, 3, 4], None, InputMapping::Plain, Target::new(0.0)).positions() {
            assert!((child.output(stm, other) - 1.25 * parent.output(stm, other)).abs() < 1e-5);
        }

        // A parent of another size is fine: only the evaluations are compared.
        let other =
            Network::random(Shape { hidden: 8, buckets: 1, inputs: InputMapping::Plain }, Activation::Screlu, 4);
        assert!(fit_is_finite(&other, &child, &data));
    }

    #[test]
    fn each_network_is_judged_through_its_own_inputs() {
        let plain =
            Network::random(Shape { hidden: 16, buckets: 4, inputs: InputMapping::Plain }, Activation::Screlu, 6);
        let shape = Shape { inputs: InputMapping::Mirrored, ..plain.shape() };
        let mirrored = Network::from_params(shape, Activation::Screlu, plain.params().to_vec());
        let (mut parent_sq, mut child_sq) = (0.0f64, 0.0f64);
        for pos in positions() {
            parent_sq += f64::from(plain.float_eval_cp(&pos)).powi(2);
            child_sq += f64::from(mirrored.float_eval_cp(&pos)).powi(2);
        }
        let fit = fit(&plain, &mirrored, &dataset()).unwrap();
        assert_eq!(fit.positions, positions().len());
        let expected = (parent_sq / child_sq).sqrt();
        assert!(
            (fit.factor - expected).abs() < 1e-4 && (fit.factor - 1.0).abs() > 1e-3,
            "{fit:?}, expected {expected}"
        );
    }

    fn fit_is_finite(parent: &Network, child: &Network, data: &Dataset) -> bool {
        fit(parent, child, data).is_some_and(|f| f.factor.is_finite() && f.factor > 0.0)
    }

    #[test]
    fn scaling_keeps_the_clip_and_decided_positions_are_left_out() {
        let shape = Shape { hidden: 8, buckets: 1, inputs: InputMapping::Plain };
        let mut net = Network::random(shape, Activation::Screlu, 5);
        let start = shape.output_start();
        net.params_mut()[start] = 1.5;
        assert_eq!(apply(&mut net, 2.0), 1);
        assert_eq!(net.params()[start], CLIP);
        // The first layer is untouched.
        assert_eq!(net.params()[..start], Network::random(shape, Activation::Screlu, 5).params()[..start]);

        // A child that calls everything won by far: nothing left to fit.
        let mut decided = net.clone();
        let last = decided.params().len() - 1;
        decided.params_mut()[last] = 100.0;
        assert_eq!(fit(&net, &decided, &dataset()), None);
        assert_eq!(fit(&net, &net, &Dataset::new()), None);
    }
}
