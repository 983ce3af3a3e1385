//! Match statistics: Elo difference with a 95% confidence interval, and the sequential
//! probability ratio test (SPRT) used to stop a match as soon as the evidence suffices.
//!
//! Both use the trinomial model (each game is a win, draw or loss, scored 1, 1/2, 0) and
//! logistic Elo. The SPRT's log-likelihood ratio is the usual normal approximation of the
//! generalised SPRT (as in fishtest and cutechess): with mean score `s`, per-game variance
//! `v` over `n` games and the scores `s0`, `s1` expected under the hypotheses,
//! `LLR = n (s1 - s0) (2 s - s0 - s1) / (2 v)`.

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
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2) + self.draws as f64 * (0.5 - s).powi(2) + self.losses as f64 * s.powi(2))
            / n
    }

    /// Elo difference and its 95% interval `(low, high)`; infinite when a side scored
    /// everything.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        let margin = if n > 0.0 { Z95 * (self.variance() / n).sqrt() } else { 0.5 };
        (elo_from_score(s), elo_from_score(s - margin), elo_from_score(s + margin))
    }

    /// The SPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let variance = self.variance();
        if self.games() == 0 || variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        self.games() as f64 * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * variance)
    }
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
        -400.0 * (1.0 / s - 1.0).log10()
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
}
