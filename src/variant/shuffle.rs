//! `start-shuffle`: a start that is one arrangement of the back rank, drawn under constraints
//! (Fischer random, Capablanca random). Black's back rank mirrors White's file for file.
//!
//! Arrangements are numbered by a mixed radix, one digit a step, the first step least significant:
//! each `opposite-colours` group in the order written (which half of the group goes on light
//! squares, then the light half's placement, then the dark half's), then each other kind in the
//! order of `LETTERS`, then the `between` kinds together. A step places its pieces on the squares
//! still free, choosing squares in lexicographic order. For chess (`BQNRK opposite-colours B
//! between K R`) this is Scharnagl's numbering: 518 is the orthodox start.

use crate::setup::Setup;
use crate::side::Side;

/// The shuffle of a variant's back rank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shuffle {
    /// The shuffled kinds, in the order of the numbering's steps.
    pub kinds: Vec<char>,
    /// Groups whose pieces stand half on light and half on dark squares (two bishops; queen and
    /// archbishop).
    pub colours: Vec<Vec<char>>,
    /// Every piece of the first kind stands between the first and the last piece of the second
    /// (the king between the rooks).
    pub between: Option<(char, char)>,
    /// White's back-rank files that the shuffled pieces occupy, and the pieces, as in `start`.
    pub files: Vec<u8>,
    pub pieces: Vec<char>,
}

/// Why no arrangement could be given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShuffleError {
    #[error("{0} has no `start-shuffle`: its start is fixed")]
    Fixed(String),
    #[error("start arrangement {0} does not exist: expected 0 to {1}")]
    OutOfRange(u64, u64),
}

impl super::Variant {
    /// The start position of arrangement `n` of the variant's `start-shuffle`.
    pub fn start_arrangement(&self, n: u64) -> Result<Setup, ShuffleError> {
        match &self.shuffle {
            Some(s) => s.start(&self.start, n),
            None => Err(ShuffleError::Fixed(self.name.clone())),
        }
    }

    /// A start drawn from `seed` (uniform over the arrangements; `start` when the start is fixed).
    pub fn random_start(&self, seed: u64) -> Setup {
        let Some(s) = &self.shuffle else {
            return self.start.clone();
        };
        // SplitMix64: a fixed, portable draw from the seed.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        s.start(&self.start, z % s.count()).expect("in range")
    }
}

/// One placement: (file, letter) pairs.
type Placement = Vec<(u8, char)>;

impl Shuffle {
    /// How many arrangements there are (960 for chess).
    pub fn count(&self) -> u64 {
        self.steps().iter().map(|s| s.len() as u64).product()
    }

    /// The back rank of arrangement `n`, as (file, letter) for each shuffled piece, sorted by file.
    pub fn arrangement(&self, n: u64) -> Result<Placement, ShuffleError> {
        let total = self.count();
        if n >= total {
            return Err(ShuffleError::OutOfRange(n, total.saturating_sub(1)));
        }
        let mut free = self.files.clone();
        let mut rest = n;
        let mut out: Placement = Vec::new();
        for step in self.step_pieces() {
            let options = step.options(&free);
            let k = (rest % options.len() as u64) as usize;
            rest /= options.len() as u64;
            for &(f, c) in &options[k] {
                free.retain(|&g| g != f);
                out.push((f, c));
            }
        }
        out.sort_unstable();
        Ok(out)
    }

    /// The number of the arrangement a setup's White back rank shows, if it is one.
    pub fn number_of(&self, setup: &Setup) -> Option<u64> {
        let rank: Placement = self
            .files
            .iter()
            .map(|&f| setup.get((f, 0)).map(|p| (f, p.letter)))
            .collect::<Option<_>>()?;
        let mut free = self.files.clone();
        let (mut n, mut scale) = (0u64, 1u64);
        for step in self.step_pieces() {
            let options = step.options(&free);
            let k = options.iter().position(|o| {
                o.iter()
                    .all(|&(f, c)| rank.iter().any(|&(g, d)| (g, d) == (f, c)))
            })?;
            n += k as u64 * scale;
            scale *= options.len() as u64;
            free.retain(|f| !options[k].iter().any(|&(g, _)| g == *f));
        }
        Some(n)
    }

