//! The SPSA arithmetic, as OpenBench runs it (OpenBench/spsa_utils.py, the server's update
//! in utils.py and the client's delta in Client/worker.py), apart from any game.
//!
//! For a run of `N` iterations with `A = a_ratio · N`, each parameter gets at the start
//! `C = c_end · N^γ` and `a = r_end · c_end² · (A + N)^α`. Iteration `k` (from 1) perturbs
//! it by `c_k = max(C / k^γ, ½ for integers)` with a random sign `f`: the engine θ+ gets
//! `θ + f·c_k`, θ− gets `θ − f·c_k` (integers rounded at random, the same way for both,
//! then clipped to the range). After θ+ and θ− play a pair of games, with `s` = θ+'s wins
//! less its losses, `θ ← clip(θ + r_k · c_k · s · f)` where `r_k = a / (A + k)^α / c_k²`.
//! So the schedule ends at the step `c_end` and learning rate `r_end` the input names.

use super::state::{Schedule, TunerState};
use anyhow::Result;
use tempo_core::opening::SplitMix;
use tempo_uci::{SpsaKind, SpsaParam};

/// Plays θ+ against θ− and says how θ+ did: its wins less its losses. The games are the
/// caller's business (a pair of games with colours swapped, or a synthetic objective).
pub trait PairObjective {
    /// Each side's parameters are `(name, value)` pairs as the engine gets them.
    ///
    /// # Errors
    /// When the games could not be played (an engine that cannot be started).
    fn play_pair(&mut self, plus: &[(String, String)], minus: &[(String, String)]) -> Result<f64>;
}

/// One iteration's perturbation.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration, from 1.
    pub k: u64,
    /// Per parameter: the direction, +1 or −1.
    pub flips: Vec<f64>,
    /// Per parameter: the step `c_k`.
    pub c: Vec<f64>,
    /// Per parameter: the learning rate `r_k`.
    pub r: Vec<f64>,
    /// θ+, as the engine gets it (rounded and clipped).
    pub plus: Vec<f64>,
    /// θ−.
    pub minus: Vec<f64>,
}

impl Schedule {
    /// `C` and `a` of a parameter (fixed for the run).
    fn constants(&self, p: &SpsaParam) -> (f64, f64) {
        let n = self.iterations as f64;
        let big_a = self.a_ratio * n;
        let c = p.c_end * n.powf(self.gamma);
        let a = p.r_end * p.c_end * p.c_end * (big_a + n).powf(self.alpha);
        (c, a)
    }

    /// `c_k` and `r_k` of a parameter at iteration `k` (from 1).
    pub fn at(&self, p: &SpsaParam, k: u64) -> (f64, f64) {
        let (c, a) = self.constants(p);
        let k = k as f64;
        let floor = if p.kind == SpsaKind::Int { 0.5 } else { 0.0 };
        let c_k = (c / k.powf(self.gamma)).max(floor);
        let r_k = a / (self.a_ratio * self.iterations as f64 + k).powf(self.alpha) / (c_k * c_k);
        (c_k, r_k)
    }
}

/// A uniform real in `[0, 1)` from the top 53 bits.
fn unit(rng: &mut SplitMix) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

impl TunerState {
    /// Draws the perturbation of the next iteration.
    pub fn perturb(&mut self) -> Perturbation {
        let k = self.completed + 1;
        let mut rng = SplitMix(self.rng);
        let mut out = Perturbation { k, flips: vec![], c: vec![], r: vec![], plus: vec![], minus: vec![] };
        for p in &self.params {
            let (c_k, r_k) = self.schedule.at(p, k);
            let flip = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
            let (mut plus, mut minus) = (p.value + flip * c_k, p.value - flip * c_k);
            if p.kind == SpsaKind::Int {
                // Probabilistic rounding, one draw for both sides (as OpenBench does), so that
                // on average the engines see exactly θ ± c_k.
                let u = unit(&mut rng);
                plus = (plus + u).floor();
                minus = (minus + u).floor();
            }
            out.flips.push(flip);
            out.c.push(c_k);
            out.r.push(r_k);
            out.plus.push(plus.clamp(p.min, p.max));
            out.minus.push(minus.clamp(p.min, p.max));
        }
        self.rng = rng.0;
        out
    }

    /// Moves θ after the pair played under `perturbation` scored `score` for θ+ (wins less
    /// losses), and counts the iteration.
    pub fn update(&mut self, perturbation: &Perturbation, score: f64) {
        for (i, p) in self.params.iter_mut().enumerate() {
            let delta = perturbation.r[i] * perturbation.c[i] * score * perturbation.flips[i];
            p.value = (p.value + delta).clamp(p.min, p.max);
        }
        self.completed = perturbation.k;
        self.score_sum += score;
    }

    /// One iteration: perturb, play, update. Returns the perturbation and θ+'s score.
    ///
    /// # Errors
    /// When the objective fails (the state is then unchanged but for the random generator).
    pub fn step(&mut self, objective: &mut dyn PairObjective) -> Result<(Perturbation, f64)> {
        let perturbation = self.perturb();
        let engine_values = |values: &[f64]| -> Vec<(String, String)> {
            self.params.iter().zip(values).map(|(p, &v)| (p.name.clone(), p.engine_value(v))).collect()
        };
        let (plus, minus) = (engine_values(&perturbation.plus), engine_values(&perturbation.minus));
        let score = objective.play_pair(&plus, &minus)?;
        self.update(&perturbation, score);
        Ok((perturbation, score))
    }

