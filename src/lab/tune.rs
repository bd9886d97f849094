//! `acedrex tune`: the evaluation's parameters fitted to self-play games (Texel's method).
//!
//! 1. **Games.** The engine plays itself in process at a fixed node count per move (jittered by
//!    ±20 % per move, so that a suite played twice gives other games), one game per opening of
//!    the suite. Quiet positions are recorded with the game's result: past the first plies, not in
//!    check, neither the move played from it nor the move that led to it a capture. Each finished
//!    game is appended to the data file, so a run started again goes on from there. With
//!    `--engine`, a UCI engine (Fairy-Stockfish, say) plays the games instead, refereed by
//!    acedrex: the results are then those of stronger play.
//! 2. **Fit.** The mean squared error between each result and `1 / (1 + 10^(-K e / 400))`, with
//!    `e` the static evaluation from White's side: `K` first, for the weights as they stand, then
//!    the weights by coordinate descent (each parameter tried a step up and a step down, kept when
//!    the error falls; the steps halve when a pass finds nothing). Every tenth game is held out
//!    and its error reported too, as a check against fitting noise. With `--label-engine`, each
//!    fitted position's result is replaced by a UCI engine's expected score after a shallow
//!    search of it: the fit then learns that engine's judgement, position by position.
//! 3. **Match.** The tuned evaluation against the untuned one in self-play: two games of the
//!    variant, one with the fitted `eval` line, each engine on its own position, the moves passed
//!    as text; game pairs from the suite with both colours, the pentanomial Elo of the pairs.

use super::LabError;
use super::openings;
use super::stats::Pentanomial;
use super::tester::Adjudication;
use super::uci::UciEngine;
use crate::eval::{EvalBasis, EvalTables};
use crate::game::Game;
use crate::position::{Move, Position};
use crate::rules::Winner;
use crate::search::{Engine, Limits, Score};
use crate::side::Side;
use crate::variant::{EVAL_TERMS, EvalWeights, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Plies of a game (after its opening) whose positions are not recorded.
pub const SKIP_PLIES: usize = 8;
/// When a tuning game ends early, in the lab's own terms (moves of each side; one engine plays
/// both): resign at 800 cp for 4 moves each, draw within 10 cp for 8 moves each from ply 100,
/// a draw at ply 400.
const ADJUDICATION: Adjudication = Adjudication {
    resign_score: 800,
    resign_moves: 4,
    draw_ply: 100,
    draw_score: 10,
    draw_moves: 8,
    max_plies: 400,
};
const MAX_PLIES: usize = ADJUDICATION.max_plies;
const RESIGN_CP: i32 = ADJUDICATION.resign_score;
/// Plies in a row: a move of each side is two plies of one engine.
const RESIGN_PLIES: usize = 2 * ADJUDICATION.resign_moves as usize;
const DRAW_PLY: usize = ADJUDICATION.draw_ply;
const DRAW_CP: i32 = ADJUDICATION.draw_score;
const DRAW_PLIES: usize = 2 * ADJUDICATION.draw_moves as usize;
/// Generous: a node-limited move never comes near it unless the engine hangs.
const UCI_MOVE_TIMEOUT: Duration = Duration::from_secs(60);

/// What a tuning run does.
#[derive(Debug, Clone)]
pub struct TuneOptions {
    /// A shipped variant's name or a variant file.
    pub variant: String,
    pub openings: PathBuf,
    /// Recorded positions; appended game by game and read back on a restart.
    pub data: PathBuf,
    /// Games the data file should hold before the fit (the run plays the missing ones).
    pub games: u64,
    /// Nodes per move, in the games and in the match.
    pub nodes: u64,
    /// Plays the data games with this UCI engine instead of acedrex's own search: a stronger
    /// engine that plays the variant (Fairy-Stockfish) gives results the evaluation should
    /// have foreseen, not its own blind spots. None = acedrex.
    pub engine: Option<PathBuf>,
    /// Labels the fitted positions with this UCI engine's score at this depth instead of the
    /// game results: the evaluation learns the stronger engine's judgement of each position,
    /// which is far less noisy than the one result of a whole game. None = the results.
    pub label: Option<(PathBuf, u32)>,
    /// At most this many positions enter the fit (evenly spread over the data).
    pub positions: usize,
    /// Fit passes at most.
    pub passes: usize,
    /// Games of the tuned against the untuned evaluation at the end (0: none).
    pub match_games: u64,
    /// Progress on stderr: None = when stderr is a terminal.
    pub progress: Option<bool>,
}

/// One recorded position: White's score (the game's 1, ½ or 0, or an engine's expected score
/// between), the game's index, the FEN.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub result: f64,
    pub game: u64,
    pub fen: String,
}