    /// `start` with its back ranks set to arrangement `n`: White's as drawn, Black's its mirror.
    pub fn start(&self, start: &Setup, n: u64) -> Result<Setup, ShuffleError> {
        let placement = self.arrangement(n)?;
        let mut s = start.clone();
        let top = s.rows.len() as u8 - 1;
        for (f, c) in placement {
            s.put((f, 0), Side::White, c);
            s.put((f, top), Side::Black, c);
        }
        Ok(s)
    }

    /// The options of each step from the start's free squares (their sizes are the radices).
    fn steps(&self) -> Vec<Vec<Placement>> {
        let mut free = self.files.clone();
        let mut all = Vec::new();
        for step in self.step_pieces() {
            let options = step.options(&free);
            if let Some(first) = options.first() {
                free.retain(|f| !first.iter().any(|&(g, _)| g == *f));
            }
            all.push(options);
        }
        all
    }

    fn step_pieces(&self) -> Vec<Step> {
        let of = |kinds: &[char]| -> Vec<char> {
            self.pieces
                .iter()
                .copied()
                .filter(|c| kinds.contains(c))
                .collect()
        };
        let mut steps: Vec<Step> = self
            .colours
            .iter()
            .map(|g| Step::Colours(g.iter().flat_map(|&k| of(&[k])).collect()))
            .collect();
        let grouped = |k: &char| {
            self.colours.iter().any(|g| g.contains(k))
                || self.between.is_some_and(|(a, b)| *k == a || *k == b)
        };
        for k in self.kinds.iter().filter(|k| !grouped(k)) {
            steps.push(Step::Plain(of(&[*k])));
        }
        if let Some((inner, outer)) = self.between {
            let mut pieces = of(&[inner]);
            pieces.extend(of(&[outer]));
            steps.push(Step::Between(pieces, inner, outer));
        }
        steps
    }
}

/// One step of the numbering and the pieces it places.
enum Step {
    Colours(Vec<char>),
    Plain(Vec<char>),
    Between(Vec<char>, char, char),
}

impl Step {
    /// Every placement of this step's pieces on `free` (files in increasing order), in the
    /// numbering's order.
    fn options(&self, free: &[u8]) -> Vec<Placement> {
        match self {
            Step::Plain(pieces) => arrangements(pieces, free),
            Step::Between(pieces, inner, outer) => arrangements(pieces, free)
                .into_iter()
                .filter(|p| {
                    let files = |k: char| p.iter().filter(move |x| x.1 == k).map(|x| x.0);
                    let (lo, hi) = (files(*outer).min(), files(*outer).max());
                    files(*inner)
                        .all(|f| lo.is_some_and(|lo| lo < f) && hi.is_some_and(|hi| f < hi))
                })
                .collect(),
            Step::Colours(pieces) => {
                // Light squares on the first rank: a1 is dark, so the odd files (b, d, ...).
                let light: Vec<u8> = free.iter().copied().filter(|f| f % 2 == 1).collect();
                let dark: Vec<u8> = free.iter().copied().filter(|f| f % 2 == 0).collect();
                let mut out = Vec::new();
                for (on_light, on_dark) in halves(pieces) {
                    let ls = arrangements(&on_light, &light);
                    let ds = arrangements(&on_dark, &dark);
                    let mut these: Vec<Placement> = Vec::new();
                    for d in &ds {
                        for l in &ls {
                            these.push(l.iter().chain(d).copied().collect());
                        }
                    }
                    out.push(these);
                }
                // The split is the least significant digit, then light, then dark.
                let per = out.first().map_or(0, Vec::len);
                let mut flat = Vec::new();
                for i in 0..per {
                    for split in &out {
                        flat.push(split[i].clone());
                    }
                }
                flat
            }
        }
    }
}

/// The distinct ways to put half of `pieces` on light squares and the rest on dark ones, in the
/// order of the pieces as written.
fn halves(pieces: &[char]) -> Vec<(Vec<char>, Vec<char>)> {
    let n = pieces.len();
    let mut out: Vec<(Vec<char>, Vec<char>)> = Vec::new();
    for chosen in combinations(n, n / 2) {
        let light: Vec<char> = chosen.iter().map(|&i| pieces[i]).collect();
        let dark: Vec<char> = (0..n)
            .filter(|i| !chosen.contains(i))
            .map(|i| pieces[i])
            .collect();
        let key = |v: &[char]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v
        };
        if !out.iter().any(|(l, _)| key(l) == key(&light)) {
            out.push((light, dark));
        }
    }
    out
}

