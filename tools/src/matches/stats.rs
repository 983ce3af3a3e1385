//! Match statistics: Elo difference with a 95% confidence interval, and the sequential
//! probability ratio test (SPRT) used to stop a match as soon as the evidence suffices.
//!
//! Two models, both with logistic Elo. The trinomial one ([`Tally`]) takes each game alone as
//! a win, draw or loss, scored 1, 1/2, 0. The pentanomial one ([`Pentanomial`], as fishtest
//! and OpenBench) takes each game pair (one opening, each engine White once) as one
//! observation scored 0, 1/4, 1/2, 3/4 or 1 per game: the two games of a pair share their
//! opening's bias, so the pairs vary less than the games would alone, and the same games
//! give a narrower interval and a faster SPRT (unbalanced openings make the difference large).
//!
//! The SPRT's log-likelihood ratio is the usual normal approximation of the generalised SPRT
//! (as in fishtest and cutechess): with mean score `s`, variance `v` of one observation over
//! `n` observations and the scores `s0`, `s1` expected under the hypotheses,
//! `LLR = n (s1 - s0) (2 s - s0 - s1) / (2 v)`.
//!
//! When every observation was alike (all wins, all draws or all losses) the sample variance
//! is zero and both formulas degenerate. The SPRT then counts each outcome never seen as half
//! an observation, so a long run of wins still reaches a verdict and a short one does not;
//! the interval is then the Wilson score interval of a binomial over the games, which stays
//! finite on the side away from the extreme (200 wins in 200 games: the lower bound is +687
//! Elo, the upper unbounded).

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

    /// Elo difference and its 95% interval `(low, high)`. The difference is infinite when a
    /// side scored everything; the interval is then finite on the other side.
    pub fn elo(&self) -> (f64, f64, f64) {
        elo_interval(&self.outcomes(), self.games())
    }

    /// Each outcome's score and count.
    fn outcomes(&self) -> [(f64, u64); 3] {
        [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)]
    }
}

/// Game pairs (one opening, each engine White once) counted by the first engine's points in
/// the pair: `counts[k]` pairs scored `k` half-points, from 0 (both games lost) to 4 (both
/// won). A pair of a win and a loss and a pair of two draws both score 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Counts a finished pair, scored `half_points` (0..=4) by the first engine.
    ///
    /// # Panics
    /// If `half_points` is above 4.
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Elo difference and its 95% interval `(low, high)`, as [`Tally::elo`] but from the
    /// pairs.
    pub fn elo(&self) -> (f64, f64, f64) {
        elo_interval(&self.outcomes(), 2 * self.pairs())
    }

    /// The SPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`); 0 before any pair.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        llr(&self.outcomes(), elo0, elo1)
    }

    /// Each pair outcome's score per game and count.
    fn outcomes(&self) -> [(f64, u64); 5] {
        std::array::from_fn(|k| (k as f64 / 4.0, self.counts[k]))
    }
}

/// Elo difference and its 95% interval from observations `(score, count)`, which are made of
/// `games` games in all (for the fallback interval when the observations do not vary).
fn elo_interval(outcomes: &[(f64, u64)], games: u64) -> (f64, f64, f64) {
    let weighted: Vec<(f64, f64)> = outcomes.iter().map(|&(score, count)| (score, count as f64)).collect();
    let n: f64 = weighted.iter().map(|&(_, count)| count).sum();
    if n == 0.0 {
        return (0.0, f64::NEG_INFINITY, f64::INFINITY);
    }
    let (s, variance) = mean_and_variance(&weighted);
    let (low, high) = if variance > 0.0 {
        let margin = Z95 * (variance / n).sqrt();
        (s - margin, s + margin)
    } else {
        wilson_interval(s, games as f64)
    };
    (elo_from_score(s), elo_from_score(low), elo_from_score(high))
}

/// The SPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) from observations
/// `(score, count)`; 0 before any.
fn llr(outcomes: &[(f64, u64)], elo0: f64, elo1: f64) -> f64 {
    let weighted: Vec<(f64, f64)> = outcomes.iter().map(|&(score, count)| (score, count as f64)).collect();
    if weighted.iter().all(|&(_, count)| count == 0.0) {
        return 0.0;
    }
    // When every observation was alike, an outcome never seen counts as half a one, so that
    // the results still have a variance and a short run of them is weak evidence (one win
    // alone is not).
    let regularised: Vec<(f64, f64)> = if mean_and_variance(&weighted).1 == 0.0 {
        weighted.iter().map(|&(score, count)| (score, if count == 0.0 { 0.5 } else { count })).collect()
    } else {
        weighted
    };
    let (score, variance) = mean_and_variance(&regularised);
    let n: f64 = regularised.iter().map(|&(_, count)| count).sum();
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
}

