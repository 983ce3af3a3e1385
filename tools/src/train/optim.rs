//! AdamW: [`crate::adam`]'s step with decoupled weight decay, and the clipping of every
//! weight to `[-1.98, 1.98]`. One step, for each parameter `p`:
//!
//! ```text
//! p = clamp(p * (1 - lr * wd) - lr * adam_step, -1.98, 1.98)
//! ```

use super::model::CLIP;
use crate::adam;
use rayon::prelude::*;

/// Parameters per parallel task.
const BLOCK: usize = 1 << 14;

/// The optimiser's state: both moments of every parameter and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// First moment (mean of the gradients).
    pub m: Vec<f32>,
    /// Second moment (mean of the squared gradients).
    pub v: Vec<f32>,
    /// Steps taken.
    pub t: u64,
}

impl AdamW {
    /// A fresh optimiser for `n` parameters.
    pub fn new(n: usize) -> AdamW {
        AdamW { m: vec![0.0; n], v: vec![0.0; n], t: 0 }
    }

    /// One step along `grad`, which it leaves zeroed for the next batch; then clips.
    pub fn step(&mut self, params: &mut [f32], grad: &mut [f32], lr: f32, wd: f32) {
        assert!(params.len() == grad.len() && grad.len() == self.m.len(), "optimiser sizes");
        self.t += 1;
        let corrections = adam::corrections::<f32>(self.t);
        let decay = 1.0 - lr * wd;
        params
            .par_chunks_mut(BLOCK)
            .zip(grad.par_chunks_mut(BLOCK))
            .zip(self.m.par_chunks_mut(BLOCK).zip(self.v.par_chunks_mut(BLOCK)))
            .for_each(|((p, g), (m, v))| {
                for k in 0..p.len() {
                    let update = adam::step(&mut m[k], &mut v[k], std::mem::take(&mut g[k]), corrections);
                    p[k] = (p[k] * decay - lr * update).clamp(-CLIP, CLIP);
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_follows_adamw_and_clips() {
        let mut opt = AdamW::new(3);
        let mut params = vec![1.0, -0.5, 1.979];
        let mut grad = vec![0.2, -0.1, -1.0];
        opt.step(&mut params, &mut grad, 0.01, 0.1);
        // First step: m / bc1 = g and v / bc2 = g^2, so the update is sign(g) * lr.
        let decayed = |p: f32| p * (1.0 - 0.01 * 0.1);
        assert!((params[0] - (decayed(1.0) - 0.01)).abs() < 1e-6, "{params:?}");
        assert!((params[1] - (decayed(-0.5) + 0.01)).abs() < 1e-6, "{params:?}");
        assert_eq!(params[2], CLIP);
        assert_eq!(grad, vec![0.0; 3]);
        assert_eq!(opt.t, 1);
    }
}
