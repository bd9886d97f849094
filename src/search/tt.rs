//! The transposition table, shared by all search threads without locks: each entry is two atomic
//! words, the key stored xor-ed with the data, so a torn write (key of one store, data of another)
//! fails the key check instead of returning a wrong entry.

use crate::geometry::{cell_of_index, square_index};
use crate::position::{Kind, Move, MoveKind};
use std::sync::atomic::{AtomicU64, Ordering};

pub const BOUND_UPPER: u8 = 1;
pub const BOUND_LOWER: u8 = 2;
pub const BOUND_EXACT: u8 = 3;
/// The stored static eval of an entry whose eval was not computed exactly (a quiescence node
/// whose lazy evaluation decided without the full terms): the prober evaluates itself.
pub const NO_EVAL: i32 = -2048;

/// Entries per bucket: four 16-byte entries fill one cache line.
const WAYS: usize = 4;

struct Entry {
    key: AtomicU64,
    data: AtomicU64,
}

/// What a probe found.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    /// Hash move: from, to and promotion only (the caller matches it against its move list).
    pub mv: Option<(u16, u16, Option<Kind>)>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: u8,
}

pub struct Tt {
    entries: Vec<Entry>,
    buckets: usize,
    generation: AtomicU64,
}

// Data word: move 26 bits (present 1 | from square 8 | to square 8 | promotion or drop 7) | score 16 |
// eval 12 | generation 2 | depth 6 | bound 2. Squares are board indices (`geometry::square_index`),
// not mailbox cells. Depth is stored + 1 (quiescence entries have depth 0 → 1) and capped at 62; the
// static eval is clamped to ±2047, which only its pruning uses, and −2048 is `NO_EVAL`.
fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: u8, generation: u64) -> u64 {
    let m = mv.map_or(0, |m| {
        1 | (square_index(m.from) as u64) << 1
            | (square_index(m.to) as u64) << 9
            | (m.tag().map_or(0, |k| k.0 as u64 + 1) & 0x7F) << 17
    });
    let score = (score.clamp(-32767, 32767) as i16 as u16) as u64;
    let eval = if eval == NO_EVAL {
        0
    } else {
        (eval.clamp(-2047, 2047) + 2048) as u64 & 0xFFF
    };
    let depth = (depth + 1).clamp(1, 63) as u64;
    m | score << 26 | eval << 42 | (generation & 3) << 54 | depth << 56 | (bound as u64 & 3) << 62
}

fn generation_of(d: u64) -> u64 {
    d >> 54 & 3
}

fn unpack(d: u64) -> Hit {
    let from = cell_of_index((d >> 1 & 0xFF) as u8);
    let to = cell_of_index((d >> 9 & 0xFF) as u8);
    let promo = (d >> 17 & 0x7F) as u8;
    let promo = promo.checked_sub(1).map(Kind);
    Hit {
        mv: (d & 1 != 0).then_some((from, to, promo)),
        score: (d >> 26 & 0xFFFF) as u16 as i16 as i32,
        eval: (d >> 42 & 0xFFF) as i32 - 2048,
        depth: (d >> 56 & 0x3F) as i32 - 1,
        bound: (d >> 62) as u8,
    }
}

impl Tt {
    /// A table of at most `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1) * 1024 * 1024;
        let buckets = (bytes / (WAYS * std::mem::size_of::<Entry>())).max(1);
        let entries = (0..buckets * WAYS)
            .map(|_| Entry {
                key: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect();
        Tt {
            entries,
            buckets,
            generation: AtomicU64::new(0),
        }
    }

    pub fn clear(&self) {
        for e in &self.entries {
            e.key.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any bucket count, not just powers of two.
        ((key as u128 * self.buckets as u128) >> 64) as usize * WAYS
    }

    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.entries[self.bucket(key)] as *const Entry as *const i8;
            // SAFETY: prefetching is a hint; the pointer is in bounds of `entries`.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        for e in &self.entries[b..b + WAYS] {
            let d = e.data.load(Ordering::Relaxed);
            if d != 0 && e.key.load(Ordering::Relaxed) ^ d == key {
                return Some(unpack(d));
            }
        }
        None
    }

    /// Stores a result. Replaces the same position's entry unless that one is much deeper;
    /// otherwise the bucket's shallowest entry, entries of earlier searches first.
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: u8) {
        let generation = self.generation.load(Ordering::Relaxed);
        let b = self.bucket(key);
        let slots = &self.entries[b..b + WAYS];
        let mut victim = 0;
        let mut victim_depth = i32::MAX;
        for (i, e) in slots.iter().enumerate() {
            let d = e.data.load(Ordering::Relaxed);
            if d == 0 {
                victim = i;
                break;
            }
            if e.key.load(Ordering::Relaxed) ^ d == key {
                let old = unpack(d);
                // Keep a deeper exact entry; keep the old move if the new result has none.
                if bound != BOUND_EXACT && old.depth > depth + 2 {
                    return;
                }
                let mv_keep = mv.or_else(|| {
                    old.mv.map(|(from, to, promo)| {
                        Move::new(from, to, MoveKind::Normal).with_promotion(promo)
                    })
                });
                let nd = pack(mv_keep, score, eval, depth, bound, generation);
                e.key.store(key ^ nd, Ordering::Relaxed);
                e.data.store(nd, Ordering::Relaxed);
                return;
            }
            let stale = if generation_of(d) == generation & 3 {
                0
            } else {
                64
            };
            let od = unpack(d).depth - stale;
            if od < victim_depth {
                victim_depth = od;
                victim = i;
            }
        }
        let nd = pack(mv, score, eval, depth, bound, generation);
        slots[victim].key.store(key ^ nd, Ordering::Relaxed);
        slots[victim].data.store(nd, Ordering::Relaxed);
    }

    /// Permille of the first thousand slots used (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        (self.entries[..n]
            .iter()
            .filter(|e| e.data.load(Ordering::Relaxed) != 0)
            .count()
            * 1000
            / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::cell;

    #[test]
    fn pack_round_trip() {
        let (from, to) = (cell(0, 0), cell(15, 15));
        let m = Move::new(from, to, MoveKind::Normal).with_promotion(Some(Kind(63)));
        for (score, eval, depth, bound) in [
            (-29990, -2047, 0, BOUND_UPPER),
            (31000, 2047, 62, BOUND_EXACT),
            (0, 17, 7, BOUND_LOWER),
            (12, NO_EVAL, 0, BOUND_UPPER),
        ] {
            let h = unpack(pack(Some(m), score, eval, depth, bound, 3));
            assert_eq!(h.mv, Some((from, to, Some(Kind(63)))));
            assert_eq!(
                (h.score, h.eval, h.depth, h.bound),
                (score, eval, depth, bound)
            );
        }
    }

    #[test]
    fn store_probe() {
        let tt = Tt::new(1);
        tt.store(0xDEAD_BEEF, None, 55, 40, 3, BOUND_EXACT);
        let h = tt.probe(0xDEAD_BEEF).expect("stored");
        assert_eq!((h.score, h.eval, h.depth, h.mv), (55, 40, 3, None));
        assert!(tt.probe(0xDEAD_BEF0).is_none());
    }
}