/// The first line of a data file.
fn data_header(variant: &str) -> String {
    format!("# acedrex tune data; variant {variant}")
}

/// What a data file holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Data {
    pub games: u64,
    pub samples: Vec<Sample>,
    /// The nodes per move its games were played at, as each game's line records them (none in
    /// files written before the lines did).
    pub nodes: std::collections::BTreeSet<u64>,
}

/// Reads a data file: the games it holds and their positions. An absent file holds none.
pub fn read_data(path: &Path, variant: &str) -> Result<Data, LabError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Data::default()),
        Err(e) => return Err(LabError::io(path, e)),
    };
    let bad = |message: String| LabError::Results {
        path: path.display().to_string(),
        message,
    };
    let mut lines = text.lines().enumerate();
    match lines.next() {
        None => return Ok(Data::default()),
        Some((_, h)) if h == data_header(variant) => {}
        Some((_, h)) => {
            return Err(bad(format!(
                "`{h}` is not the data of `{variant}`: expected `{}`",
                data_header(variant)
            )));
        }
    }
    let mut data = Data::default();
    for (n, line) in lines {
        if line.starts_with("# game ") {
            data.games += 1;
            if let Some(nodes) = line
                .rsplit_once(" nodes ")
                .and_then(|(_, n)| n.parse().ok())
            {
                data.nodes.insert(nodes);
            }
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let result = line
            .split_once(' ')
            .and_then(|(r, fen)| Some((r.parse::<f64>().ok()?, fen)))
            .filter(|(r, _)| (0.0..=1.0).contains(r));
        let Some((result, fen)) = result else {
            return Err(bad(format!(
                "line {}: expected `RESULT FEN` with RESULT from 0 to 1 (White's score), got `{line}`",
                n + 1
            )));
        };
        data.samples.push(Sample {
            result,
            game: data.games,
            fen: fen.to_string(),
        });
    }
    Ok(data)
}

/// A game of the engine against itself: White's score, how it ended, the quiet positions.
#[derive(Debug, Clone)]
pub struct DataGame {
    pub result: f64,
    pub reason: String,
    pub plies: usize,
    pub quiet: Vec<String>,
}

/// Ends a game early from the searches' scores (White's side), as a referee trusting the engine.
#[derive(Default)]
struct Adjudicator {
    resign: usize,
    resign_side: i32,
    draw: usize,
}

impl Adjudicator {
    /// The score for White of an adjudicated game after a search at `ply` scored `white_cp`.
    fn hear(&mut self, ply: usize, white_cp: i32) -> Option<(f64, &'static str)> {
        let side = white_cp.signum();
        if white_cp.abs() < RESIGN_CP {
            self.resign = 0;
        } else if side == self.resign_side {
            self.resign += 1;
        } else {
            (self.resign, self.resign_side) = (1, side);
        }
        if self.resign >= RESIGN_PLIES {
            return Some((if side > 0 { 1.0 } else { 0.0 }, "adjudicated: resign"));
        }
        if ply >= DRAW_PLY && white_cp.abs() <= DRAW_CP {
            self.draw += 1;
        } else {
            self.draw = 0;
        }
        (self.draw >= DRAW_PLIES).then_some((0.5, "adjudicated: draw"))
    }
}

/// A search score in centipawns for White (mates as ±100,000).
fn white_cp(score: Score, side: Side) -> i32 {
    let cp = match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 100_000,
        Score::Mate(_) => -100_000,
    };
    cp * side.sign()
}

/// White's score of a finished game.
fn white_score(winner: Winner) -> f64 {
    match winner {
        Winner::White => 1.0,
        Winner::Black => 0.0,
        Winner::Draw => 0.5,
    }
}

/// Plays one game from `fen` with acedrex's own search; the node count of each move is drawn
/// from `seed`.
pub fn data_game(
    game: &Arc<Game>,
    fen: &str,
    engine: &mut Engine,
    nodes: u64,
    seed: u64,
) -> Result<DataGame, LabError> {
    let stop = Arc::new(AtomicBool::new(false));
    engine.clear();
    play_data_game(game, fen, nodes, seed, &mut |pos, nodes| {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let r = engine.search(pos, &limits, &stop, &mut |_| {});
        let m = r.best.expect("a legal move exists");
        Ok((m, white_cp(r.score, pos.side_to_move())))
    })
}

