//! Search: iterative deepening PVS alpha-beta over the generic move generator, with a shared
//! lock-free transposition table, quiescence, null move, LMR, aspiration windows, expectimax chance
//! nodes for dice variants and Lazy SMP. Knows no piece and no variant by name.
//!
//! ```no_run
//! use acedrex::{game::Game, position::Position, search::{Engine, Limits}};
//! use std::sync::{Arc, atomic::AtomicBool};
//! let game = Game::new(acedrex::variant::builtin("grant-acedrex").unwrap());
//! let pos = Position::start(&game);
//! let mut engine = Engine::new(16, 1);
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let result = engine.search(&pos, &limits, &Arc::new(AtomicBool::new(false)), &mut |_| {});
//! println!("{}", pos.move_text(result.best.unwrap()));
//! ```

mod checks;
mod see;
mod time;
mod tt;
mod worker;

use crate::eval::EvalTables;
use crate::game::Game;
use crate::position::{Kind, Move, Position, Side};
use crate::variant::{BareKing, DiceNoMove};
use checks::CheckFilter;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tt::Tt;
use worker::{MAX_PLY, Memory, Shared, Worker, score_of};

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
    /// Search until `stop`, even after reaching the depth limit or finding a mate.
    pub infinite: bool,
}

impl Limits {
    /// No depth, node, time or clock limit was given.
    pub fn is_unlimited(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.wtime.is_none()
            && self.btime.is_none()
    }
}

/// A score from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Moves to mate; negative when the side to move is getting mated. Won or lost game ends by
    /// other rules (stalemate, bare king) count as mates too.
    Mate(i32),
}

impl std::fmt::Display for Score {
    /// The UCI form: `cp 35` or `mate -3`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

impl Score {
    /// Centipawns for protocols without mate scores (XBoard): mates as ±(100000 + moves).
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(v) => v,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
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

impl Info {
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.time.as_micros().max(1)) as u64
    }
}

#[derive(Debug, Clone)]
pub struct SearchResult {
    /// None only when the side to move has no legal move (or none for the given roll).
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub nodes: u64,
    /// Last completed iteration (0 when stopped during the first).
    pub depth: u32,
}

/// A search engine: transposition table, thread count, per-game evaluation cache. `Send`, so a
/// front end can run it on a worker thread.
pub struct Engine {
    tt: Tt,
    hash_mb: usize,
    threads: usize,
    cache: Option<(Arc<Game>, Arc<GameData>)>,
    /// Per thread: the history tables of the last search of the cached game.
    memory: Vec<Memory>,
}

/// What the search derives from a game once: evaluation tables and check filters.
struct GameData {
    eval: EvalTables,
    checks: CheckFilter,
}