/// Every placement of `pieces` on `squares`: kind by kind in the order the kinds first appear,
/// each kind's squares a combination in lexicographic order; the first kind varies fastest.
fn arrangements(pieces: &[char], squares: &[u8]) -> Vec<Placement> {
    let mut kinds: Vec<char> = Vec::new();
    for &c in pieces {
        if !kinds.contains(&c) {
            kinds.push(c);
        }
    }
    let mut out: Vec<Placement> = vec![Vec::new()];
    for k in kinds {
        let count = pieces.iter().filter(|&&c| c == k).count();
        let mut next = Vec::new();
        // Earlier kinds vary fastest: the new kind's choice is the outer loop.
        let mut by_choice: Vec<Vec<Placement>> = Vec::new();
        for p in &out {
            let free: Vec<u8> = squares
                .iter()
                .copied()
                .filter(|f| !p.iter().any(|&(g, _)| g == *f))
                .collect();
            let mut mine = Vec::new();
            for combo in combinations(free.len(), count) {
                let mut q = p.clone();
                q.extend(combo.iter().map(|&i| (free[i], k)));
                mine.push(q);
            }
            by_choice.push(mine);
        }
        let per = by_choice.first().map_or(0, Vec::len);
        for i in 0..per {
            for choices in &by_choice {
                next.push(choices[i].clone());
            }
        }
        out = next;
    }
    out
}

/// The `k`-element subsets of `0..n` in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = Vec::with_capacity(k);
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    go(0, n, k, &mut cur, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> Shuffle {
        Shuffle {
            kinds: "BQNRK".chars().collect(),
            colours: vec![vec!['B']],
            between: Some(('K', 'R')),
            files: (0..8).collect(),
            pieces: "RNBQKBNR".chars().collect(),
        }
    }

    fn rank(p: &Placement) -> String {
        p.iter().map(|x| x.1).collect()
    }

    #[test]
    fn chess_has_scharnagl_numbers() {
        let s = chess();
        assert_eq!(s.count(), 960);
        assert_eq!(rank(&s.arrangement(518).unwrap()), "RNBQKBNR");
        assert_eq!(rank(&s.arrangement(0).unwrap()), "BBQNNRKR");
        assert_eq!(rank(&s.arrangement(959).unwrap()), "RKRNNQBB");
        assert!(s.arrangement(960).is_err());
        let start =
            Setup::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert_eq!(s.number_of(&start), Some(518));
    }

    #[test]
    fn every_arrangement_keeps_the_rules_and_numbers_back() {
        let s = chess();
        let start =
            Setup::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for n in 0..960 {
            let p = s.arrangement(n).unwrap();
            let r = rank(&p);
            assert!(seen.insert(r.clone()), "{n}: {r} twice");
            let b: Vec<usize> = r.match_indices('B').map(|x| x.0).collect();
            assert_ne!(b[0] % 2, b[1] % 2, "{r}");
            let (k, r1, r2) = (
                r.find('K').unwrap(),
                r.find('R').unwrap(),
                r.rfind('R').unwrap(),
            );
            assert!(r1 < k && k < r2, "{r}");
            let shuffled = s.start(&start, n).unwrap();
            assert_eq!(s.number_of(&shuffled), Some(n));
        }
    }

    #[test]
    fn capablanca_random_counts_queen_and_archbishop_colours() {
        let s = Shuffle {
            kinds: "BQACNRK".chars().collect(),
            colours: vec![vec!['B'], vec!['Q', 'A']],
            between: Some(('K', 'R')),
            files: (0..10).collect(),
            pieces: "RNABQKBCNR".chars().collect(),
        };
        // Bishops 5 x 5, queen and archbishop 2 x 4 x 4, chancellor 6, knights 10.
        assert_eq!(s.count(), 48_000);
        for n in [0, 1, 2, 12_345, 47_999] {
            let r = rank(&s.arrangement(n).unwrap());
            let q = r.find('Q').unwrap();
            let a = r.find('A').unwrap();
            assert_ne!(q % 2, a % 2, "{r}");
        }
    }
}