/// Plays one game from `fen` with a UCI engine (Fairy-Stockfish, say), the node count of each
/// move drawn from `seed`; acedrex referees. An engine that fails or plays an illegal move
/// ends the run with an error.
pub fn data_game_uci(
    game: &Arc<Game>,
    fen: &str,
    engine: &mut UciEngine,
    nodes: u64,
    seed: u64,
) -> Result<DataGame, LabError> {
    engine.new_game()?;
    let mut moves: Vec<String> = Vec::new();
    play_data_game(game, fen, nodes, seed, &mut |pos, nodes| {
        let answer = engine.go(fen, &moves, &format!("nodes {nodes}"), UCI_MOVE_TIMEOUT)?;
        let m = pos
            .parse_move(&answer.bestmove)
            .map_err(|e| LabError::Engine {
                engine: engine.name.clone(),
                what: format!("illegal move {} in {}: {e}", answer.bestmove, pos.fen()),
            })?;
        moves.push(answer.bestmove);
        // A move without a score counts as level: it neither resigns nor keeps a draw run.
        let cp = answer.score.unwrap_or(0);
        Ok((m, cp * pos.side_to_move().sign()))
    })
}

/// Who plays the data games: acedrex's own search, or a UCI engine (`--engine`).
enum Player {
    Own(Engine),
    Uci(UciEngine),
}

/// A data game's player: given the position and this move's node count, the move and its
/// search's score for White.
type Chooser<'a> = dyn FnMut(&mut Position, u64) -> Result<(Move, i32), LabError> + 'a;

/// The referee of a data game, whose moves `choose` picks.
fn play_data_game(
    game: &Arc<Game>,
    fen: &str,
    nodes: u64,
    seed: u64,
    choose: &mut Chooser,
) -> Result<DataGame, LabError> {
    let mut pos = Position::from_fen(game, fen).map_err(|e| LabError::Usage(e.to_string()))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut quiet, mut adj) = (Vec::new(), Adjudicator::default());
    let mut after_capture = false;
    for ply in 0.. {
        let legal = pos.legal_moves().len();
        if let Some(end) = pos.game_end_with(legal) {
            let (result, reason) = (white_score(end.winner), end.reason.to_string());
            return Ok(DataGame {
                result,
                reason,
                plies: ply,
                quiet,
            });
        }
        if ply >= MAX_PLIES {
            return Ok(DataGame {
                result: 0.5,
                reason: "max plies".into(),
                plies: ply,
                quiet,
            });
        }
        let spread = nodes / 5;
        let (m, white_cp) = choose(&mut pos, nodes - spread + rng.random_range(0..=2 * spread))?;
        if ply >= SKIP_PLIES && !after_capture && !m.is_capture() && !pos.in_check() {
            quiet.push(pos.fen());
        }
        after_capture = m.is_capture();
        pos.make(m);
        if let Some((result, reason)) = adj.hear(ply + 1, white_cp) {
            return Ok(DataGame {
                result,
                reason: reason.into(),
                plies: ply + 1,
                quiet,
            });
        }
    }
    unreachable!("the loop returns")
}

/// A progress line on stderr, redrawn in place on a terminal, a line at a time otherwise.
struct Progress {
    tty: bool,
    on: bool,
}

impl Progress {
    fn show(&self, line: &str) {
        if !self.on {
        } else if self.tty {
            eprint!("\r\x1b[2K{line}");
        } else {
            eprintln!("{line}");
        }
    }

    fn done(&self) {
        if self.on && self.tty {
            eprintln!();
        }
    }
}

fn bar(done: u64, total: u64) -> String {
    let width = 30;
    let filled = (done as usize * width) / total.max(1) as usize;
    "#".repeat(filled.min(width)) + &"-".repeat(width - filled.min(width))
}

/// Plays the games the data file is missing, appending each as it ends. Returns the games held.
fn play_data(
    opts: &TuneOptions,
    game: &Arc<Game>,
    suite: &[String],
    progress: &Progress,
) -> Result<u64, LabError> {
    let name = &game.variant.name;
    let mut have = read_data(&opts.data, name)?.games;
    if have >= opts.games {
        return Ok(have);
    }
    let fresh = std::fs::metadata(&opts.data).map_or(true, |m| m.len() == 0);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&opts.data)
        .map_err(|e| LabError::io(&opts.data, e))?;
    let io = |e| LabError::io(&opts.data, e);
    if fresh {
        writeln!(file, "{}", data_header(name)).map_err(io)?;
    }
    let mut player = match &opts.engine {
        Some(path) => {
            let file = super::uci::variant_path(&opts.variant);
            Player::Uci(UciEngine::start(path, "data", name, file.as_deref(), 16)?)
        }
        None => Player::Own(Engine::new(16, 1)),
    };
    let t0 = Instant::now();
    let first = have;
    while have < opts.games {
        let opening = (have % suite.len() as u64) as usize;
        let fen = &suite[opening];
        let g = match &mut player {
            Player::Uci(e) => data_game_uci(game, fen, e, opts.nodes, have)?,
            Player::Own(e) => data_game(game, fen, e, opts.nodes, have)?,
        };
        let mut text = String::new();
        for f in &g.quiet {
            text += &format!("{} {f}\n", g.result);
        }
        text += &format!(
            "# game {} opening {} result {} {} plies {} positions {} nodes {}\n",
            have + 1,
            opening + 1,
            g.result,
            g.reason,
            g.plies,
            g.quiet.len(),
            opts.nodes
        );
        file.write_all(text.as_bytes())
            .and_then(|_| file.flush())
            .map_err(io)?;
        have += 1;
        let rate = t0.elapsed().as_secs_f64() / (have - first) as f64;
        progress.show(&format!(
            "tune games [{}] {have}/{}  {rate:.1} s/game",
            bar(have, opts.games),
            opts.games
        ));
    }
    progress.done();
    Ok(have)
}

