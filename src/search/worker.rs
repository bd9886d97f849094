//! One search thread: iterative deepening over a PVS alpha-beta with quiescence, and expectimax
//! chance nodes for dice variants. Several workers share one transposition table (Lazy SMP).

use super::checks::CheckFilter;
use super::see;
use super::tt::{BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, NO_EVAL, Tt};
use super::{Info, Score};
use crate::eval::{EvalState, EvalTables, LAZY_MARGIN};
use crate::position::{Kind, Move, MoveKind, Position};
use crate::rules::{GameEnd, Winner};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub const MAX_PLY: usize = 96;
pub const INF: i32 = 32000;
pub const MATE: i32 = 31000;
/// Scores beyond this are mates (or won/lost game ends) in at most `MAX_PLY` plies.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Values inside dice averages are clamped to this (a forced mate behind a roll counts as a
/// very large advantage, not as a mate).
const CHANCE_BOUND: i32 = 4000;

const NO_MOVE: Move = Move::new(0, 0, MoveKind::Normal);
/// First board cell (a1) and the cells up to p16: history is indexed by `to - BASE`.
const BASE: u16 = crate::geometry::cell(0, 0);
const SPAN: usize = (crate::geometry::cell(15, 15) - BASE + 1) as usize;
const HISTORY_MAX: i32 = 16384;
/// Correction history: entries per side, indexed by the pawn structure's key.
const CORR_SIZE: usize = 16384;
/// Corrections are kept in 1/`CORR_GRAIN` centipawns.
const CORR_GRAIN: i32 = 256;
/// The most a search result may move its entry's target away from the static eval.
const CORR_LIMIT: i32 = 400;

/// Ordering score bands.
const SCORE_HASH: i32 = 1 << 30;
/// Lifts the tactical scores above `SCORE_GOOD_TACTICAL` by more than the capture history can
/// take off them (`HISTORY_MAX / 8`).
const CAPTURE_ORDER_OFFSET: i32 = HISTORY_MAX / 4;
/// A ply whose static eval is unknown (in check, or a chance node).
const NO_STATIC_EVAL: i32 = i32::MIN;
const SCORE_GOOD_TACTICAL: i32 = 1 << 26;
const SCORE_KILLER: i32 = 1 << 25;
/// The quiet move that last refuted the previous move, just below the killers.
const SCORE_COUNTER: i32 = SCORE_KILLER - 1;
/// Captures that lose material in the exchange come after every quiet move (history scores stay
/// within ±`HISTORY_MAX`).
const SCORE_BAD_CAPTURE: i32 = -(1 << 24);
/// Quiet moves to a square where the exchange loses the mover, after the other quiet moves and
/// before the losing captures.
const SCORE_BAD_QUIET: i32 = -(1 << 22);

/// Exchange pruning: at most this depth, a capture or check losing more than
/// `SEE_MARGIN_TACTICAL × depth` and a quiet move losing more than `SEE_MARGIN_QUIET × depth²`
/// in the exchange is not searched.
const SEE_PRUNE_DEPTH: i32 = 7;
const SEE_MARGIN_TACTICAL: i32 = 150;
const SEE_MARGIN_QUIET: i32 = 30;

/// What all workers of one search share.
pub struct Shared<'a> {
    pub tt: &'a Tt,
    pub et: &'a EvalTables,
    pub checks: &'a CheckFilter,
    /// Set by the main worker when it finishes, or when a limit is hit: every worker stops.
    pub stop: AtomicBool,
    /// The caller's stop flag.
    pub external: &'a AtomicBool,
    pub nodes: AtomicU64,
    pub start: Instant,
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
    pub node_limit: Option<u64>,
    /// Dice: (piece kind, faces showing it); empty without dice.
    pub dice: Vec<(Kind, u32)>,
    pub dice_pass: bool,
    pub bare_king: bool,
    pub move_count: Option<u16>,
}

/// What a worker learns about move ordering that stays useful for the next search of the same
/// game: the history table. The engine keeps one per thread between searches.
pub struct Memory {
    history: Vec<i32>,
    /// As `history`, for captures and promotions.
    captures: Vec<i32>,
    /// Per side and pawn structure: how far the searches found the static eval off.
    correction: Vec<i32>,
}

impl Memory {
    pub fn new() -> Memory {
        Memory {
            history: vec![0; 2 * Kind::MAX * SPAN],
            captures: vec![0; 2 * Kind::MAX * SPAN],
            correction: vec![0; 2 * CORR_SIZE],
        }
    }
}

impl Default for Memory {
    fn default() -> Self {
        Memory::new()
    }
}

/// One search thread's state.
pub struct Worker<'a> {
    pub pos: Position,
    sh: &'a Shared<'a>,
    pub id: usize,
    pub nodes: u64,
    /// Nodes not yet added to `sh.nodes`.
    pending: u64,
    pub seldepth: usize,
    pub stopped: bool,
    /// Per (side, kind, destination) of a move: the quiet move that refuted it.
    counters: Vec<Move>,
    /// The move made at each ply (`NO_MOVE` for a null move), for the counter moves.
    stack: Vec<Move>,
    /// The exchange evaluation can follow this game's attacks.
    see_ok: bool,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    captures: Vec<i32>,
    correction: Vec<i32>,
    moves: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    scratch: Vec<Move>,
    /// Per ply: the position's hash and its legality context.
    legality: Vec<(u64, crate::movegen::Legality)>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Legal root moves (those of the roll in a dice game).
    pub root_moves: Vec<Move>,
    /// Best root move of the iteration in progress, once one has been searched fully.
    pub root_best: Option<(Move, i32)>,
    lmr: Vec<[u8; 64]>,
    /// Evaluation terms per ply, updated move by move.
    evals: Vec<EvalState>,
    sort_buf: Vec<(i32, Move)>,
    /// Nodes spent under each root move (indexed as `root_moves`) in this search.
    root_nodes: Vec<u64>,
    /// Per ply: the corrected static eval, `NO_STATIC_EVAL` when in check (for `improving`).
    static_evals: Vec<i32>,
}