impl Engine {
    /// `hash_mb`: transposition table size in MB (memory stays within it); `threads`: Lazy SMP
    /// workers (1 = deterministic).
    /// When `hash_mb` cannot be had, the table is 1 MB ([`Engine::hash_mb`] tells).
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        let mut engine = Engine {
            tt: Tt::new(1),
            hash_mb: 1,
            threads: threads.max(1),
            cache: None,
            memory: Vec::new(),
        };
        engine.set_hash(hash_mb);
        engine
    }

    /// The transposition table's size in MB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Resizes the transposition table to `mb` megabytes (1 to 1 TB) and returns the size in
    /// effect: when the memory cannot be had, the old table stays, so that a GUI's hash setting
    /// never kills the engine.
    pub fn set_hash(&mut self, mb: usize) -> usize {
        const MAX_MB: usize = 1 << 20;
        let mb = mb.clamp(1, MAX_MB);
        if mb != self.hash_mb {
            // Ask for the memory fallibly first: `Tt::new` would abort the process on failure.
            let mut probe: Vec<u8> = Vec::new();
            if probe.try_reserve_exact(mb << 20).is_ok() {
                drop(probe);
                self.tt = Tt::new(mb);
                self.hash_mb = mb;
            }
        }
        self.hash_mb
    }

    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Forgets everything learnt (new game): the same search then repeats exactly.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.memory.clear();
    }

    /// Permille of the transposition table in use (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Builds what the engine derives from the position's game (evaluation tables, check filters;
    /// tens of milliseconds), so that the first search of a game does not pay for it.
    pub fn prepare(&mut self, pos: &Position) {
        self.data_for(pos.game());
    }

    /// Evaluation tables and check filters of a game, built once per game.
    fn data_for(&mut self, game: &Arc<Game>) -> Arc<GameData> {
        match &self.cache {
            Some((g, d)) if Arc::ptr_eq(g, game) => d.clone(),
            _ => {
                let d = Arc::new(GameData {
                    eval: EvalTables::new(game),
                    checks: CheckFilter::new(game),
                });
                self.cache = Some((game.clone(), d.clone()));
                // What the tables learnt is about another game's pieces.
                self.memory.clear();
                d
            }
        }
    }

    /// Searches `pos` (with its game history for repetition). `stop` is polled; `on_info` gets one
    /// call per completed iteration. Always returns a legal move when there is one.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.search_roll(pos, None, limits, stop, on_info)
    }

    /// As [`Engine::search`], for a dice variant once the die shows `roll`: only moves of the rolled
    /// piece type are considered at the root (the search below treats later rolls as chance nodes).
    /// `roll: None` searches all legal moves. Returns `best: None` when the roll allows no move.
    pub fn search_roll(
        &mut self,
        pos: &Position,
        roll: Option<u8>,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        let game = pos.game().clone();
        let data = self.data_for(&game);
        self.tt.new_search();
        let mut root = pos.clone();
        let mut root_moves = match roll {
            Some(face) => root.dice_moves(face),
            None => root.legal_moves(),
        };
        // If the search is stopped before it finishes one root move, the first move is the answer:
        // put the hash move first, then captures of the most valuable victims.
        let tt_move = self.tt.probe(root.hash()).and_then(|h| h.mv);
        let victim = |m: &Move| -> i32 {
            if tt_move.is_some_and(|(f, t, p)| m.same_squares(f, t, p)) {
                return i32::MAX;
            }
            let value = |k: Kind| data.eval.value[k.index()];
            root.victims(*m)
                .filter(|v| v.is(!root.side_to_move()))
                .map(|v| value(v.kind()))
                .sum::<i32>()
                + m.promotion().map_or(0, value)
        };
        root_moves.sort_by_key(|m| std::cmp::Reverse(victim(m)));
        if root_moves.is_empty() {
            let n = root.legal_moves().len();
            // The game is over (or the roll allows nothing): no score to search for.
            let score = match root.game_end_with(n) {
                Some(end) if end.winner != crate::rules::Winner::Draw => Score::Mate(0),
                _ => Score::Cp(0),
            };
            return SearchResult {
                best: None,
                ponder: None,
                score,
                nodes: 0,
                depth: 0,
            };
        }
        let men = root.pieces(Side::White).len() + root.pieces(Side::Black).len();
        let (soft, hard) = time::budget(limits, pos.side_to_move(), men);
        let dice = dice_weights(&root);
        let shared = Shared {
            tt: &self.tt,
            et: &data.eval,
            checks: &data.checks,
            stop: AtomicBool::new(false),
            external: stop,
            nodes: AtomicU64::new(0),
            start,
            soft: if limits.infinite { None } else { soft },
            hard: if limits.infinite { None } else { hard },
            node_limit: limits.nodes,
            dice_pass: root.dice_no_move() == DiceNoMove::Pass,
            dice,
            bare_king: game.variant.end.bare_king != BareKing::Off,
            move_count: game.variant.end.move_count,
        };
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32).max(1);
        let threads = self.threads;
        let mut memory = std::mem::take(&mut self.memory);
        memory.resize_with(threads, Memory::new);
        let helpers_memory = memory.split_off(1);
        let main_memory = memory.pop().expect("one table per thread");
        let (best, score, depth, pv, memory) = std::thread::scope(|s| {
            let shared = &shared;
            let helpers: Vec<_> = helpers_memory
                .into_iter()
                .enumerate()
                .map(|(i, mem)| {
                    let (p, moves) = (root.clone(), root_moves.clone());
                    s.spawn(move || {
                        let mut w = Worker::new(p, shared, i + 1, moves, mem);
                        w.iterate(MAX_PLY as u32, None);
                        w.flush_nodes();
                        w.into_memory()
                    })
                })
                .collect();
            let mut w = Worker::new(root.clone(), shared, 0, root_moves.clone(), main_memory);
            let (best, score, depth) = w.iterate(max_depth, Some(on_info));
            // `infinite`: the answer waits for the caller's stop, as UCI and XBoard analysis expect.
            while limits.infinite && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
            shared.stop.store(true, Ordering::Relaxed);
            w.flush_nodes();
            let pv = w.pv();
            let mut memory = vec![w.into_memory()];
            memory.extend(
                helpers
                    .into_iter()
                    .map(|h| h.join().expect("search thread")),
            );
            (best, score, depth, pv, memory)
        });
        self.memory = memory;
        let best = best.or_else(|| root_moves.first().copied());
        let ponder = match pv.as_slice() {
            [m, p, ..] if Some(*m) == best => Some(*p),
            _ => None,
        };
        SearchResult {
            best,
            ponder,
            score: score_of(score),
            nodes: shared.nodes.load(Ordering::Relaxed),
            depth,
        }
    }
}

/// Dice faces grouped by piece type: (type, number of faces showing it).
fn dice_weights(pos: &Position) -> Vec<(Kind, u32)> {
    let mut out: Vec<(Kind, u32)> = Vec::new();
    for (_, ty) in pos.dice_faces() {
        match out.iter_mut().find(|(t, _)| *t == ty) {
            Some(e) => e.1 += 1,
            None => out.push((ty, 1)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>() {}

    #[test]
    fn engine_is_send() {
        assert_send::<Engine>();
    }
}