/// The parameters the fit moves: each non-royal piece's middlegame and endgame material, then
/// the terms in [`EVAL_TERMS`] order.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Letters of the pieces whose material is fitted.
    pub letters: Vec<char>,
    pub values: Vec<i32>,
}

impl Params {
    /// The parameters of a game's weights as they stand: its `eval` material, else the value the
    /// evaluation uses; its terms.
    pub fn of(game: &Arc<Game>, tables: &EvalTables) -> Params {
        let w = &game.variant.eval;
        let (mut letters, mut values) = (Vec::new(), Vec::new());
        for (ty, p) in game.variant.pieces.iter().enumerate() {
            if tables.royal[ty] {
                continue;
            }
            let (mg, eg) = w
                .material_of(p.letter)
                .unwrap_or((tables.value[ty], tables.value[ty]));
            letters.push(p.letter);
            values.extend([mg, eg]);
        }
        values.extend(w.terms);
        Params { letters, values }
    }

    pub fn weights(&self) -> EvalWeights {
        let n = self.letters.len();
        EvalWeights {
            material: self
                .letters
                .iter()
                .enumerate()
                .map(|(i, &l)| (l, self.values[2 * i], self.values[2 * i + 1]))
                .collect(),
            terms: std::array::from_fn(|i| self.values[2 * n + i]),
        }
    }

    fn is_material(&self, i: usize) -> bool {
        i < 2 * self.letters.len()
    }

    /// Keeps a parameter within what the `eval` key accepts.
    fn clamp(&self, i: usize, v: i32) -> i32 {
        if self.is_material(i) {
            v.clamp(1, crate::variant::MAX_EVAL_MATERIAL)
        } else {
            v.clamp(0, crate::variant::MAX_EVAL_PERCENT)
        }
    }

    /// A parameter's name: `N.mg`, `N.eg` or the term.
    pub fn name(&self, i: usize) -> String {
        if self.is_material(i) {
            format!("{}.{}", self.letters[i / 2], ["mg", "eg"][i % 2])
        } else {
            EVAL_TERMS[i - 2 * self.letters.len()].to_string()
        }
    }
}

/// Positions ready for the fit: each with its result.
pub struct FitSet {
    pub positions: Vec<(Position, f64)>,
}

impl FitSet {
    pub fn new(game: &Arc<Game>, samples: &[&Sample]) -> Result<FitSet, LabError> {
        let positions = samples
            .iter()
            .map(|s| {
                Position::from_fen(game, &s.fen)
                    .map(|p| (p, s.result))
                    .map_err(|e| LabError::Usage(format!("data position `{}`: {e}", s.fen)))
            })
            .collect::<Result<_, _>>()?;
        Ok(FitSet { positions })
    }

    /// Static evaluations from White's side under `tables`.
    pub fn evals(&self, tables: &EvalTables) -> Vec<i32> {
        self.positions
            .iter()
            .map(|(p, _)| tables.evaluate(p) * p.side_to_move().sign())
            .collect()
    }

    /// Mean squared error of the results against the logistic of `evals`.
    pub fn error_of(&self, evals: &[i32], k: f64) -> f64 {
        let sum: f64 = self
            .positions
            .iter()
            .zip(evals)
            .map(|((_, r), &e)| {
                let p = 1.0 / (1.0 + 10f64.powf(-k * f64::from(e) / 400.0));
                (r - p) * (r - p)
            })
            .sum();
        sum / self.positions.len().max(1) as f64
    }

    pub fn error(&self, tables: &EvalTables, k: f64) -> f64 {
        self.error_of(&self.evals(tables), k)
    }
}

