//! Match statistics: Elo difference with a 95% confidence interval, and the sequential
//! probability ratio test (SPRT) used to stop a match as soon as the evidence suffices.
//!
//! Both use the trinomial model (each game is a win, draw or loss, scored 1, 1/2, 0) and
//! logistic Elo. The SPRT's log-likelihood ratio is the usual normal approximation of the
//! generalised SPRT (as in fishtest and cutechess): with mean score `s`, per-game variance
//! `v` over `n` games and the scores `s0`, `s1` expected under the hypotheses,
//! `LLR = n (s1 - s0) (2 s - s0 - s1) / (2 v)`.
//!
//! When every game ended alike (all wins, all draws or all losses) the sample variance is
//! zero and both formulas degenerate. The SPRT then counts each outcome never seen as half a
//! game, so a long run of wins still reaches a verdict and a short one does not; the interval
//! is then the Wilson score interval of a binomial, which stays finite on the side away from
//! the extreme (200 wins in 200 games: the lower bound is +687 Elo, the upper unbounded).

/// Wins, draws and losses from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (0..=1).
    pub fn score(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// Per-game variance of the score.
    fn variance(&self) -> f64 {
        let counts = [self.wins as f64, self.draws as f64, self.losses as f64];
        mean_and_variance(counts).1
    }

    /// Elo difference and its 95% interval `(low, high)`. The difference is infinite when a
    /// side scored everything; the interval is then finite on the other side.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        if n == 0.0 {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        }
        let variance = self.variance();
        let (low, high) = if variance > 0.0 {
            let margin = Z95 * (variance / n).sqrt();
            (s - margin, s + margin)
        } else {
            wilson_interval(s, n)
        };
        (elo_from_score(s), elo_from_score(low), elo_from_score(high))
    }

    /// The SPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`); 0 before any game.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        // When every game ended alike, an outcome never seen counts as half a game, so that
        // the results still have a variance and a short run of them is weak evidence (one
        // win alone is not).
        let degenerate = self.variance() == 0.0;
        let regularise = |count: u64| if degenerate && count == 0 { 0.5 } else { count as f64 };
        let counts = [regularise(self.wins), regularise(self.draws), regularise(self.losses)];
        let (score, variance) = mean_and_variance(counts);
        let n: f64 = counts.iter().sum();
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }
}

/// Mean score and per-game variance of `[wins, draws, losses]` counts (which may be
/// fractional).
fn mean_and_variance(counts: [f64; 3]) -> (f64, f64) {
    let n: f64 = counts.iter().sum();
    if n == 0.0 {
        return (0.5, 0.0);
    }
    let [wins, draws, losses] = counts;
    let s = (wins + 0.5 * draws) / n;
    (s, (wins * (1.0 - s).powi(2) + draws * (0.5 - s).powi(2) + losses * s.powi(2)) / n)
}

/// The 95% Wilson score interval of a proportion `p` observed over `n` trials.
fn wilson_interval(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let centre = p + z2 / (2.0 * n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z2 / n;
    ((centre - half) / denominator, (centre + half) / denominator)
}

/// The expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that an expected score `s` corresponds to.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the -0.0 of an even score into 0.0 for printing.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// An SPRT with its hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What an SPRT concludes so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 accepted: the first engine is at least `elo1` stronger (within the error rates).
    H1,
    /// H0 accepted: it is not `elo1` stronger; at most `elo0`.
    H0,
    /// Not yet decided.
    Continue,
}

impl Sprt {
    /// The LLR bounds `(lower, upper)`: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The verdict for a tally.
    pub fn verdict(&self, tally: &Tally) -> Verdict {
        let llr = tally.llr(self.elo0, self.elo1);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        let even = Tally { wins: 10, draws: 20, losses: 10 };
        let (elo, low, high) = even.elo();
        assert!(elo.abs() < 1e-9);
        assert!(low < 0.0 && high > 0.0 && (low + high).abs() < 1e-6);
        // 75% is +190.8 Elo.
        let strong = Tally { wins: 60, draws: 30, losses: 10 };
        assert!((strong.elo().0 - 190.85).abs() < 0.1);
        assert_eq!(Tally { wins: 5, draws: 0, losses: 0 }.elo().0, f64::INFINITY);
    }

    #[test]
    fn interval_shrinks_with_games() {
        let small = Tally { wins: 6, draws: 8, losses: 4 };
        let large = Tally { wins: 600, draws: 800, losses: 400 };
        let width = |t: Tally| t.elo().2 - t.elo().1;
        assert!(width(large) < width(small) / 5.0);
    }

    #[test]
    fn sprt_accepts_and_rejects() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
        assert_eq!(sprt.verdict(&Tally { wins: 10, draws: 10, losses: 10 }), Verdict::Continue);
        assert_eq!(sprt.verdict(&Tally { wins: 1400, draws: 1000, losses: 1000 }), Verdict::H1);
        assert_eq!(sprt.verdict(&Tally { wins: 1000, draws: 1000, losses: 1300 }), Verdict::H0);
        assert_eq!(Tally::default().llr(0.0, 10.0), 0.0);
    }

    #[test]
    fn identical_results_still_decide_and_bound() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        // A clean sweep is decisive evidence; so is losing every game.
        assert_eq!(sprt.verdict(&Tally { wins: 60, draws: 0, losses: 0 }), Verdict::H1);
        assert_eq!(sprt.verdict(&Tally { wins: 0, draws: 0, losses: 60 }), Verdict::H0);
        assert_eq!(sprt.verdict(&Tally { wins: 2, draws: 0, losses: 0 }), Verdict::Continue);
        // Only draws: the score is exactly that of H0, which it favours.
        assert!(Tally { wins: 0, draws: 60, losses: 0 }.llr(0.0, 10.0) < 0.0);

        let (elo, low, high) = Tally { wins: 200, draws: 0, losses: 0 }.elo();
        assert_eq!((elo, high), (f64::INFINITY, f64::INFINITY));
        assert!((low - 686.6).abs() < 0.1, "{low}");
        let (elo, low, high) = Tally { wins: 0, draws: 50, losses: 0 }.elo();
        assert!(elo.abs() < 1e-9 && low < -10.0 && high > 10.0 && (low + high).abs() < 1e-6, "{low} {high}");
        let (_, low, high) = Tally { wins: 0, draws: 0, losses: 30 }.elo();
        assert!(low == f64::NEG_INFINITY && high.is_finite(), "{high}");
    }
}
