//! Match statistics for paired games: the pentanomial model, Elo with a 95 % interval, and the
//! generalized SPRT.
//!
//! Each opening is played twice with colours reversed; the pair scores 0, ½, 1, 1½ or 2 points for
//! the tested engine. Counting pairs rather than games removes the variance the openings add
//! (a lopsided opening wins one game and loses the other), so the same confidence needs fewer games
//! than the win/draw/loss model. The log-likelihood ratio is fishtest's maximum-likelihood
//! form: for each hypothesis, the pentanomial distribution closest to the observed frequencies
//! whose mean is that hypothesis's expected score, then the ratio of the two likelihoods.

/// Per-game score of each pentanomial outcome (pair points / 2).
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Number of pairs that scored 0, ½, 1, 1½ and 2 points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

/// An Elo estimate with its 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Elo {
    pub elo: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Elo {
    /// Half the width of the interval: the `±` figure.
    pub fn error(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }
}

/// Expected score of a player `elo` points stronger (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference that gives an expected score (0 < score < 1).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Pentanomial {
    /// Adds one pair; `half_points` is the pair's points times two (0..=4).
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean per-game score and the variance of the pair score, or None without pairs.
    pub fn mean_var(&self) -> Option<(f64, f64)> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let mean: f64 = self
            .0
            .iter()
            .zip(PAIR_SCORES)
            .map(|(&c, x)| c as f64 * x)
            .sum::<f64>()
            / n;
        let var: f64 = self
            .0
            .iter()
            .zip(PAIR_SCORES)
            .map(|(&c, x)| c as f64 * (x - mean) * (x - mean))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }

    /// Elo of the mean score, with a 95 % interval from the normal approximation of the mean.
    /// None until the score is strictly between 0 and 1 (an interval needs some spread).
    pub fn elo(&self) -> Option<Elo> {
        let (mean, var) = self.mean_var()?;
        if mean <= 0.0 || mean >= 1.0 {
            return None;
        }
        let half = 1.959964 * (var / self.pairs() as f64).sqrt();
        let clamp = |s: f64| s.clamp(1e-6, 1.0 - 1e-6);
        Some(Elo {
            elo: elo_of_score(mean),
            lo: elo_of_score(clamp(mean - half)),
            hi: elo_of_score(clamp(mean + half)),
        })
    }

    /// Log-likelihood ratio of H1 (Elo difference `elo1`) against H0 (`elo0`), logistic Elo.
    /// Empty outcomes get a tiny weight, as in fishtest, so that a hypothesis outside the observed
    /// range does not make the ratio infinite; 0 until at least two outcomes have occurred.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.0.iter().filter(|&&c| c > 0).count() < 2 {
            return 0.0;
        }
        let counts: Vec<f64> = self
            .0
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let total: f64 = counts.iter().sum();
        let freq: Vec<f64> = counts.iter().map(|c| c / total).collect();
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        let (l0, l1) = (mle_lambda(&freq, s0), mle_lambda(&freq, s1));
        // p_i(s) = f_i / (1 + λ (x_i - s)), so the ratio p_i(s1)/p_i(s0) needs only the denominators.
        counts
            .iter()
            .zip(PAIR_SCORES)
            .map(|(&c, x)| c * ((1.0 + l0 * (x - s0)).ln() - (1.0 + l1 * (x - s1)).ln()))
            .sum()
    }
}

/// The Lagrange multiplier of the maximum-likelihood distribution with mean `s`: the distribution
/// `f_i / (1 + λ (x_i - s))` sums to 1 and has mean `s` exactly when
/// `Σ f_i (x_i - s) / (1 + λ (x_i - s)) = 0`, a decreasing function of λ; bisection finds it.
fn mle_lambda(freq: &[f64], s: f64) -> f64 {
    let g = |l: f64| -> f64 {
        freq.iter()
            .zip(PAIR_SCORES)
            .map(|(&f, x)| f * (x - s) / (1.0 + l * (x - s)))
            .sum()
    };
    // Every denominator must stay positive: λ in (-1/max(x - s), 1/max(s - x)).
    let (dmin, dmax) = (PAIR_SCORES[0] - s, PAIR_SCORES[4] - s);
    let (mut lo, mut hi) = (-1.0 / dmax, -1.0 / dmin);
    let eps = 1e-12 * (hi - lo);
    (lo, hi) = (lo + eps, hi - eps);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// A sequential probability ratio test between two logistic Elo differences.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What an SPRT has concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// H1: the change gains at least about `elo1`.
    Accept,
    /// H0: the change gains at most about `elo0`.
    Reject,
}