/// The scaling constant that minimises the error of fixed evaluations (golden-section search).
pub fn fit_k(set: &FitSet, evals: &[i32]) -> f64 {
    let (mut lo, mut hi) = (0.01f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut fa, mut fb) = (set.error_of(evals, a), set.error_of(evals, b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - g * (hi - lo);
            fa = set.error_of(evals, a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + g * (hi - lo);
            fb = set.error_of(evals, b);
        }
    }
    (lo + hi) / 2.0
}

/// The fitted parameters with the error before and after.
#[derive(Debug, Clone)]
pub struct Fit {
    pub params: Params,
    pub k: f64,
    pub before: f64,
    pub after: f64,
    pub passes: usize,
}

/// Coordinate descent from `start` with `K` fixed; `on_pass(pass, error, params)` after each pass.
pub fn fit(
    basis: &EvalBasis,
    set: &FitSet,
    start: &Params,
    k: f64,
    max_passes: usize,
    on_pass: &mut dyn FnMut(usize, f64, &Params),
) -> Fit {
    let mut p = start.clone();
    let error = |p: &Params| set.error(&basis.tables(&p.weights()), k);
    let before = error(&p);
    let mut best = before;
    // Material in centipawns, terms in percent: both start at 16 and halve down to 2.
    let mut step = 16;
    let mut passes = 0;
    while passes < max_passes {
        passes += 1;
        let mut improved = false;
        for i in 0..p.values.len() {
            for dir in [1, -1] {
                let v = p.clamp(i, p.values[i] + dir * step);
                if v == p.values[i] {
                    continue;
                }
                let mut trial = p.clone();
                trial.values[i] = v;
                let e = error(&trial);
                if e < best {
                    (p, best, improved) = (trial, e, true);
                    break;
                }
            }
        }
        if !improved && step <= 2 {
            // Terms that move together (a piece's value and the mobility weight derived from
            // it) leave a narrow valley no single coordinate can descend: try pairs.
            improved = pair_step(&p, step, &mut best, &error)
                .map(|t| p = t)
                .is_some();
        }
        on_pass(passes, best, &p);
        if !improved {
            if step <= 2 {
                break;
            }
            step /= 2;
        }
    }
    Fit {
        params: p,
        k,
        before,
        after: best,
        passes,
    }
}

/// The first move of two parameters at once, each by `step` either way, that lowers `best`.
fn pair_step(
    p: &Params,
    step: i32,
    best: &mut f64,
    error: &dyn Fn(&Params) -> f64,
) -> Option<Params> {
    let n = p.values.len();
    for i in 0..n {
        for j in i + 1..n {
            for (di, dj) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let (vi, vj) = (
                    p.clamp(i, p.values[i] + di * step),
                    p.clamp(j, p.values[j] + dj * step),
                );
                if vi == p.values[i] || vj == p.values[j] {
                    continue;
                }
                let mut trial = p.clone();
                (trial.values[i], trial.values[j]) = (vi, vj);
                let e = error(&trial);
                if e < *best {
                    *best = e;
                    return Some(trial);
                }
            }
        }
    }
    None
}

/// The variant's file text with `line` in place of its `eval` line (or added at the end).
pub fn with_eval_line(text: &str, line: &str, note: &str) -> String {
    let mut out: String = text
        .lines()
        .filter(|l| l.split_whitespace().next() != Some("eval"))
        .map(|l| format!("{l}\n"))
        .collect();
    if !out.ends_with("\n\n") {
        out.push('\n');
    }
    out += &format!("# {note}\n{line}\n");
    out
}

/// The outcome of a tuned-against-untuned match.
#[derive(Debug, Clone, Default)]
pub struct MatchResult {
    pub penta: Pentanomial,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl std::fmt::Display for MatchResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let elo = match self.penta.elo() {
            Some(e) => format!("Elo {:+.1} ± {:.1}", e.elo, e.error()),
            None => "Elo n/a".into(),
        };
        let games = self.wins + self.draws + self.losses;
        let score = (self.wins as f64 + 0.5 * self.draws as f64) / games.max(1) as f64;
        write!(
            f,
            "tuned against untuned: {games} games, +{} ={} -{}, score {:.1} %, pentanomial {:?}, {elo}",
            self.wins,
            self.draws,
            self.losses,
            100.0 * score,
            self.penta.0
        )
    }
}

