//! Shared by the fuzz targets: the built-in games (compiled once per process) and the structured
//! generator of protocol sessions.

pub mod session;

use acedrex::game::Game;
use std::sync::{Arc, OnceLock};

/// Every built-in variant, compiled once: building tables per input would dominate the run time.
pub fn games() -> &'static [Arc<Game>] {
    static GAMES: OnceLock<Vec<Arc<Game>>> = OnceLock::new();
    GAMES.get_or_init(|| {
        acedrex::variant::builtin_names()
            .into_iter()
            .map(|n| {
                let v = acedrex::variant::builtin(n).expect("built-in variant loads");
                Game::new(v)
            })
            .collect()
    })
}

/// A built-in game chosen by one byte of the input.
pub fn game(selector: u8) -> &'static Arc<Game> {
    let g = games();
    &g[usize::from(selector) % g.len()]
}

/// A generous bound on the walks the step compiler enumerates for a piece on a `side`×`side`
/// board: per leg, 8 directions times the squares it may slide (a hopping leg, `p` or `g`, slides
/// to its screen).
///
/// The compiler enumerates every walk, so a chain of sliding legs costs (8·side)^legs: `WpaaQ` and
/// `gaaaN` take seconds on 16×16 and `WpaaaaQ` runs out of memory (tests/fuzz_regressions.rs,
/// `betza_chain_of_sliders_*`). Inputs above the bound skip compilation so that fuzzing can go on
/// past that known cost.
pub fn walk_bound(b: &acedrex::betza::Betza, side: u64) -> u64 {
    use acedrex::betza::{Modality, Move, Prefix, Range};
    let reach = |atom: acedrex::betza::Atom, r: Range, leg: &Prefix| -> u64 {
        let hops = leg.has(Modality::P) || leg.has(Modality::G);
        match r {
            _ if hops => side,
            Range::Count(0) | Range::Doubled => side,
            Range::Count(n) => u64::from(n).min(side),
            Range::Default if atom.slides_by_default() => side,
            Range::Default => 1,
        }
    };
    b.moves
        .iter()
        .map(|m| match m {
            Move::Chain(c) => c
                .legs
                .iter()
                .map(|l| 8 * reach(c.atom, c.range, l))
                .fold(1u64, u64::saturating_mul),
            Move::Bracket(br) => br
                .legs
                .iter()
                .map(|l| 8 * reach(l.atom, l.range, &l.prefix))
                .fold(1u64, u64::saturating_mul),
        })
        .fold(0u64, u64::saturating_add)
}

/// Walk bound above which an input is not compiled.
pub const WALK_LIMIT: u64 = 4_000;
