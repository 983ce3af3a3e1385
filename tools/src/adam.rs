//! Adam (Kingma and Ba), the optimiser of both the evaluation tuner (`tune`, in `f64`) and the
//! network trainer (`train`, in `f32`, with decoupled weight decay and clipping around it):
//! the moment updates and the bias-corrected step of one parameter, written once.
//!
//! For gradient `g` at step `t` (from 1):
//!
//! ```text
//! m = 0.9 m + 0.1 g                 v = 0.999 v + 0.001 g^2
//! step = (m / (1 - 0.9^t)) / (sqrt(v / (1 - 0.999^t)) + 1e-8)
//! ```
//!
//! and the caller moves the parameter by `-learning rate * step`.

use std::ops::{Add, Div, Mul, Sub};

/// The floating-point types Adam runs in: the arithmetic it needs, with every constant
/// rounded to the type first so that `f32` runs compute in `f32` throughout.
pub trait Real: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self> {
    /// The value nearest `x`.
    fn of(x: f64) -> Self;
    /// `self^n`.
    fn powi(self, n: i32) -> Self;
    /// The square root.
    fn sqrt(self) -> Self;
}

impl Real for f32 {
    fn of(x: f64) -> f32 {
        x as f32
    }
    fn powi(self, n: i32) -> f32 {
        f32::powi(self, n)
    }
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
}

impl Real for f64 {
    fn of(x: f64) -> f64 {
        x
    }
    fn powi(self, n: i32) -> f64 {
        f64::powi(self, n)
    }
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;

/// The bias corrections of step `t` (from 1): `(1 - 0.9^t, 1 - 0.999^t)`.
#[inline]
pub fn corrections<F: Real>(t: u64) -> (F, F) {
    let t = t.min(i32::MAX as u64) as i32;
    (F::of(1.0) - F::of(BETA1).powi(t), F::of(1.0) - F::of(BETA2).powi(t))
}

/// Moves the moments `m` and `v` of one parameter by its gradient `g` and returns the
/// parameter's step (before the learning rate), given the step's [`corrections`].
#[inline(always)]
pub fn step<F: Real>(m: &mut F, v: &mut F, g: F, (c1, c2): (F, F)) -> F {
    let (beta1, beta2) = (F::of(BETA1), F::of(BETA2));
    *m = beta1 * *m + (F::of(1.0) - beta1) * g;
    *v = beta2 * *v + (F::of(1.0) - beta2) * g * g;
    (*m / c1) / ((*v / c2).sqrt() + F::of(EPSILON))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_step_is_the_gradients_sign_and_later_ones_average() {
        for g in [0.2f64, -3.0, 1e-3] {
            let (mut m, mut v) = (0.0, 0.0);
            let first = step(&mut m, &mut v, g, corrections(1));
            assert!((first - g.signum()).abs() < 1e-4, "{g}: {first}");
        }
        // A gradient that flips sign every step averages out in m but not in v.
        let (mut m, mut v) = (0.0f32, 0.0f32);
        let mut last = 0.0;
        for t in 1..=100 {
            last = step(&mut m, &mut v, if t % 2 == 0 { 1.0 } else { -1.0 }, corrections(t));
        }
        assert!(last.abs() < 0.1 && v > 0.05, "{last} {v}");
    }
}