/// One game between two engines on two games of one variant (the same rules, other weights),
/// kept in step by move text. `sides[0]` moves first; the score is `sides[0]`'s.
pub fn match_game(
    games: [&Arc<Game>; 2],
    engines: [&mut Engine; 2],
    fen: &str,
    nodes: u64,
) -> Result<f64, LabError> {
    let load = |g: &Arc<Game>| {
        Position::from_fen(g, fen).map_err(|e| LabError::Usage(format!("opening `{fen}`: {e}")))
    };
    let mut pos = [load(games[0])?, load(games[1])?];
    let first = pos[0].side_to_move();
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut engines = engines;
    for e in engines.iter_mut() {
        e.clear();
    }
    let mut adj = Adjudicator::default();
    let first_score = |white: f64| {
        if first == Side::White {
            white
        } else {
            1.0 - white
        }
    };
    for ply in 0.. {
        let legal = pos[0].legal_moves().len();
        if let Some(end) = pos[0].game_end_with(legal) {
            return Ok(first_score(white_score(end.winner)));
        }
        if ply >= MAX_PLIES {
            return Ok(0.5);
        }
        let me = usize::from(pos[0].side_to_move() != first);
        let r = engines[me].search(&pos[me], &limits, &stop, &mut |_| {});
        let m = r.best.expect("a legal move exists");
        let text = pos[me].move_text(m);
        let side = pos[me].side_to_move();
        for p in pos.iter_mut() {
            let m = p.parse_move(&text).map_err(|e| LabError::Engine {
                engine: "tune match".into(),
                what: format!("{text} does not replay: {e}"),
            })?;
            p.make(m);
        }
        if let Some((white, _)) = adj.hear(ply + 1, white_cp(r.score, side)) {
            return Ok(first_score(white));
        }
    }
    unreachable!("the loop returns")
}

/// Game pairs of the tuned (`games[0]`) against the untuned evaluation (`games[1]`), openings
/// taken from the end of the suite (the data's games start from its beginning).
pub fn play_match(
    games: [&Arc<Game>; 2],
    suite: &[String],
    pairs: u64,
    nodes: u64,
    on_pair: &mut dyn FnMut(u64, &MatchResult),
) -> Result<MatchResult, LabError> {
    let mut engines = [Engine::new(16, 1), Engine::new(16, 1)];
    let mut res = MatchResult::default();
    for pair in 0..pairs {
        let fen = &suite[suite.len() - 1 - (pair as usize % suite.len())];
        let [tuned, base] = &mut engines;
        let a = match_game([games[0], games[1]], [tuned, base], fen, nodes)?;
        let b = 1.0 - match_game([games[1], games[0]], [base, tuned], fen, nodes)?;
        for s in [a, b] {
            match s {
                s if s > 0.75 => res.wins += 1,
                s if s < 0.25 => res.losses += 1,
                _ => res.draws += 1,
            }
        }
        res.penta.add(((a + b) * 2.0).round() as usize);
        on_pair(pair + 1, &res);
    }
    Ok(res)
}

/// Replaces each sample's result by a UCI engine's judgement: its score after a search of
/// `depth` as White's expected score, `1 / (1 + 10^(-cp / 400))` (mates as certainties).
fn label_samples(
    game: &Arc<Game>,
    variant: &str,
    path: &Path,
    depth: u32,
    samples: &mut [Sample],
    progress: &Progress,
) -> Result<(), LabError> {
    let file = super::uci::variant_path(variant);
    let mut engine = UciEngine::start(path, "label", &game.variant.name, file.as_deref(), 16)?;
    let n = samples.len();
    for (i, s) in samples.iter_mut().enumerate() {
        let answer = engine.go(&s.fen, &[], &format!("depth {depth}"), UCI_MOVE_TIMEOUT)?;
        let pos = Position::from_fen(game, &s.fen)
            .map_err(|e| LabError::Usage(format!("data position `{}`: {e}", s.fen)))?;
        s.result = expected_score(answer.score.unwrap_or(0) * pos.side_to_move().sign());
        if i % 256 == 0 || i + 1 == n {
            progress.show(&format!(
                "tune labels [{}] {}/{n}",
                bar(i as u64 + 1, n as u64),
                i + 1
            ));
        }
    }
    Ok(())
}

/// A score in centipawns as the expected score it stands for, on the logistic the fit uses with
/// `K = 1`; mates (±100,000) are as good as certain.
fn expected_score(cp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-f64::from(cp.clamp(-4000, 4000)) / 400.0))
}

/// What a tuning run found.
#[derive(Debug, Clone)]
pub struct TuneReport {
    pub games: u64,
    /// The nodes per move the data's games were played at (as the data file records them).
    pub nodes: std::collections::BTreeSet<u64>,
    pub positions: usize,
    pub held_out: usize,
    pub fit: Fit,
    pub held_before: f64,
    pub held_after: f64,
    /// The fitted `eval` line (None: the defaults fitted best).
    pub line: Option<String>,
    pub tuned: Variant,
    pub matched: Option<MatchResult>,
}