/// Moves a history entry by `bonus`, the less the nearer it already is to ±`HISTORY_MAX`.
#[inline]
fn add_history(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// Internal score to the API's.
pub fn score_of(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        // Rounded like the wins: a loss on the side's own move (anti-chess) is `mate -1`, not 0.
        Score::Mate(-(MATE + v + 1) / 2)
    } else {
        Score::Cp(v)
    }
}

impl<'a> Worker<'a> {
    pub fn new(
        pos: Position,
        sh: &'a Shared<'a>,
        id: usize,
        root_moves: Vec<Move>,
        memory: Memory,
    ) -> Worker<'a> {
        let lmr = (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (m, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
                    }
                }
                row
            })
            .collect();
        Worker {
            sh,
            id,
            nodes: 0,
            pending: 0,
            seldepth: 0,
            stopped: false,
            killers: vec![[NO_MOVE; 2]; MAX_PLY + 2],
            counters: vec![NO_MOVE; 2 * Kind::MAX * SPAN],
            stack: vec![NO_MOVE; MAX_PLY + 2],
            see_ok: see::available(&pos),
            history: memory.history,
            captures: memory.captures,
            correction: memory.correction,
            moves: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(256)).collect(),
            scores: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(256)).collect(),
            scratch: Vec::with_capacity(64),
            legality: vec![(0, crate::movegen::Legality::default()); MAX_PLY + 2],
            pv: vec![[NO_MOVE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves,
            root_best: None,
            lmr,
            evals: {
                let mut v = vec![EvalState::default(); MAX_PLY + 2];
                v[0] = sh.et.state(&pos);
                v
            },
            pos,
            sort_buf: Vec::with_capacity(256),
            root_nodes: Vec::new(),
            static_evals: vec![NO_STATIC_EVAL; MAX_PLY + 2],
        }
    }

    /// The tables to keep for the next search.
    pub fn into_memory(self) -> Memory {
        Memory {
            history: self.history,
            captures: self.captures,
            correction: self.correction,
        }
    }

    pub fn pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    /// Counts a node and, every 1024 nodes, looks at the clock and the stop flags.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.pending += 1;
        if let Some(limit) = self.sh.node_limit
            && self.sh.nodes.load(Ordering::Relaxed) + self.pending >= limit
        {
            self.sh.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
        if self.pending >= 1024 {
            self.sh.nodes.fetch_add(self.pending, Ordering::Relaxed);
            self.pending = 0;
            self.poll();
        }
    }

    fn poll(&mut self) {
        if self.sh.external.load(Ordering::Relaxed) {
            self.sh.stop.store(true, Ordering::Relaxed);
        }
        if self.id == 0
            && let Some(hard) = self.sh.hard
            && self.sh.start.elapsed() >= hard
        {
            self.sh.stop.store(true, Ordering::Relaxed);
        }
        if self.sh.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// Adds this worker's uncounted nodes to the shared total.
    pub fn flush_nodes(&mut self) {
        self.sh.nodes.fetch_add(self.pending, Ordering::Relaxed);
        self.pending = 0;
    }

    /// Score of a finished game for the side to move.
    fn end_score(&self, end: GameEnd, ply: usize) -> i32 {
        let stm_white = self.pos.side_to_move() == crate::position::Side::White;
        match end.winner {
            Winner::Draw => 0,
            Winner::White if stm_white => MATE - ply as i32,
            Winner::Black if !stm_white => MATE - ply as i32,
            _ => -(MATE - ply as i32),
        }
    }

    /// Is there any legal move? (Stops at the first.)
    fn has_legal_move(&mut self) -> bool {
        let mut list = std::mem::take(&mut self.scratch);
        list.clear();
        self.pos.pseudo_moves(&mut list);
        let any = list.iter().any(|&m| self.pos.is_legal(m));
        self.scratch = list;
        any
    }

    /// The bare-king rule, checked only when a side has nothing but royal pieces left.
    fn bare_king_end(&mut self, ply: usize) -> Option<i32> {
        let nonroyal = self.evals[ply].nonroyal;
        if !self.sh.bare_king || (nonroyal[0] != 0 && nonroyal[1] != 0) {
            return None;
        }
        let n = usize::from(self.has_legal_move());
        self.pos.game_end_with(n).map(|e| self.end_score(e, ply))
    }

    /// Makes `m` if it is legal; returns false (position unchanged) otherwise. `in_check`: the side
    /// to move is in check now. Brings the evaluation terms of ply + 1 up to date.
    #[inline]
    fn make_legal(&mut self, m: Move, in_check: bool, ply: usize) -> bool {
        let side = self.pos.side_to_move();
        let royal = self.pos.royal_square(side);
        let moved = self.pos.mover(m);
        if self.pos.full_legality() {
            // Several royal pieces, or giving check forbidden: the general test.
            if !self.pos.is_legal(m) {
                return false;
            }
            self.pos.make(m);
        } else if royal != 0
            && (m.kind() == MoveKind::Castle
                || (m.is_initial() && m.from == royal)
                || (in_check && m.from == royal && self.pos.game().tables.royal_takes_checker))
        {
            // Castling, safe royal initial moves and a royal's moves under `royal-in-check
            // takes-checker` have extra conditions: the generator's check.
            if !self.pos.is_legal(m) {
                return false;
            }
            self.pos.make(m);
        } else {
            // The node's legality context (made once per node, on its first move) says which moves
            // could expose the royal piece; only those are tested after the move.
            let needs_test = in_check || {
                let key = self.pos.hash();
                if self.legality[ply].0 != key {
                    self.legality[ply] = (key, self.pos.legality());
                }
                self.legality[ply].1.needs_test(m, royal)
            };
            self.pos.make(m);
            let royal = self.pos.royal_square(side);
            if royal != 0 && needs_test && self.pos.attacked(royal, !side) {
                self.pos.unmake();
                return false;
            }
        }
        self.evals[ply + 1] = self.sh.et.update(&self.pos, &self.evals[ply], m, moved);
        true
    }

    /// Static evaluation at `ply` (its terms are up to date).
    #[inline]
    fn evaluate(&self, ply: usize) -> i32 {
        self.sh.et.finish(&self.pos, &self.evals[ply])
    }

    /// Static evaluation where only its side of the window (alpha, beta) matters: far outside
    /// it, the cheap part alone decides. Also says whether the value is the exact evaluation.
    #[inline]
    fn evaluate_lazy(&self, ply: usize, alpha: i32, beta: i32) -> (i32, bool) {
        let (cheap, lazy) = self.sh.et.finish_lazy(&self.pos, &self.evals[ply]);
        if cheap - LAZY_MARGIN >= beta || cheap + LAZY_MARGIN <= alpha {
            return (cheap, false);
        }
        let full = self.sh.et.finish_walked(&self.pos, &self.evals[ply], lazy);
        (full, true)
    }

    /// The correction history's slot for the position at `ply`.
    #[inline]
    fn corr_index(&self, ply: usize) -> usize {
        let side = self.pos.side_to_move().index();
        side * CORR_SIZE + (self.evals[ply].pawn_key as usize & (CORR_SIZE - 1))
    }

    /// The static eval `raw` corrected by what earlier searches of this pawn structure found.
    #[inline]
    fn corrected(&self, ply: usize, raw: i32) -> i32 {
        (raw + self.correction[self.corr_index(ply)] / CORR_GRAIN)
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the correction of the position at `ply` toward `result − raw`, by a weight growing
    /// with the depth of the search that found it.
    #[inline]
    fn update_correction(&mut self, ply: usize, depth: i32, raw: i32, result: i32) {
        let i = self.corr_index(ply);
        let target = (result - raw).clamp(-CORR_LIMIT, CORR_LIMIT) * CORR_GRAIN;
        let w = (depth + 1).min(16);
        let c = &mut self.correction[i];
        *c = (*c * (256 - w) + target * w) / 256;
    }

    /// After `m` was made: is the side to move now in check?
    #[inline]
    fn gives_check(&self, m: Move) -> bool {
        let mover = !self.pos.side_to_move();
        let target = self.pos.royal_square(!mover);
        self.sh.checks.may_check(&self.pos, m, target, mover) && self.pos.in_check()
    }

    fn hist_index(&self, m: Move) -> usize {
        let side = self.pos.side_to_move().index();
        let ty = self.pos.mover(m).kind().index();
        (side * Kind::MAX + ty) * SPAN + (m.to - BASE) as usize
    }

    /// Ordering value of a tactical move: MVV-LVA plus promotion gain.
    fn tactical_score(&self, m: Move) -> i32 {
        let (victim, attacker, promo) = self.trade(m);
        // The capture history moves a capture past others of up to about a pawn and a third more
        // (or less) gain; the offset keeps every score inside the band.
        SCORE_GOOD_TACTICAL + CAPTURE_ORDER_OFFSET + victim * 16 + promo * 16 - attacker / 16
            + self.captures[self.hist_index(m)] / 8
    }

    /// (victim value, attacker value with royal pieces as 0, promotion gain) of a move.
    #[inline]
    fn trade(&self, m: Move) -> (i32, i32, i32) {
        let et = self.sh.et;
        let victim = self
            .pos
            .victims(m)
            .map(|v| et.value[v.kind().index()])
            .sum();
        let attacker_ty = self.pos.mover(m).kind().index();
        let attacker = if et.royal[attacker_ty] {
            0
        } else {
            et.value[attacker_ty]
        };
        let promo = m.promotion().map_or(0, |t| et.value[t.index()] - attacker);
        (victim, attacker, promo)
    }

    /// Does the capture lose material? By the exchange on its square where it can be followed,
    /// else by "a more valuable piece takes a defended one". A capture of a piece worth at least
    /// the capturer never loses.
    #[inline]
    fn loses_material(&self, m: Move) -> bool {
        let (victim, attacker, promo) = self.trade(m);
        if promo != 0 || attacker <= victim {
            return false;
        }
        if self.see_ok
            && let Some(v) = see::see(&self.pos, self.sh.et, m)
        {
            return v < 0;
        }
        attacker > victim + 50 && self.pos.attacked(m.to, !self.pos.side_to_move())
    }

    /// Does `m` lose more than `margin` centipawns in the exchange on its square? False where the
    /// exchange cannot be followed. The bound `victim − mover` (the most a capture can lose)
    /// answers most captures without following the exchange.
    #[inline]
    fn exchange_below(&self, m: Move, margin: i32) -> bool {
        let (victim, attacker, promo) = self.trade(m);
        if !self.see_ok || promo != 0 || attacker == 0 || victim - attacker >= -margin {
            return false;
        }
        see::see(&self.pos, self.sh.et, m).is_some_and(|v| v < -margin)
    }

    /// The counter-move slot of the move made just before `ply`.
    #[inline]
    fn counter_index(&self, ply: usize) -> Option<usize> {
        let prev = self.stack[ply.checked_sub(1)?];
        if prev == NO_MOVE {
            return None;
        }
        // The previous mover is the side not to move; its piece now stands on `prev.to`.
        let side = (!self.pos.side_to_move()).index();
        let ty = self.pos.at(prev.to).kind().index();
        Some((side * Kind::MAX + ty) * SPAN + (prev.to - BASE) as usize)
    }

    fn score_moves(&mut self, ply: usize, tt_move: Option<(u16, u16, Option<Kind>)>) {
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        let killers = self.killers[ply];
        let counter = self
            .counter_index(ply)
            .map_or(NO_MOVE, |i| self.counters[i]);
        for i in 0..self.moves[ply].len() {
            let m = self.moves[ply][i];
            let s = if tt_move.is_some_and(|(f, t, p)| m.same_squares(f, t, p)) {
                SCORE_HASH
            } else if m.promotion().is_some() || m.is_capture() {
                self.tactical_score(m)
            } else if m.same_action(killers[0]) {
                SCORE_KILLER + 1
            } else if m.same_action(killers[1]) {
                SCORE_KILLER
            } else if counter != NO_MOVE && m.same_action(counter) {
                SCORE_COUNTER
            } else {
                self.history[self.hist_index(m)]
            };
            scores.push(s);
        }
        self.scores[ply] = scores;
    }

    /// Moves the best-scored remaining move to position `i` and returns it.
    #[inline]
    fn pick_simple(&mut self, ply: usize, i: usize) -> (Move, i32) {
        let scores = &mut self.scores[ply];
        let moves = &mut self.moves[ply];
        // The first of the best scores, as a plain scan the compiler keeps in registers.
        let (mut best, mut top) = (i, scores[i]);
        for (j, &s) in scores.iter().enumerate().skip(i + 1) {
            if s > top {
                (best, top) = (j, s);
            }
        }
        scores.swap(i, best);
        moves.swap(i, best);
        (moves[i], scores[i])
    }

    /// As `pick_simple`, and: a capture that loses material drops below the quiet moves when its
    /// turn comes (most nodes never get that far); once only quiet moves and losing captures
    /// remain, they are sorted in one go (`sorted`) and later picks take them in turn.
    #[inline]
    fn pick(&mut self, ply: usize, i: usize, sorted: &mut bool, may_sort: bool) -> (Move, i32) {
        if *sorted {
            return (self.moves[ply][i], self.scores[ply][i]);
        }
        loop {
            let (m, s) = self.pick_simple(ply, i);
            if (SCORE_GOOD_TACTICAL..SCORE_HASH).contains(&s) && self.loses_material(m) {
                self.scores[ply][i] = s - SCORE_GOOD_TACTICAL + SCORE_BAD_CAPTURE;
                continue;
            }
            if Self::plain_quiet(s) && self.exchange_below(m, 0) {
                self.scores[ply][i] = s + SCORE_BAD_QUIET;
                continue;
            }
            let n = self.moves[ply].len();
            if may_sort && s < SCORE_COUNTER && i + 2 < n {
                // Move `i` was judged just above.
                for k in i + 1..n {
                    let (m, s) = (self.moves[ply][k], self.scores[ply][k]);
                    if Self::plain_quiet(s) && self.exchange_below(m, 0) {
                        self.scores[ply][k] = s + SCORE_BAD_QUIET;
                    }
                }
                let mut buf = std::mem::take(&mut self.sort_buf);
                buf.clear();
                buf.extend(
                    self.scores[ply][i..]
                        .iter()
                        .copied()
                        .zip(self.moves[ply][i..].iter().copied()),
                );
                buf.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
                for (k, &(s, m)) in buf.iter().enumerate() {
                    self.scores[ply][i + k] = s;
                    self.moves[ply][i + k] = m;
                }
                self.sort_buf = buf;
                *sorted = true;
            }
            return (m, s);
        }
    }

    /// An ordering score of a quiet move ranked by history alone (not hash, killer or counter).
    #[inline]
    fn plain_quiet(score: i32) -> bool {
        (-HISTORY_MAX..=HISTORY_MAX).contains(&score)
    }

    fn update_history(&mut self, m: Move, bonus: i32) {
        let i = self.hist_index(m);
        add_history(&mut self.history[i], bonus);
    }

    fn update_capture_history(&mut self, m: Move, bonus: i32) {
        let i = self.hist_index(m);
        add_history(&mut self.captures[i], bonus);
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let next = self.pv_len[ply + 1].max(ply + 1);
        for j in ply + 1..next {
            self.pv[ply][j] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = next;
    }

    /// Principal variation search. `in_check`: the side to move is in check (the caller knows).
    pub fn search(
        &mut self,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        in_check: bool,
        null_ok: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(ply, alpha, beta, in_check);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(end) = self.pos.rule_end() {
            return self.end_score(end, ply);
        }
        if ply > 0 {
            // Draws by repetition (one earlier occurrence is enough inside the tree) and move count.
            if self.pos.halfmove_clock() >= 4 && self.pos.repetitions() >= 1 {
                return 0;
            }
            if let Some(n) = self.sh.move_count
                && self.pos.halfmove_clock() >= n
            {
                return 0;
            }
            // `honour-count`: the count at its limit draws, unless this is mate (searched on).
            if !in_check
                && self
                    .pos
                    .honour_count()
                    .is_some_and(|(ply, limit)| ply >= limit)
            {
                return 0;
            }
            if let Some(v) = self.bare_king_end(ply) {
                return v;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate(ply) };
            }
            // Mate distance pruning.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let key = self.pos.hash();
        let hit = self.sh.tt.probe(key);
        let tt_move = hit.and_then(|h| h.mv);
        if let Some(h) = hit
            && !pv_node
            && h.depth >= depth
        {
            let v = from_tt(h.score, ply);
            if (h.bound == BOUND_EXACT)
                || (h.bound == BOUND_LOWER && v >= beta)
                || (h.bound == BOUND_UPPER && v <= alpha)
            {
                return v;
            }
        }
        if !self.sh.dice.is_empty() && ply > 0 {
            self.static_evals[ply] = NO_STATIC_EVAL;
            return self.chance(depth, ply, alpha, beta);
        }
        // The static eval as computed (stored in the table), and corrected by the correction
        // history (what the prunings below use).
        let raw_eval = if in_check {
            -INF
        } else if let Some(h) = hit
            && h.eval != NO_EVAL
        {
            h.eval
        } else {
            self.evaluate(ply)
        };
        let eval = if in_check {
            -INF
        } else {
            self.corrected(ply, raw_eval)
        };
        // Improving: the static eval is above that of this side's previous node (the one before
        // it when that was in check). Late moves of a node that is not improving reduce more.
        self.static_evals[ply] = if in_check { NO_STATIC_EVAL } else { eval };
        let improving = !in_check && {
            let earlier = [2, 4]
                .into_iter()
                .filter(|&back| ply >= back)
                .map(|back| self.static_evals[ply - back])
                .find(|&e| e != NO_STATIC_EVAL);
            earlier.is_none_or(|e| eval > e)
        };
        // Both prunings below trust the static eval, which knows neither zugzwang nor a stalemate
        // (a win or loss in some variants): a side with only pawns and royal pieces gets neither.
        if !pv_node
            && !in_check
            && ply > 0
            && beta.abs() < MATE_BOUND
            && self.evals[ply].officers[self.pos.side_to_move() as usize] > 0
        {
            // Reverse futility: far above beta at low depth.
            if depth <= 6 && eval - 90 * depth >= beta {
                return eval;
            }
            // Razoring: far below alpha near the leaves, the captures alone decide.
            if depth <= 3 && eval + 230 + 130 * depth * depth <= alpha {
                let v = self.qsearch(ply, alpha, beta, false);
                if self.stopped {
                    return 0;
                }
                if v <= alpha {
                    return v;
                }
            }
            if null_ok && depth >= 3 && eval >= beta {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(2);
                self.stack[ply] = NO_MOVE;
                self.pos.make_null();
                self.evals[ply + 1] = self.evals[ply];
                let v = -self.search(depth - 1 - r, ply + 1, -beta, -beta + 1, false, false);
                self.pos.unmake_null();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }
        // Without a hash move, a shallower search is as good as an ordering guess: internal
        // iterative reduction, at PV nodes from depth 5, elsewhere from depth 4.
        if tt_move.is_none() && depth >= if pv_node { 5 } else { 4 } {
            depth -= 1;
        }

        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        self.pos.pseudo_moves(&mut list);
        if ply == 0 {
            let roots = &self.root_moves;
            list.retain(|m| roots.contains(m));
        }
        self.moves[ply] = list;
        self.score_moves(ply, tt_move);

        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        let mut legal = 0usize;
        let mut quiets_tried = 0usize;
        let mut quiets: [Move; 64] = [NO_MOVE; 64];
        let mut tacticals_tried = 0usize;
        let mut tacticals: [Move; 32] = [NO_MOVE; 32];
        let n = self.moves[ply].len();
        // Once pruning starts it goes on to the end (the remaining moves are all plain quiet moves,
        // and the conditions only grow stronger): then only checks are searched, in any order.
        let mut pruning = false;
        let mut sorted = false;
        for i in 0..n {
            let (m, order) = if pruning {
                (self.moves[ply][i], 0)
            } else {
                // Shallow nodes prune most quiet moves: sorting them all would be wasted.
                self.pick(ply, i, &mut sorted, depth > 5)
            };
            let tactical = m.promotion().is_some() || m.is_capture();
            // `pick` has already followed the exchange of a plain quiet move or a good capture and
            // found that it loses nothing: no exchange test below can then be true.
            let exchange_safe = !pruning
                && (Self::plain_quiet(order) || (SCORE_GOOD_TACTICAL..SCORE_HASH).contains(&order));
            // Late move pruning (after half as many quiet moves where the static eval is not
            // improving) and futility pruning of quiet moves, except checks.
            let prune = pruning
                || (ply > 0
                    && !in_check
                    && legal > 0
                    && !tactical
                    && best > -MATE_BOUND
                    && order < SCORE_KILLER
                    && (depth <= 5
                        && quiets_tried
                            >= ((4 + 2 * depth * depth) >> usize::from(!improving)) as usize
                        || depth <= 3 && eval + 80 + 110 * depth <= alpha));
            pruning = prune;
            if prune && !self.sh.checks.may_check_before(&self.pos, m) {
                continue;
            }
            // Exchange pruning near the leaves: a move that loses more material in the exchange
            // on its square than the depth left could plausibly win back. Quiet moves that cannot
            // check get the tighter margin. A move that gives check is searched whatever it
            // loses: a sacrifice that mates (a Lion taking two guards next to the king) is
            // worth more than any exchange.
            let mut exchange_pruned = false;
            if !prune
                && ply > 0
                && !in_check
                && legal > 0
                && best > -MATE_BOUND
                && depth <= SEE_PRUNE_DEPTH
                && self.evals[ply].officers[self.pos.side_to_move() as usize] > 0
            {
                let margin = if tactical || self.sh.checks.may_check_before(&self.pos, m) {
                    SEE_MARGIN_TACTICAL * depth
                } else {
                    SEE_MARGIN_QUIET * depth * depth
                };
                if !exchange_safe && self.exchange_below(m, margin) {
                    if !self.sh.checks.may_check_before(&self.pos, m) {
                        continue;
                    }
                    exchange_pruned = true;
                }
            }
            // A check is searched a ply deeper unless the exchange on its square loses the
            // checking piece (judged before the move is made; most moves cannot check at all).
            let check_loses = !exchange_safe
                && self.sh.checks.may_check_before(&self.pos, m)
                && self.exchange_below(m, 0);
            if !self.make_legal(m, in_check, ply) {
                continue;
            }
            let gives_check = self.gives_check(m);
            if (prune || exchange_pruned) && !gives_check {
                self.pos.unmake();
                continue;
            }
            self.sh.tt.prefetch(self.pos.hash());
            self.stack[ply] = m;
            legal += 1;
            let nodes_before = self.nodes;
            let new_depth = depth - 1 + i32::from(gives_check && !check_loses);
            let v = if legal == 1 {
                -self.search(new_depth, ply + 1, -beta, -alpha, gives_check, true)
            } else {
                let mut r = 0;
                if depth >= 3 && !tactical && !in_check && !gives_check && legal > 2 {
                    r = self.lmr[depth.min(63) as usize][legal.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if order >= SCORE_KILLER {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    let history = if order < SCORE_BAD_QUIET / 2 {
                        r += 1;
                        order - SCORE_BAD_QUIET
                    } else {
                        order
                    };
                    r -= (history / 6000).clamp(-2, 2);
                    // A move that takes its piece off a square where the exchange would lose it
                    // (read on the board after the move, as the way back) may be what saves it.
                    if r > 0
                        && self.see_ok
                        && m.kind() == MoveKind::Normal
                        && see::see(
                            &self.pos,
                            self.sh.et,
                            Move::new(m.to, m.from, MoveKind::Normal),
                        )
                        .is_some_and(|v| v < 0)
                    {
                        r -= 2;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut v = -self.search(
                    new_depth - r,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    gives_check,
                    true,
                );
                if v > alpha && r > 0 {
                    v = -self.search(new_depth, ply + 1, -alpha - 1, -alpha, gives_check, true);
                }
                if v > alpha && v < beta {
                    v = -self.search(new_depth, ply + 1, -beta, -alpha, gives_check, true);
                }
                v
            };
            self.pos.unmake();
            if ply == 0
                && let Some(i) = self.root_moves.iter().position(|r| *r == m)
            {
                self.root_nodes[i] += self.nodes - nodes_before;
            }
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    alpha = v;
                    self.update_pv(ply, m);
                    if ply == 0 {
                        self.root_best = Some((m, v));
                    }
                    if v >= beta {
                        // Stockfish's bonus: a deep cutoff moves the entry up to a quarter
                        // of the way at once, so the history follows the game quickly.
                        let bonus = (32 * depth * depth + 64 * depth - 64).min(HISTORY_MAX / 4);
                        // The captures tried before the move that cut off were no good here.
                        for &t in &tacticals[..tacticals_tried.min(32)] {
                            self.update_capture_history(t, -bonus);
                        }
                        if tactical {
                            self.update_capture_history(m, bonus);
                        } else {
                            if !self.killers[ply][0].same_action(m) {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            if let Some(c) = self.counter_index(ply) {
                                self.counters[c] = m;
                            }
                            self.update_history(m, bonus);
                            for &q in &quiets[..quiets_tried.min(64)] {
                                self.update_history(q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if !tactical {
                if quiets_tried < 64 {
                    quiets[quiets_tried] = m;
                }
                quiets_tried += 1;
            } else {
                if tacticals_tried < 32 {
                    tacticals[tacticals_tried] = m;
                }
                tacticals_tried += 1;
            }
        }
        if legal == 0 {
            // No legal move: checkmate or stalemate, valued by the variant's rules.
            let end = self
                .pos
                .game_end_with(0)
                .expect("no legal move ends the game");
            return self.end_score(end, ply);
        }
        let bound = if best >= beta {
            BOUND_LOWER
        } else if best > alpha0 {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        let stored_eval = if in_check { NO_EVAL } else { raw_eval };
        // The correction history learns from results that say something about the eval: not in
        // check, no tactical best move, no mate, and a bound on the side away from the eval.
        if !in_check
            && best_move.is_none_or(|m| !(m.promotion().is_some() || m.is_capture()))
            && best.abs() < MATE_BOUND
            && !(bound == BOUND_LOWER && best <= raw_eval)
            && !(bound == BOUND_UPPER && best >= raw_eval)
        {
            self.update_correction(ply, depth, raw_eval, best);
        }
        self.sh
            .tt
            .store(key, best_move, to_tt(best, ply), stored_eval, depth, bound);
        best
    }

    /// Quiescence: captures and promotions until the position is quiet; evasions when in check.
    fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32, in_check: bool) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if let Some(end) = self.pos.rule_end() {
            return self.end_score(end, ply);
        }
        if let Some(v) = self.bare_king_end(ply) {
            return v;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        let key = self.pos.hash();
        let hit = self.sh.tt.probe(key);
        if let Some(h) = hit {
            let v = from_tt(h.score, ply);
            if (h.bound == BOUND_EXACT)
                || (h.bound == BOUND_LOWER && v >= beta)
                || (h.bound == BOUND_UPPER && v <= alpha)
            {
                return v;
            }
        }
        let alpha0 = alpha;
        // The static eval to store with the result: `NO_EVAL` when it was not computed exactly.
        let mut stored_eval = NO_EVAL;
        let stand = if in_check {
            -INF
        } else {
            let e = match hit {
                Some(h) if h.eval != NO_EVAL => {
                    stored_eval = h.eval;
                    h.eval
                }
                _ => {
                    let (e, exact) = self.evaluate_lazy(ply, alpha, beta);
                    if exact {
                        stored_eval = e;
                    }
                    e
                }
            };
            let e = self.corrected(ply, e);
            if e >= beta {
                self.sh
                    .tt
                    .store(key, None, to_tt(e, ply), stored_eval, 0, BOUND_LOWER);
                return e;
            }
            alpha = alpha.max(e);
            e
        };
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        if in_check {
            self.pos.pseudo_moves(&mut list);
        } else {
            self.pos.tactical_moves(&mut list);
        }
        self.moves[ply] = list;
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        let tt_move = hit.and_then(|h| h.mv);
        for &m in &self.moves[ply] {
            scores.push(
                if tt_move.is_some_and(|(f, t, p)| m.same_squares(f, t, p)) {
                    SCORE_HASH
                } else if m.promotion().is_some() || m.is_capture() {
                    self.tactical_score(m)
                } else {
                    self.history[self.hist_index(m)]
                },
            );
        }
        self.scores[ply] = scores;
        let mut best = stand;
        let mut best_move = None;
        let mut legal = 0;
        let mut quiet_evasions = 0;
        let et = self.sh.et;
        for i in 0..self.moves[ply].len() {
            let (m, _) = self.pick_simple(ply, i);
            let quiet = m.promotion().is_none() && !m.is_capture();
            // In check, once two quiet evasions have been searched and none of them is mated,
            // the later quiet ones (the least likely by history) are left out.
            if in_check && quiet && quiet_evasions >= 2 && best > -MATE_BOUND {
                continue;
            }
            if !in_check {
                // Delta pruning: even winning the victim (and promoting) cannot reach alpha.
                let victim: i32 = self
                    .pos
                    .victims(m)
                    .map(|v| et.value[v.kind().index()])
                    .sum();
                let attacker_ty = self.pos.mover(m).kind().index();
                let promo = m
                    .promotion()
                    .map_or(0, |t| et.value[t.index()] - et.value[attacker_ty]);
                if stand + victim + promo + 150 <= alpha {
                    continue;
                }
                // A capture that loses material in the exchange.
                if !et.royal[attacker_ty] && self.loses_material(m) {
                    continue;
                }
            }
            if !self.make_legal(m, in_check, ply) {
                continue;
            }
            legal += 1;
            if in_check && quiet {
                quiet_evasions += 1;
            }
            let gives_check = self.gives_check(m);
            let v = -self.qsearch(ply + 1, -beta, -alpha, gives_check);
            self.pos.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            let end = self
                .pos
                .game_end_with(0)
                .expect("no legal move ends the game");
            return self.end_score(end, ply);
        }
        let bound = if best >= beta {
            BOUND_LOWER
        } else if best > alpha0 && best_move.is_some() {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        self.sh
            .tt
            .store(key, best_move, to_tt(best, ply), stored_eval, 0, bound);
        best
    }

    /// A dice node: the side to move rolls, then plays the best move of the rolled piece type.
    /// Expectimax over the faces with Star1 windows: each face's search gets the window that could
    /// still move the average inside (alpha, beta); values are bounded by ±MATE.
    fn chance(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        self.pos.pseudo_moves(&mut list);
        list.retain(|&m| self.pos.is_legal(m));
        self.moves[ply] = list;
        if self.moves[ply].is_empty() {
            let end = self
                .pos
                .game_end_with(0)
                .expect("no legal move ends the game");
            return self.end_score(end, ply);
        }
        self.score_moves(ply, None);
        // Sort once by ordering score; each face walks its own moves in this order.
        let mut order: Vec<(i32, Move)> = self.scores[ply]
            .iter()
            .copied()
            .zip(self.moves[ply].iter().copied())
            .collect();
        order.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        let faces: Vec<(Kind, u32)> = self.sh.dice.clone();
        let has_moves = |ty: Kind| order.iter().any(|&(_, m)| self.pos.mover(m).kind() == ty);
        // `None`: any kind may move.
        let faces: Vec<(Option<Kind>, u32, bool)> = faces
            .iter()
            .map(|&(t, w)| (Some(t), w, has_moves(t)))
            .collect();
        let counted: Vec<(Option<Kind>, u32, bool)> = if self.sh.dice_pass {
            faces
        } else {
            let f: Vec<_> = faces.into_iter().filter(|f| f.2).collect();
            if f.is_empty() {
                // No face has a move although moves exist (types without a face): play any.
                vec![(None, 1, true)]
            } else {
                f
            }
        };
        let total: i64 = counted.iter().map(|f| f.1 as i64).sum();
        // Star1 needs bounds on every value: mates count as ±CHANCE_BOUND inside averages, which
        // keeps the face windows narrow enough to prune.
        let (lo, hi) = (-CHANCE_BOUND as i64, CHANCE_BOUND as i64);
        let clamp = |v: i32| v.clamp(-CHANCE_BOUND, CHANCE_BOUND);
        let mut acc: i64 = 0;
        let mut rest: i64 = total;
        for &(ty, w, any) in &counted {
            let w = w as i64;
            rest -= w;
            // Window on this face's value: outside it, the average is outside (alpha, beta).
            let a = ((alpha as i64 * total - acc - hi * rest).div_euclid(w)).max(lo - 1) as i32;
            let b =
                ((beta as i64 * total - acc - lo * rest + w - 1).div_euclid(w)).min(hi + 1) as i32;
            let v = if !any {
                self.pos.make_null();
                self.evals[ply + 1] = self.evals[ply];
                let v = -self.search(depth - 1, ply + 1, -b, -a, false, false);
                self.pos.unmake_null();
                clamp(v)
            } else {
                // The best move of this face: PVS with late move reductions, as at a max node.
                let mut best = -INF;
                let mut fa = a;
                let mut searched = 0usize;
                for &(order_score, m) in &order {
                    if ty.is_some_and(|t| self.pos.mover(m).kind() != t) {
                        continue;
                    }
                    let moved = self.pos.mover(m);
                    let quiet = !m.is_tactical();
                    self.pos.make(m);
                    self.evals[ply + 1] = self.sh.et.update(&self.pos, &self.evals[ply], m, moved);
                    let gives_check = self.pos.in_check();
                    // Every check is searched a ply deeper here (a max node spares those that
                    // lose the checking piece; dice variants keep the simpler rule).
                    let depth = depth + i32::from(gives_check);
                    searched += 1;
                    let v = if searched == 1 {
                        -self.search(depth - 1, ply + 1, -b, -fa, gives_check, false)
                    } else {
                        let mut r = 0;
                        if depth >= 3
                            && quiet
                            && !gives_check
                            && searched > 2
                            && order_score < SCORE_KILLER
                        {
                            r = (self.lmr[depth.min(63) as usize][searched.min(63)] as i32)
                                .clamp(0, depth - 2);
                        }
                        let mut v =
                            -self.search(depth - 1 - r, ply + 1, -fa - 1, -fa, gives_check, false);
                        if v > fa && r > 0 {
                            v = -self.search(depth - 1, ply + 1, -fa - 1, -fa, gives_check, false);
                        }
                        if v > fa && v < b {
                            v = -self.search(depth - 1, ply + 1, -b, -fa, gives_check, false);
                        }
                        v
                    };
                    self.pos.unmake();
                    if self.stopped {
                        return 0;
                    }
                    let v = clamp(v);
                    if v > best {
                        best = v;
                        if v > fa {
                            fa = v;
                            if v >= b {
                                break;
                            }
                        }
                    }
                }
                best
            };
            if self.stopped {
                return 0;
            }
            let (v, a, b) = (v as i64, a as i64, b as i64);
            if v >= b {
                let bound = ((acc + w * v + lo * rest) / total) as i32;
                return bound.max(beta);
            }
            if v <= a {
                let bound = ((acc + w * v + hi * rest) / total) as i32;
                return bound.min(alpha);
            }
            acc += w * v;
        }
        let v = (acc / total) as i32;
        let bound = if v >= beta {
            BOUND_LOWER
        } else if v <= alpha {
            BOUND_UPPER
        } else {
            BOUND_EXACT
        };
        let eval = self.evaluate(ply);
        self.sh
            .tt
            .store(self.pos.hash(), None, to_tt(v, ply), eval, depth, bound);
        v
    }

    /// Iterative deepening. The main worker (id 0) reports each completed iteration.
    pub fn iterate(
        &mut self,
        max_depth: u32,
        mut on_info: Option<&mut dyn FnMut(&Info)>,
    ) -> (Option<Move>, i32, u32) {
        let root_check = self.pos.in_check();
        let mut best = self.root_moves.first().copied();
        let mut score: i32 = 0;
        let mut completed = 0;
        self.root_nodes = vec![0; self.root_moves.len()];
        // Completed iterations in a row that kept the same best move.
        let mut stable = 0usize;
        for iteration in 1..=max_depth.min(MAX_PLY as u32 - 4) {
            // Helper threads search odd threads one ply deeper, to desynchronise the workers.
            let depth = iteration as i32 + (self.id % 2) as i32;
            self.root_best = None;
            self.seldepth = 0;
            let mut delta = 25;
            let (mut a, mut b) = if iteration >= 4 && score.abs() < MATE_BOUND {
                (score - delta, score + delta)
            } else {
                (-INF, INF)
            };
            let v = loop {
                let v = self.search(depth, 0, a, b, root_check, false);
                if self.stopped {
                    break v;
                }
                if v <= a && a > -INF {
                    b = (a + b) / 2;
                    a = (v - delta).max(-INF);
                } else if v >= b && b < INF {
                    b = (v + delta).min(INF);
                } else {
                    break v;
                }
                delta *= 2;
            };
            if let Some((m, s)) = self.root_best {
                best = Some(m);
                if self.stopped {
                    score = s;
                }
            }
            if self.stopped {
                break;
            }
            score = v;
            completed = iteration;
            let previous = best;
            if let Some(m) = self.pv[0][..self.pv_len[0]].first() {
                best = Some(*m);
            }
            stable = if completed > 1 && best == previous {
                (stable + 1).min(3)
            } else {
                0
            };
            if self.id == 0 {
                self.flush_nodes();
                if let Some(cb) = on_info.as_mut() {
                    let info = Info {
                        depth: iteration,
                        seldepth: self.seldepth as u32,
                        score: score_of(score),
                        nodes: self.sh.nodes.load(Ordering::Relaxed),
                        time: self.sh.start.elapsed(),
                        pv: self.pv(),
                    };
                    cb(&info);
                }
                let elapsed = self.sh.start.elapsed();
                // The next iteration takes longer than all before it: do not start what cannot end.
                // How much of the soft limit may pass first depends on how settled the best move is.
                let total: u64 = self.root_nodes.iter().sum();
                let best_nodes = best
                    .and_then(|b| self.root_moves.iter().position(|r| *r == b))
                    .map_or(0, |i| self.root_nodes[i]);
                let fraction = if total == 0 {
                    1.0
                } else {
                    best_nodes as f64 / total as f64
                };
                if let Some(soft) = self.sh.soft
                    && elapsed >= soft.mul_f64(super::time::soft_share(fraction, stable, iteration))
                {
                    break;
                }
                if self.root_moves.len() == 1 && (self.sh.soft.is_some() || self.sh.hard.is_some())
                {
                    break;
                }
                if score.abs() >= MATE_BOUND
                    && MATE - score.abs() <= iteration as i32
                    && self.sh.node_limit.is_none()
                {
                    break;
                }
            }
        }
        (best, score, completed)
    }
}