impl Default for Sprt {
    fn default() -> Self {
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

impl Sprt {
    /// (lower, upper) LLR bounds: below the lower one H0 is accepted, above the upper one H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Some(Verdict::Accept)
        } else if llr <= lo {
            Some(Verdict::Reject)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn logistic_elo_round_trips() {
        assert!(close(score_of_elo(0.0), 0.5, 1e-12));
        // 400 Elo: ten to one.
        assert!(close(score_of_elo(400.0), 10.0 / 11.0, 1e-12));
        assert!(close(elo_of_score(10.0 / 11.0), 400.0, 1e-9));
        assert!(close(elo_of_score(score_of_elo(-37.5)), -37.5, 1e-9));
    }

    #[test]
    fn sprt_bounds_for_five_percent_errors() {
        let (lo, hi) = Sprt::default().bounds();
        // ln(0.05 / 0.95) and ln(0.95 / 0.05).
        assert!(close(lo, -2.944439, 1e-6));
        assert!(close(hi, 2.944439, 1e-6));
        assert_eq!(Sprt::default().verdict(3.0), Some(Verdict::Accept));
        assert_eq!(Sprt::default().verdict(-3.0), Some(Verdict::Reject));
        assert_eq!(Sprt::default().verdict(0.1), None);
    }

    /// 128 pairs [13, 37, 50, 25, 3]: by hand, mean = 56/128 = 0.4375 and pair variance
    /// 31.875/128 - 0.4375² = 0.0576172; Elo = -400 log10(1/0.4375 - 1) = -43.658; the interval is
    /// 0.4375 ± 1.96 √(0.0576172/128) = [0.395917, 0.479083], i.e. [-73.40, -14.54] Elo.
    #[test]
    fn elo_and_interval_by_hand() {
        let p = Pentanomial([13, 37, 50, 25, 3]);
        let (mean, var) = p.mean_var().unwrap();
        assert!(close(mean, 0.4375, 1e-12));
        assert!(close(var, 0.0576172, 1e-6));
        let e = p.elo().unwrap();
        assert!(close(e.elo, -43.658, 1e-3), "{e:?}");
        assert!(close(e.lo, -73.40, 0.01), "{e:?}");
        assert!(close(e.hi, -14.54, 0.01), "{e:?}");
    }

    /// The same 128 pairs, H0 = 0 and H1 = 2.716 logistic Elo (fishtest's normalized [0, 4] at
    /// this draw ratio): the maximum-likelihood LLR is -0.53772 as fishtest's statistics page gives.
    /// The closed-form normal approximation N (s1 - s0)(2 mean - s0 - s1) / (2 var) gives -0.5596,
    /// and (N/2) ln(var0 / var1) with variances about s0 and s1 gives -0.5219; the exact value lies
    /// between the two.
    #[test]
    fn llr_matches_fishtest() {
        let p = Pentanomial([13, 37, 50, 25, 3]);
        let llr = p.llr(0.0, 2.716);
        assert!(close(llr, -0.53772, 2e-4), "{llr}");
        let (mean, var) = p.mean_var().unwrap();
        let (s0, s1) = (score_of_elo(0.0), score_of_elo(2.716));
        let n = p.pairs() as f64;
        let normal = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let var0 = var + (mean - s0).powi(2);
        let var1 = var + (mean - s1).powi(2);
        let ratio = n / 2.0 * (var0 / var1).ln();
        assert!(close(normal, -0.5596, 1e-3), "{normal}");
        assert!(close(ratio, -0.5219, 1e-3), "{ratio}");
        assert!(llr > normal && llr < ratio);
    }

    #[test]
    fn llr_is_antisymmetric_in_the_hypotheses_and_grows_with_evidence() {
        let p = Pentanomial([10, 40, 60, 50, 20]);
        assert!(close(p.llr(0.0, 5.0), -p.llr(5.0, 0.0), 1e-9));
        assert!(p.llr(0.0, 5.0) > 0.0, "a winning record favours H1");
        let q = Pentanomial([100, 400, 600, 500, 200]);
        assert!(q.llr(0.0, 5.0) > 9.0 * p.llr(0.0, 5.0));
    }

    #[test]
    fn degenerate_records() {
        assert_eq!(Pentanomial::default().llr(0.0, 5.0), 0.0);
        assert_eq!(Pentanomial([0, 0, 7, 0, 0]).llr(0.0, 5.0), 0.0);
        assert!(Pentanomial::default().elo().is_none());
        assert!(Pentanomial([0, 0, 0, 0, 4]).elo().is_none());
        // All pairs drawn: Elo 0 with no spread.
        let e = Pentanomial([0, 0, 5, 0, 0]).elo().unwrap();
        assert!(close(e.elo, 0.0, 1e-9) && close(e.error(), 0.0, 1e-9));
    }
}