    /// `true` once every iteration of the run is done.
    pub fn finished(&self) -> bool {
        self.completed >= self.schedule.iterations
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, kind: SpsaKind, value: f64, min: f64, max: f64, c_end: f64, r_end: f64) -> SpsaParam {
        SpsaParam { name: name.into(), kind, value, min, max, c_end, r_end }
    }

    fn schedule(iterations: u64) -> Schedule {
        Schedule { iterations, alpha: 0.602, gamma: 0.101, a_ratio: 0.1 }
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let s = schedule(1000);
        let p = param("x", SpsaKind::Float, 0.0, -100.0, 100.0, 4.0, 0.002);
        let (c, r) = s.at(&p, 1000);
        assert!((c - 4.0).abs() < 1e-9 && (r - 0.002).abs() < 1e-12, "{c} {r}");
        // OpenBench's numbers for k = 1: C = 4 · 1000^0.101, a = 0.002 · 16 · 1100^0.602.
        let (c1, r1) = s.at(&p, 1);
        let big_c = 4.0 * 1000f64.powf(0.101);
        let a = 0.002 * 16.0 * 1100f64.powf(0.602);
        assert!((c1 - big_c).abs() < 1e-9, "{c1}");
        assert!((r1 - a / 101f64.powf(0.602) / (big_c * big_c)).abs() < 1e-12, "{r1}");
        // An integer parameter is never perturbed by less than half a unit.
        let tiny = param("n", SpsaKind::Int, 3.0, 0.0, 6.0, 0.1, 0.002);
        assert_eq!(s.at(&tiny, 1000).0, 0.5);
    }

    #[test]
    fn an_update_moves_each_parameter_along_its_flip() {
        let mut state = TunerState::new(
            vec![
                param("a", SpsaKind::Float, 10.0, 0.0, 20.0, 1.0, 0.5),
                param("b", SpsaKind::Float, 10.0, 0.0, 20.0, 1.0, 0.5),
                param("c", SpsaKind::Float, 19.9, 0.0, 20.0, 1.0, 0.5),
            ],
            schedule(1),
            7,
        );
        let p = Perturbation {
            k: 1,
            flips: vec![1.0, -1.0, 1.0],
            c: vec![2.0, 2.0, 2.0],
            r: vec![0.25, 0.25, 0.25],
            plus: vec![],
            minus: vec![],
        };
        // θ+ won the pair 2-0: each value moves by r·c·2 = 1 towards θ+, within the range.
        state.update(&p, 2.0);
        let values: Vec<f64> = state.params.iter().map(|p| p.value).collect();
        assert_eq!(values, [11.0, 9.0, 20.0]);
        assert_eq!((state.completed, state.score_sum), (1, 2.0));
    }

    #[test]
    fn integer_perturbations_are_whole_and_within_the_range() {
        let mut state = TunerState::new(vec![param("n", SpsaKind::Int, 1.0, 0.0, 10.0, 2.0, 0.002)], schedule(100), 3);
        for _ in 0..200 {
            let p = state.perturb();
            for v in [p.plus[0], p.minus[0]] {
                assert!(v.fract() == 0.0 && (0.0..=10.0).contains(&v), "{v}");
            }
        }
    }

    /// A synthetic objective with a known optimum: each of the pair's two games is won by θ+
    /// with a probability that grows with how much closer to the optimum it is than θ−.
    struct Quadratic {
        optimum: Vec<f64>,
        rng: SplitMix,
    }

    impl Quadratic {
        fn fitness(&self, values: &[(String, String)]) -> f64 {
            let v = values.iter().map(|(_, v)| v.parse::<f64>().unwrap());
            -v.zip(&self.optimum).map(|(v, o)| (v - o) * (v - o)).sum::<f64>()
        }
    }

    impl PairObjective for Quadratic {
        fn play_pair(&mut self, plus: &[(String, String)], minus: &[(String, String)]) -> Result<f64> {
            let edge = (self.fitness(plus) - self.fitness(minus)) / 50.0;
            let p_win = 1.0 / (1.0 + (-edge).exp());
            let games = (0..2).map(|_| if unit(&mut self.rng) < p_win { 1.0 } else { -1.0 });
            Ok(games.sum())
        }
    }

    #[test]
    fn the_driver_converges_on_a_synthetic_objective() {
        let optimum = vec![130.0, 40.0];
        let mut state = TunerState::new(
            vec![
                param("x", SpsaKind::Int, 100.0, 0.0, 200.0, 4.0, 0.02),
                param("y", SpsaKind::Int, 60.0, 0.0, 100.0, 4.0, 0.02),
            ],
            schedule(600),
            42,
        );
        let distance = |s: &TunerState| s.params.iter().zip(&optimum).map(|(p, o)| (p.value - o).abs()).sum::<f64>();
        let start = distance(&state);
        let mut objective = Quadratic { optimum: optimum.clone(), rng: SplitMix::new(1) };
        while !state.finished() {
            state.step(&mut objective).unwrap();
        }
        let end = distance(&state);
        assert_eq!(state.completed, 600);
        assert!(end < start / 5.0, "from {start} to {end}: {:?}", state.params);
    }
}