/// Mean score and variance of one observation, from `(score, count)` pairs (counts may be
/// fractional).
fn mean_and_variance(outcomes: &[(f64, f64)]) -> (f64, f64) {
    let n: f64 = outcomes.iter().map(|&(_, count)| count).sum();
    if n == 0.0 {
        return (0.5, 0.0);
    }
    let s = outcomes.iter().map(|&(score, count)| score * count).sum::<f64>() / n;
    (s, outcomes.iter().map(|&(score, count)| count * (score - s).powi(2)).sum::<f64>() / n)
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

    /// The verdict for a log-likelihood ratio.
    pub fn verdict(&self, llr: f64) -> Verdict {
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
        let verdict = |t: Tally| sprt.verdict(llr(&t.outcomes(), sprt.elo0, sprt.elo1));
        assert_eq!(verdict(Tally { wins: 10, draws: 10, losses: 10 }), Verdict::Continue);
        assert_eq!(verdict(Tally { wins: 1400, draws: 1000, losses: 1000 }), Verdict::H1);
        assert_eq!(verdict(Tally { wins: 1000, draws: 1000, losses: 1300 }), Verdict::H0);
        assert_eq!(llr(&Tally::default().outcomes(), 0.0, 10.0), 0.0);
    }

    #[test]
    fn identical_results_still_decide_and_bound() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let verdict = |t: Tally| sprt.verdict(llr(&t.outcomes(), sprt.elo0, sprt.elo1));
        // A clean sweep is decisive evidence; so is losing every game.
        assert_eq!(verdict(Tally { wins: 60, draws: 0, losses: 0 }), Verdict::H1);
        assert_eq!(verdict(Tally { wins: 0, draws: 0, losses: 60 }), Verdict::H0);
        assert_eq!(verdict(Tally { wins: 2, draws: 0, losses: 0 }), Verdict::Continue);
        // Only draws: the score is exactly that of H0, which it favours.
        assert!(llr(&Tally { wins: 0, draws: 60, losses: 0 }.outcomes(), 0.0, 10.0) < 0.0);

        let (elo, low, high) = Tally { wins: 200, draws: 0, losses: 0 }.elo();
        assert_eq!((elo, high), (f64::INFINITY, f64::INFINITY));
        assert!((low - 686.6).abs() < 0.1, "{low}");
        let (elo, low, high) = Tally { wins: 0, draws: 50, losses: 0 }.elo();
        assert!(elo.abs() < 1e-9 && low < -10.0 && high > 10.0 && (low + high).abs() < 1e-6, "{low} {high}");
        let (_, low, high) = Tally { wins: 0, draws: 0, losses: 30 }.elo();
        assert!(low == f64::NEG_INFINITY && high.is_finite(), "{high}");
    }

    #[test]
    fn pentanomial_figures_match_the_formulas() {
        // 45 pairs; mean 0.5222 a game, variance 0.046728 a pair, worked out by hand.
        let pairs = Pentanomial { counts: [1, 10, 20, 12, 2] };
        assert_eq!(pairs.pairs(), 45);
        let (elo, low, high) = pairs.elo();
        assert!((elo - 15.452).abs() < 1e-3 && (low + 28.509).abs() < 1e-3 && (high - 59.916).abs() < 1e-3);
        assert!((pairs.llr(0.0, 10.0) - 0.20822).abs() < 1e-4, "{}", pairs.llr(0.0, 10.0));
        assert_eq!(Pentanomial::default().llr(0.0, 10.0), 0.0);
    }

    #[test]
    fn pairs_that_share_their_openings_bias_give_a_narrower_interval() {
        // 400 games from 200 openings that each favour one colour: most pairs are a win and
        // a loss, which as single games look like coin flips, and as pairs are even.
        let pairs = Pentanomial { counts: [5, 30, 120, 40, 5] };
        // The same games one by one: the 120 even pairs a win and a loss each.
        let games = Tally { wins: 120 + 40 + 2 * 5, draws: 30 + 40, losses: 2 * 5 + 30 + 120 };
        assert_eq!(games.games(), 2 * pairs.pairs());
        let width = |(_, low, high): (f64, f64, f64)| high - low;
        assert!(width(pairs.elo()) < 0.8 * width(games.elo()), "{:?} {:?}", pairs.elo(), games.elo());
        let sprt = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        assert!(pairs.llr(sprt.elo0, sprt.elo1) > llr(&games.outcomes(), sprt.elo0, sprt.elo1));
    }

    #[test]
    fn identical_pairs_still_decide_and_bound() {
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let sweep = Pentanomial { counts: [0, 0, 0, 0, 30] };
        assert_eq!(sprt.verdict(sweep.llr(0.0, 10.0)), Verdict::H1);
        assert_eq!(sprt.verdict(Pentanomial { counts: [30, 0, 0, 0, 0] }.llr(0.0, 10.0)), Verdict::H0);
        assert_eq!(sprt.verdict(Pentanomial { counts: [0, 0, 0, 0, 1] }.llr(0.0, 10.0)), Verdict::Continue);
        let (elo, low, high) = Pentanomial { counts: [0, 0, 0, 0, 100] }.elo();
        assert_eq!((elo, high), (f64::INFINITY, f64::INFINITY));
        assert!((low - 686.6).abs() < 0.1, "{low}");
    }
}