/// Plays the missing games, fits, and plays the match. Progress on stderr.
pub fn run(opts: &TuneOptions) -> Result<TuneReport, LabError> {
    let variant =
        crate::variant::load(&opts.variant).map_err(|e| LabError::Variant(e.to_string()))?;
    if variant.dice.is_some() {
        return Err(LabError::Usage(
            "dice variants are not tuned: their games need a die the tuner does not roll".into(),
        ));
    }
    let game = Game::new(variant.clone());
    let suite = openings::read(&opts.openings)?;
    if suite.is_empty() {
        return Err(LabError::Usage(format!(
            "{}: no openings",
            opts.openings.display()
        )));
    }
    let tty = std::io::stderr().is_terminal();
    let progress = Progress {
        tty,
        on: opts.progress.unwrap_or(tty),
    };
    let games = play_data(opts, &game, &suite, &progress)?;
    let Data { samples, nodes, .. } = read_data(&opts.data, &game.variant.name)?;
    // Evenly spread over the data when there are more than wanted.
    let stride = samples.len().div_ceil(opts.positions.max(1)).max(1);
    let mut picked: Vec<Sample> = samples.into_iter().step_by(stride).collect();
    if let Some((path, depth)) = &opts.label {
        label_samples(&game, &opts.variant, path, *depth, &mut picked, &progress)?;
        progress.done();
    }
    let (held, train): (Vec<&Sample>, Vec<&Sample>) = picked.iter().partition(|s| s.game % 10 == 9);
    if train.is_empty() {
        return Err(LabError::Usage(format!(
            "{}: no positions to fit: play more games (--games)",
            opts.data.display()
        )));
    }
    let (train_set, held_set) = (FitSet::new(&game, &train)?, FitSet::new(&game, &held)?);
    let basis = EvalBasis::new(&game);
    let start = Params::of(&game, &EvalTables::new(&game));
    let k = fit_k(
        &train_set,
        &train_set.evals(&basis.tables(&start.weights())),
    );
    let fit = fit(
        &basis,
        &train_set,
        &start,
        k,
        opts.passes,
        &mut |pass, e, _| progress.show(&format!("tune fit pass {pass}: error {e:.6} (K {k:.3})")),
    );
    progress.done();
    let held_before = held_set.error(&basis.tables(&start.weights()), k);
    let held_after = held_set.error(&basis.tables(&fit.params.weights()), k);
    // Write only what differs from the derived evaluation.
    let mut weights = fit.params.weights();
    let derived = EvalTables::with_weights(&game, &EvalWeights::default());
    weights.material.retain(|&(l, mg, eg)| {
        let ty = game.variant.pieces.iter().position(|p| p.letter == l);
        ty.is_none_or(|t| (mg, eg) != (derived.value[t], derived.value[t]))
    });
    let line = weights.line();
    let mut tuned = variant.clone();
    tuned.eval = weights;
    let matched = if opts.match_games >= 2 {
        let tuned_game = Game::new(tuned.clone());
        let pairs = opts.match_games / 2;
        let r = play_match(
            [&tuned_game, &game],
            &suite,
            pairs,
            opts.nodes,
            &mut |n, r| {
                progress.show(&format!(
                    "tune match [{}] {n}/{pairs} pairs  {r}",
                    bar(n, pairs)
                ))
            },
        )?;
        progress.done();
        Some(r)
    } else {
        None
    };
    Ok(TuneReport {
        games,
        nodes,
        positions: train_set.positions.len(),
        held_out: held_set.positions.len(),
        fit,
        held_before,
        held_after,
        line,
        tuned,
        matched,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_scores_of_engine_labels() {
        assert_eq!(expected_score(0), 0.5);
        assert!((expected_score(400) - 10.0 / 11.0).abs() < 1e-12);
        assert!((expected_score(-400) - 1.0 / 11.0).abs() < 1e-12);
        assert!(expected_score(100_000 - 3) > 0.999_999);
        assert!(expected_score(-100_000 + 3) < 0.000_001);
    }

    /// Positions along random games of chess, which trade material unevenly.
    fn walk_positions(game: &Arc<Game>, count: usize) -> FitSet {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut positions = Vec::new();
        while positions.len() < count {
            let mut pos = Position::start(game);
            for _ in 0..rng.random_range(10..80) {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.game_end_with(moves.len()).is_some() {
                    break;
                }
                pos.make(moves[rng.random_range(0..moves.len())]);
            }
            let fen = pos.fen();
            positions.push((Position::from_fen(game, &fen).unwrap(), 0.0));
        }
        FitSet { positions }
    }

    /// Results planted as the logistic of the evaluation under `weights` with constant `k`.
    fn plant(set: &mut FitSet, basis: &EvalBasis, weights: &EvalWeights, k: f64) {
        let evals = set.evals(&basis.tables(weights));
        for ((_, r), e) in set.positions.iter_mut().zip(evals) {
            *r = 1.0 / (1.0 + 10f64.powf(-k * f64::from(e) / 400.0));
        }
    }

    #[test]
    fn the_start_parameters_are_the_derived_evaluation() {
        let game = Game::new(crate::variant::load("capablanca").unwrap());
        let derived = EvalTables::new(&game);
        let start = Params::of(&game, &derived);
        assert_eq!(start.letters, vec!['Q', 'R', 'B', 'N', 'P', 'A', 'C']);
        let tables = EvalBasis::new(&game).tables(&start.weights());
        let set = walk_positions(&game, 200);
        assert_eq!(set.evals(&tables), set.evals(&derived));
    }

    #[test]
    fn k_is_recovered_from_planted_results() {
        let game = Game::new(crate::variant::load("chess").unwrap());
        let basis = EvalBasis::new(&game);
        let mut set = walk_positions(&game, 800);
        plant(&mut set, &basis, &EvalWeights::default(), 1.3);
        let k = fit_k(&set, &set.evals(&basis.tables(&EvalWeights::default())));
        assert!((k - 1.3).abs() < 0.01, "{k}");
    }

    /// Results planted from a knight worth 420 and mobility at 160 %: starting from the derived
    /// evaluation (knight 320, mobility 100 %), the fit finds both again.
    #[test]
    fn the_fit_recovers_planted_parameters() {
        let game = Game::new(crate::variant::load("chess").unwrap());
        let basis = EvalBasis::new(&game);
        let mut start = Params::of(&game, &EvalTables::new(&game));
        // Destinations enemy pawns attack count nothing, so a piece's mobility term no longer
        // averages zero: it moves with the piece's material, from which its weight derives.
        let unsafe_ = 2 * start.letters.len() + 5;
        assert_eq!(start.name(unsafe_), "unsafe");
        start.values[unsafe_] = 0;
        let mut planted = start.clone();
        let n = start.letters.iter().position(|&l| l == 'N').unwrap();
        planted.values[2 * n] = 420;
        planted.values[2 * n + 1] = 420;
        let mob = 2 * start.letters.len() + 1;
        assert_eq!(start.name(mob), "mobility");
        planted.values[mob] = 160;
        let mut set = walk_positions(&game, 1500);
        plant(&mut set, &basis, &planted.weights(), 1.0);
        let f = fit(&basis, &set, &start, 1.0, 60, &mut |_, _, _| {});
        assert!(f.after < f.before / 20.0, "{} -> {}", f.before, f.after);
        let got = &f.params.values;
        for i in [2 * n, 2 * n + 1] {
            assert!(
                (got[i] - 420).abs() <= 8,
                "{}: {}",
                f.params.name(i),
                got[i]
            );
        }
        assert!((got[mob] - 160).abs() <= 10, "mobility {}", got[mob]);
        assert!(got[unsafe_] <= 10, "unsafe {}", got[unsafe_]);
    }

    #[test]
    fn the_eval_line_replaces_the_old_one() {
        let text = "variant x\n# a comment naming eval\neval N=1/1\nboard 8x8\n";
        let out = with_eval_line(text, "eval N=300/310", "fitted");
        assert_eq!(
            out,
            "variant x\n# a comment naming eval\nboard 8x8\n\n# fitted\neval N=300/310\n"
        );
    }

    #[test]
    fn adjudication_needs_a_run_of_one_side() {
        let mut a = Adjudicator::default();
        for ply in 1..RESIGN_PLIES {
            assert_eq!(a.hear(ply, 900), None);
        }
        assert_eq!(
            a.hear(RESIGN_PLIES, -900),
            None,
            "the other side breaks the run"
        );
        let mut a = Adjudicator::default();
        let verdicts: Vec<_> = (1..=RESIGN_PLIES).map(|p| a.hear(p, -1000)).collect();
        assert_eq!(verdicts.last(), Some(&Some((0.0, "adjudicated: resign"))));
        let mut a = Adjudicator::default();
        let early: Vec<_> = (1..=DRAW_PLIES).map(|p| a.hear(p, 0)).collect();
        assert!(early.iter().all(Option::is_none), "no draw before DRAW_PLY");
        let late: Vec<_> = (DRAW_PLY..DRAW_PLY + DRAW_PLIES)
            .map(|p| a.hear(p, 5))
            .collect();
        assert_eq!(late.last(), Some(&Some((0.5, "adjudicated: draw"))));
    }
}
