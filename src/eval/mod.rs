//! Static evaluation, generic over variants. Everything is derived from the compiled tables once per
//! game ([`EvalTables::new`]): piece values (the file's `value`, else estimated from mobility),
//! piece-square tables from each piece's mobility per square, pawn advancement valued by what the
//! pawn promotes into, plus king safety, bare-king awareness and tempo at evaluation time.

use crate::game::Game;
use crate::geometry::{STRIDE, cell, file_of, rank_of};
use crate::legs::Stop;
use crate::piece::enemy_mask;
use crate::position::{Kind, Move, MoveKind, Piece, Position, Side};
use crate::variant::{
    BareKing, CastlingRules, EndRules, EvalWeights, Outcome, PieceDef, Promotion, PromotionTarget,
    Variant,
};
use std::sync::{Arc, OnceLock};

/// First board cell (a1); piece-square tables are indexed by `cell - BASE`.
const BASE: u16 = cell(0, 0);
/// Cells from a1 to p16 inclusive.
const SPAN: usize = (cell(15, 15) - BASE + 1) as usize;
/// Share of squares holding a blocker when mobility is sampled: empty-board mobility overrates
/// long-range sliders, real boards block them.
const DENSITY: f64 = 0.25;
const SAMPLES: usize = 12;
/// Side to move bonus.
pub const TEMPO: i32 = 12;
/// A pair of colour-bound pieces on both colours, (mg, eg) at `pair=100`.
const PAIR: (i32, i32) = (45, 60);

/// Per-game evaluation data. Build once per [`Game`] and share.
#[derive(Debug)]
pub struct EvalTables {
    /// Material value per piece type in centipawns; royal pieces 0.
    pub value: Vec<i32>,
    pub royal: Vec<bool>,
    pub pawn: Vec<bool>,
    /// Middlegame and endgame piece-square values (material included), interleaved per
    /// `(side * types + type) * SPAN + cell - BASE`.
    psq: Vec<(i16, i16)>,
    types: usize,
    /// Non-pawn, non-royal material of both sides at the start: the middlegame end of the phase.
    phase_total: i32,
    bare_king: bool,
    /// Kings near the board edge need the safety terms scaled to the board size.
    danger_radius: i32,
    /// Expected mobility (sampled, ×8) per `(side * types + type) * SPAN + cell - BASE`, and the
    /// value of one destination more than expected per type, (mg, eg); 0 for types whose moves
    /// the counter does not follow (pawns, royal pieces, paths with conditions).
    mob_base: Vec<i16>,
    mob_weight: Vec<(i32, i32)>,
    /// Percent of the danger and shield terms (`eval king=N`).
    king_percent: i64,
    /// The `threat` term's percent.
    threat_percent: i32,
    /// The `attack` term's percent: the attack on the enemy royal piece.
    attack_percent: i32,
    /// Percent of the pawn shelter and storm before the royal piece (`eval shelter=N`).
    shelter_percent: i32,
    /// Percent of the isolated and doubled pawn penalties (`eval structure=N`).
    structure_percent: i32,
    /// Percent of the space bonus (`eval space=N`).
    space_percent: i32,
    /// The space bonus's divisor: `bonus · (men − 1)² · 27 · space_percent / space_divisor`
    /// centipawns, which is chess's `bonus · (men − 1)² / 32` (at 100 %) scaled by 12 over the
    /// board's space cells and by 15² over (the start's men a side − 1)², so that every board
    /// starts near chess's space.
    space_divisor: i64,
    files: u8,
    ranks: u8,
    /// What a destination an enemy pawn attacks counts for mobility, in percent of one.
    unsafe_percent: i32,
    /// What a pawn of a type on a cell gains by being passed (no enemy pawn ahead of it on its
    /// file or the next ones), (mg, eg), indexed like `psq`: half its promotion prospects again,
    /// scaled by the `passed` term.
    passer: Vec<(i16, i16)>,
    /// Whether any entry of `passer` is non-zero: the walk for passed pawns is skipped otherwise
    /// (`passed=0`, or no pawn that promotes).
    any_passer: bool,
    /// The types whose every move keeps to the colour of the cell it starts from (a bishop, an
    /// alfil), as bits: two of one such type on both colours make a pair.
    colour_bound: u64,
    /// Percent of the bonus for such a pair (`eval pair=N`).
    pair_percent: i32,
}

/// A set of board cells, indexed by `cell - BASE`.
#[derive(Clone, Copy)]
struct Cells([u64; SPAN.div_ceil(64)]);

impl Cells {
    const EMPTY: Cells = Cells([0; SPAN.div_ceil(64)]);

    /// Adds a cell; cells outside the board's span (guard cells past its corners) are ignored.
    #[inline]
    fn insert(&mut self, c: i16) {
        let i = c as i32 - BASE as i32;
        if (0..SPAN as i32).contains(&i) {
            self.0[i as usize / 64] |= 1 << (i % 64);
        }
    }

    /// Guard cells outside the span are never in the set.
    #[inline]
    fn contains(&self, c: u16) -> bool {
        let i = c.wrapping_sub(BASE) as usize;
        self.0.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 != 0)
    }

    /// How many cells of this set are not in `other`.
    fn count_outside(&self, other: &Cells) -> i32 {
        self.0
            .iter()
            .zip(&other.0)
            .map(|(a, b)| (a & !b).count_ones() as i32)
            .sum()
    }
}

/// A set of cells filled through shared references, by the closures of one walk.
struct SharedCells([std::cell::Cell<u64>; SPAN.div_ceil(64)]);

impl SharedCells {
    fn new() -> SharedCells {
        SharedCells(std::array::from_fn(|_| std::cell::Cell::new(0)))
    }

    #[inline]
    fn insert(&self, c: u16) {
        let i = c.wrapping_sub(BASE) as usize;
        if let Some(w) = self.0.get(i / 64) {
            w.set(w.get() | 1 << (i % 64));
        }
    }

    fn get(&self) -> Cells {
        Cells(std::array::from_fn(|i| self.0[i].get()))
    }
}

/// What one piece's moves reach, from [`EvalTables::count_mobility`].
struct Reach {
    /// Destinations outside and inside the unsafe cells.
    safe: i32,
    contested: i32,
    /// What the enemy pieces it attacks are worth more than it.
    threat: i32,
    /// Cells around the enemy royal piece it attacks.
    hits: i32,
}

/// The enemy royal piece as a target: its neighbourhood and the cells from which the piece type
/// `checks_of` would attack it.
struct KingTarget {
    zone: Cells,
    checks: Cells,
    checks_of: usize,
}

/// What one side's walk shares between its pieces: the cells whose destinations count as unsafe,
/// the enemy royal piece (None when the walk looks only for threats), and the cells gathered
/// (None with `attack=0`, which needs none).
struct Walk<'a> {
    unsafe_cells: &'a Cells,
    target: Option<&'a KingTarget>,
    attacked: Option<&'a SharedCells>,
    checks: &'a SharedCells,
}

/// One side's walk, as the attack on the enemy royal piece needs it.
struct Attack {
    /// Cells the side's walked pieces (pawns included) could capture on.
    attacked: Cells,
    /// Destinations from which a piece would attack the enemy royal piece.
    checks: Cells,
    /// The enemy royal piece's neighbourhood (empty without one).
    zone: Cells,
    /// Pieces attacking that neighbourhood, and their hits on it.
    attackers: i32,
    hits: i32,
    /// Cells the enemy's pawns could capture on (empty when neither `unsafe` nor `space` needs
    /// them).
    pawn_attacked: Cells,
}

/// The most the attack on a royal piece adds in the middlegame.
const ATTACK_CAP: i32 = 300;

impl Attack {
    /// The attacker's bonus, (mg, eg), against a defender whose walk was `defence`: the pieces
    /// aiming at the royal piece's neighbourhood, their hits there and the checks it cannot
    /// answer by a capture, growing with the square of their sum.
    fn bonus(&self, defence: &Attack, percent: i32) -> (i32, i32) {
        let mut guarded = defence.attacked;
        for (g, z) in guarded.0.iter_mut().zip(&self.zone.0) {
            *g |= z;
        }
        let safe_checks = self.checks.count_outside(&guarded).min(4);
        if self.attackers < 2 && safe_checks == 0 {
            return (0, 0);
        }
        let danger = 50 * self.attackers + 70 * self.hits + 300 * safe_checks;
        (
            (danger * danger / 4096).min(ATTACK_CAP) * percent / 100,
            danger / 16 * percent / 100,
        )
    }
}

/// How far the evaluation with mobility may lie from the one without, for lazy evaluation.
pub const LAZY_MARGIN: i32 = 200;
/// Value of one destination, as a share of the piece's value over its mean sampled mobility.
const MOBILITY: f64 = 0.1;

/// A deterministic generator so the derived tables never change between runs.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

/// Average number of destinations of White's `ty` on each board square, over random boards with
/// blockers (half own, half enemy) at `DENSITY`. Indexed by `cell - BASE`. A square and its mirror
/// image across the files draw mirror-image boards, so a left-right symmetric piece gets an exactly
/// symmetric table (sampling noise would otherwise make the start position look unbalanced).
fn mobility(game: &Arc<Game>, scratch: &mut Position, ty: u8) -> Vec<f64> {
    let (files, ranks) = (game.tables.files, game.tables.ranks);
    let mut out = vec![0.0; SPAN];
    let mut moves = Vec::new();
    scratch.side = Side::White;
    scratch.ep = 0;
    for f in 0..files {
        let mirrored = f > files - 1 - f;
        let fc = f.min(files - 1 - f);
        for r in 0..ranks {
            let from = cell(f, r);
            let mut rng =
                XorShift(0x9E37_79B9_7F4A_7C15 ^ (ty as u64) << 40 ^ (fc as u64) << 20 ^ r as u64);
            let mut total = 0usize;
            for _ in 0..SAMPLES {
                for f2 in 0..files {
                    for r2 in 0..ranks {
                        let c = cell(if mirrored { files - 1 - f2 } else { f2 }, r2);
                        scratch.virgin[c as usize] = false;
                        scratch.board[c as usize] = if rng.chance(DENSITY) {
                            let side = if rng.chance(0.5) {
                                Side::Black
                            } else {
                                Side::White
                            };
                            Piece::new(side, Kind(ty))
                        } else {
                            Piece::EMPTY
                        };
                    }
                }
                scratch.board[from as usize] = Piece::new(Side::White, Kind(ty));
                moves.clear();
                scratch.piece_moves(from, &mut moves);
                // Promotion choices repeat a destination: count squares, not moves.
                moves.sort_unstable_by_key(|m| m.to);
                moves.dedup_by_key(|m| m.to);
                total += moves.len();
            }
            out[(from - BASE) as usize] = total as f64 / SAMPLES as f64;
        }
    }
    out
}

/// Black's table from White's: Black moves as White turned half a turn.
fn rotated(game: &Game, white: &[f64]) -> Vec<f64> {
    let (files, ranks) = (game.tables.files, game.tables.ranks);
    let mut out = vec![0.0; SPAN];
    for f in 0..files {
        for r in 0..ranks {
            out[(cell(f, r) - BASE) as usize] =
                white[(cell(files - 1 - f, ranks - 1 - r) - BASE) as usize];
        }
    }
    out
}

/// Average of a per-cell table over the board.
fn board_mean(game: &Game, table: &[f64]) -> f64 {
    let (files, ranks) = (game.tables.files, game.tables.ranks);
    let mut sum = 0.0;
    for f in 0..files {
        for r in 0..ranks {
            sum += table[(cell(f, r) - BASE) as usize];
        }
    }
    sum / (files as usize * ranks as usize) as f64
}

/// A scratch position of the game whose board the mobility sampler rewrites freely.
fn scratch(game: &Arc<Game>) -> Position {
    Position::start(game)
}

/// Mean sampled mobility of a chess knight and rook on 8x8: the two calibration points
/// (knight = 300, rook = 500) of the value estimate.
fn calibration() -> (f64, f64) {
    static CAL: OnceLock<(f64, f64)> = OnceLock::new();
    *CAL.get_or_init(|| {
        let piece = |letter: char, text: &str, royal: bool| {
            let betza = crate::betza::parse(text).expect("calibration Betza");
            PieceDef {
                letter,
                name: letter.to_string(),
                betza_text: text.into(),
                paths: crate::legs::compile(&betza).expect("calibration Betza compiles"),
                betza,
                royal,
                value: None,
                promotes: None,
            }
        };
        let v = Variant {
            name: "calibration".into(),
            aliases: vec![],
            xboard_name: "calibration".into(),
            xboard_parent: "fairy".into(),
            description: String::new(),
            files: 8,
            ranks: 8,
            pieces: vec![
                piece('K', "K", true),
                piece('N', "N", false),
                piece('R', "R", false),
            ],
            start: crate::setup::Setup::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1").expect("valid"),
            promotion: Promotion {
                pawns: vec![],
                zone: 1,
                to: PromotionTarget::Choice(vec![]),
                optional: false,
                limit: Vec::new(),
            },
            castling: CastlingRules::default(),
            royal_initial_moves_safe: false,
            end: EndRules {
                stalemated: Outcome::Draw,
                bare_king: BareKing::Off,
                repetition: None,
                move_count: None,
                ..EndRules::default()
            },
            dice: None,
            hand: Default::default(),
            regions: Default::default(),
            piece_promotion: None,
            immobile_forbidden: false,
            rights_by_file: Vec::new(),
            eval: Default::default(),
            promotion_move: None,
            shuffle: None,
        };
        let game = Game::new(v);
        let mut s = scratch(&game);
        let n = board_mean(&game, &mobility(&game, &mut s, 1));
        let r = board_mean(&game, &mobility(&game, &mut s, 2));
        (n, r)
    })
}

/// Value from mean sampled mobility: a power law through knight = 300 and rook = 500.
fn value_from_mobility(m: f64) -> i32 {
    let (n, r) = calibration();
    let b = (5.0f64 / 3.0).ln() / (r / n).ln();
    (300.0 * (m.max(0.1) / n).powf(b)).round() as i32
}

/// Plies a pawn on each cell needs to reach a promotion cell by quiet moves on an empty board, and
/// the best promotion value reachable that fast. Indexed by `cell - BASE`.
fn promotion_distance(
    game: &Arc<Game>,
    scratch: &mut Position,
    ty: Kind,
    side: Side,
    value: &[i32],
) -> Vec<(u8, i32)> {
    let (files, ranks) = (game.tables.files, game.tables.ranks);
    let promos = &game.tables.promotions[side.index()];
    let best_promo = |c: u16| promos[c as usize].iter().map(|&t| value[t.index()]).max();
    let mut out = vec![(u8::MAX, 0); SPAN];
    // Successors on the empty board, for a BFS from every cell.
    let mut succ: Vec<Vec<u16>> = vec![Vec::new(); SPAN];
    let mut moves = Vec::new();
    scratch.side = side;
    for f in 0..files {
        for r in 0..ranks {
            let c = cell(f, r);
            scratch.board[c as usize] = Piece::EMPTY;
            scratch.virgin[c as usize] = false;
        }
    }
    for f in 0..files {
        for r in 0..ranks {
            let from = cell(f, r);
            scratch.board[from as usize] = Piece::new(side, ty);
            moves.clear();
            scratch.piece_moves(from, &mut moves);
            scratch.board[from as usize] = Piece::EMPTY;
            succ[(from - BASE) as usize] = moves.iter().map(|m| m.to).collect();
        }
    }
    for f in 0..files {
        for r in 0..ranks {
            let start = cell(f, r);
            if best_promo(start).is_some() {
                continue;
            }
            let mut seen = vec![false; SPAN];
            let mut frontier = vec![start];
            seen[(start - BASE) as usize] = true;
            let mut dist = 0u8;
            'bfs: while !frontier.is_empty() && dist < 32 {
                dist += 1;
                let mut next = Vec::new();
                let mut found: Option<i32> = None;
                for &c in &frontier {
                    for &t in &succ[(c - BASE) as usize] {
                        if let Some(v) = best_promo(t) {
                            found = Some(found.map_or(v, |b: i32| b.max(v)));
                        } else if !seen[(t - BASE) as usize] {
                            seen[(t - BASE) as usize] = true;
                            next.push(t);
                        }
                    }
                }
                if let Some(v) = found {
                    out[(start - BASE) as usize] = (dist, v);
                    break 'bfs;
                }
                frontier = next;
            }
        }
    }
    out
}

/// Does every move of this type, alone on the empty board from any cell, land on a cell of the
/// colour it started from (and is there any move)? Then its pieces keep to one colour for good.
fn colour_bound(game: &Game, scratch: &mut Position, ty: u8) -> bool {
    let (files, ranks) = (game.tables.files, game.tables.ranks);
    scratch.side = Side::White;
    for f in 0..files {
        for r in 0..ranks {
            let c = cell(f, r);
            scratch.board[c as usize] = Piece::EMPTY;
            scratch.virgin[c as usize] = false;
        }
    }
    let mut moves = Vec::new();
    let mut any = false;
    for f in 0..files {
        for r in 0..ranks {
            let from = cell(f, r);
            scratch.board[from as usize] = Piece::new(Side::White, Kind(ty));
            moves.clear();
            scratch.piece_moves(from, &mut moves);
            scratch.board[from as usize] = Piece::EMPTY;
            for m in &moves {
                any = true;
                if !(file_of(m.to) + rank_of(m.to) + f + r).is_multiple_of(2) {
                    return false;
                }
            }
        }
    }
    any
}

/// What the evaluation derives from the rules alone, whatever the weights: the sampled mobility of
/// each piece type per square. Sampling is most of the cost of building [`EvalTables`], so the
/// tuner samples once and builds tables for many weights from one basis.
pub struct EvalBasis {
    game: Arc<Game>,
    /// Sampled mobility per type, White's and Black's tables.
    mob: Vec<[Vec<f64>; 2]>,
    /// Per type: every move keeps to its starting cell's colour.
    colour_bound: Vec<bool>,
}

impl EvalBasis {
    pub fn new(game: &Arc<Game>) -> EvalBasis {
        let mut s = scratch(game);
        let mob = (0..game.tables.pieces.len() as u8)
            .map(|ty| {
                let white = mobility(game, &mut s, ty);
                let black = rotated(game, &white);
                [white, black]
            })
            .collect();
        let colour_bound = (0..game.tables.pieces.len() as u8)
            .map(|ty| colour_bound(game, &mut s, ty))
            .collect();
        EvalBasis {
            game: game.clone(),
            mob,
            colour_bound,
        }
    }

    /// The tables for these weights (exactly [`EvalTables::with_weights`]'s).
    pub fn tables(&self, weights: &EvalWeights) -> EvalTables {
        EvalTables::build(self, weights)
    }
}

impl EvalTables {
    /// Derives everything from the game's tables and the variant's `eval` weights. Takes a few
    /// milliseconds: cache the result.
    pub fn new(game: &Arc<Game>) -> EvalTables {
        EvalTables::with_weights(game, &game.variant.eval)
    }

    /// As [`EvalTables::new`] with other weights (the tuner's trials). The default weights give
    /// exactly the evaluation derived from the rules alone.
    pub fn with_weights(game: &Arc<Game>, weights: &EvalWeights) -> EvalTables {
        EvalBasis::new(game).tables(weights)
    }

    fn build(basis: &EvalBasis, weights: &EvalWeights) -> EvalTables {
        let game = &basis.game;
        let t = &game.tables;
        // Term scales, as factors for the derived tables (exactly 1.0 at 100).
        let scale = |name: &str| f64::from(weights.term(name).expect("a known term")) / 100.0;
        let (psq_scale, mob_scale, king_scale, promo_scale, passed_scale) = (
            scale("psq"),
            scale("mobility"),
            scale("king"),
            scale("promotion"),
            scale("passed"),
        );
        // Material per type, (mg, eg), where `eval` gives it.
        let material: Vec<Option<(i32, i32)>> = game
            .variant
            .pieces
            .iter()
            .map(|p| weights.material_of(p.letter))
            .collect();
        let types = t.pieces.len();
        let (files, ranks) = (t.files, t.ranks);
        let royal: Vec<bool> = t.pieces.iter().map(|p| p.royal).collect();
        let pawn: Vec<bool> = t.pieces.iter().map(|p| p.pawn).collect();
        let mut s = scratch(game);
        let mob = &basis.mob;
        let value: Vec<i32> = (0..types)
            .map(|ty| {
                if royal[ty] {
                    0
                } else if let Some((mg, eg)) = material[ty] {
                    // One figure for exchanges, the phase and what follows from a value.
                    (mg + eg) / 2
                } else if let Some(v) = game.variant.pieces[ty].value {
                    v
                } else if pawn[ty] {
                    100
                } else {
                    value_from_mobility(board_mean(game, &mob[ty][0]))
                }
            })
            .collect();
        let centre = |c: u16| {
            let df = (2.0 * file_of(c) as f64 - (files - 1) as f64).abs() / 2.0;
            let dr = (2.0 * rank_of(c) as f64 - (ranks - 1) as f64).abs() / 2.0;
            -(df + dr)
        };
        let mut mob_base = vec![0i16; 2 * types * SPAN];
        for ty in 0..types {
            for side in 0..2usize {
                for (i, &m) in mob[ty][side].iter().enumerate() {
                    mob_base[(side * types + ty) * SPAN + i] = (m * 8.0).round() as i16;
                }
            }
        }
        let mob_weight = (0..types)
            .map(|ty| {
                let prog = &t.pieces[ty].program;
                let simple = prog
                    .iter()
                    .all(|p| p.complex.is_empty() && p.castles.is_empty());
                if royal[ty] || pawn[ty] || !simple {
                    return (0, 0);
                }
                // One more square is worth more to a piece that has few.
                let mean = board_mean(game, &mob[ty][0]).max(1.0);
                let w = (MOBILITY * value[ty] as f64 / mean).clamp(1.0, 16.0) * mob_scale;
                ((w * 0.8).round() as i32, w.round() as i32)
            })
            .collect();
        let mut psq = vec![(0i16, 0i16); 2 * types * SPAN];
        let mut passer = vec![(0i16, 0i16); 2 * types * SPAN];
        for ty in 0..types {
            for side in 0..2usize {
                let m = &mob[ty][side];
                // White's mean for both sides: Black's table is White's turned round, and summing
                // it in another order could round a square differently for each side.
                let mean = board_mean(game, &mob[ty][0]).max(0.5);
                let promo = pawn[ty].then(|| {
                    let (k, side) = (Kind(ty as u8), Side::from_index(side));
                    promotion_distance(game, &mut s, k, side, &value)
                });
                for f in 0..files {
                    for r in 0..ranks {
                        let c = cell(f, r);
                        let i = (c - BASE) as usize;
                        let v = value[ty] as f64;
                        let (vm, ve) =
                            material[ty].map_or((v, v), |(mg, eg)| (mg.into(), eg.into()));
                        let rel = (m[i] - mean) / mean;
                        let (mg, eg) = if royal[ty] {
                            // Stay home while the enemy has pieces, centralise in the endgame.
                            let home = if side == 0 { r } else { ranks - 1 - r } as f64;
                            (
                                (-12.0 * home.min(3.0) - 4.0 * (home - 3.0).max(0.0)
                                    + 2.0 * centre(c))
                                    * king_scale,
                                8.0 * centre(c) * king_scale,
                            )
                        } else if let Some(p) = &promo {
                            let (d, to) = p[i];
                            let gain = (to - value[ty]).max(0) as f64;
                            let eg = if d == u8::MAX {
                                0.0
                            } else {
                                gain * 0.35 * 0.6f64.powi(d as i32 - 1) * promo_scale
                            };
                            let pass = eg * passed_scale;
                            passer[(side * types + ty) * SPAN + i] =
                                ((pass * 0.1).round() as i16, (pass * 0.5).round() as i16);
                            // A little centre for pawns too: central pawns control more.
                            (vm + eg * 0.4 + 3.0 * rel * 10.0 * psq_scale, ve + eg)
                        } else {
                            let pst = (0.15 * v * rel).clamp(-60.0, 60.0) * psq_scale;
                            (vm + pst, ve + pst * 0.6)
                        };
                        psq[(side * types + ty) * SPAN + i] =
                            (mg.round() as i16, eg.round() as i16);
                    }
                }
            }
        }
        let start = scratch(game);
        let phase_total = Side::BOTH
            .iter()
            .flat_map(|&side| start.pieces(side).iter())
            .map(|&c| start.at(c).kind().index())
            .filter(|&ty| !pawn[ty] && !royal[ty])
            .map(|ty| value[ty])
            .sum::<i32>()
            .max(1);
        let space_divisor = {
            let cells = i64::from(files - 2 * (files / 4)) * i64::from((ranks / 2).max(1) - 1);
            let men = Side::BOTH
                .iter()
                .map(|&side| start.pieces(side).len() as i64)
                .max()
                .unwrap_or(2);
            32 * cells.max(1) * (men - 1).max(1).pow(2)
        };
        let colour_bound = basis
            .colour_bound
            .iter()
            .enumerate()
            .filter(|&(ty, &b)| b && !royal[ty] && !pawn[ty])
            .fold(0, |bits, (ty, _)| bits | 1 << ty);
        EvalTables {
            value,
            royal,
            pawn,
            psq,
            types,
            phase_total,
            bare_king: game.variant.end.bare_king != BareKing::Off,
            danger_radius: if files.max(ranks) > 8 { 3 } else { 2 },
            king_percent: weights.term("king").expect("a known term").into(),
            threat_percent: weights.term("threat").expect("a known term"),
            attack_percent: weights.term("attack").expect("a known term"),
            shelter_percent: weights.term("shelter").expect("a known term"),
            structure_percent: weights.term("structure").expect("a known term"),
            space_percent: weights.term("space").expect("a known term"),
            space_divisor,
            files,
            ranks,
            unsafe_percent: weights.term("unsafe").expect("a known term"),
            mob_base,
            mob_weight,
            any_passer: passer.iter().any(|&p| p != (0, 0)),
            colour_bound,
            pair_percent: weights.term("pair").expect("a known term"),
            passer,
        }
    }

    /// Piece-square entry (material included) of a piece code on a cell: (middlegame, endgame).
    #[inline]
    pub fn psq(&self, side: Side, kind: Kind, c: u16) -> (i32, i32) {
        let (mg, eg) =
            self.psq[(side.index() * self.types + kind.index()) * SPAN + (c - BASE) as usize];
        (mg as i32, eg as i32)
    }

    /// Evaluation from the side to move's point of view, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.finish(pos, &self.state(pos))
    }

    /// Danger a piece of type `t` on `c` brings to a royal piece on `king`.
    #[inline]
    fn danger(&self, t: usize, c: u16, king: u16) -> i32 {
        if king == 0 || self.pawn[t] || self.royal[t] {
            return 0;
        }
        let d = chebyshev(king, c);
        if d <= self.danger_radius {
            (self.danger_radius + 1 - d) * self.value[t] / 100
        } else {
            0
        }
    }

    /// Does a piece of type `t` on `c` shield its own royal piece on `king`?
    #[inline]
    fn shields(&self, t: usize, c: u16, king: u16) -> i32 {
        i32::from(king != 0 && self.pawn[t] && chebyshev(king, c) == 1)
    }

    /// The evaluation terms of a position, from scratch.
    pub fn state(&self, pos: &Position) -> EvalState {
        let mut st = EvalState::default();
        let kings = [pos.royal_square(Side::White), pos.royal_square(Side::Black)];
        for side in Side::BOTH {
            for &c in pos.pieces(side) {
                st.add(self, side.index(), pos.at(c).kind().index(), c, kings);
            }
            // A piece in hand is worth its value: it can enter wherever it is needed.
            if pos.game().tables.hand.on {
                for t in 0..self.types {
                    let n = i32::from(pos.in_hand(side, Kind(t as u8)));
                    st.mg[side.index()] += n * self.value[t];
                    st.eg[side.index()] += n * self.value[t];
                }
            }
        }
        self.refresh_pawns(&mut st);
        st
    }

    /// The terms after `m`, made in `pos`, from those before it: `moved` is the piece that stood
    /// on `m.from`. Royal moves and castling change the king terms of many pieces: those recompute
    /// from scratch.
    pub fn update(&self, pos: &Position, prev: &EvalState, m: Move, moved: Piece) -> EvalState {
        let t_before = moved.kind();
        // Hands change with drops and captures: recount (hands are small, boards with them too).
        if matches!(m.kind(), MoveKind::Castle | MoveKind::Locust)
            || m.promotion().is_some_and(|t| self.royal[t.index()])
            || pos.game().tables.hand.on
        {
            return self.state(pos);
        }
        let mover = moved.side();
        let side = mover.index();
        let kings = [pos.royal_square(Side::White), pos.royal_square(Side::Black)];
        let mut st = *prev;
        let captured = m.captured();
        if self.royal[t_before.index()] {
            // Only the mover's king terms depend on where its royal piece stands: recount those.
            let (a, b) = self.psq(mover, t_before, m.from);
            let (c, d) = self.psq(mover, t_before, m.to);
            st.mg[side] += c - a;
            st.eg[side] += d - b;
            if m.is_capture() {
                let (cs, ck) = (captured.side().index(), captured.kind().index());
                st.remove(self, cs, ck, m.captured_at(), kings);
            }
            let king = kings[side];
            st.danger[side] = 0;
            for &c in pos.pieces(!mover) {
                st.danger[side] += self.danger(pos.at(c).kind().index(), c, king);
            }
            st.shield[side] = 0;
            for &c in pos.pieces(mover) {
                st.shield[side] += self.shields(pos.at(c).kind().index(), c, king);
            }
            if m.is_capture() && self.pawn[captured.kind().index()] {
                self.refresh_pawns(&mut st);
            }
            return st;
        }
        st.remove(self, side, t_before.index(), m.from, kings);
        st.add(self, side, pos.at(m.to).kind().index(), m.to, kings);
        if m.is_capture() {
            let (cs, ck) = (captured.side().index(), captured.kind().index());
            st.remove(self, cs, ck, m.captured_at(), kings);
        }
        if self.pawn[t_before.index()] || m.is_capture() && self.pawn[captured.kind().index()] {
            self.refresh_pawns(&mut st);
        }
        st
    }

    /// Recomputes the pawn key, which changes only when a pawn moves or goes.
    fn refresh_pawns(&self, st: &mut EvalState) {
        let mut h = 0x243F_6A88_85A3_08D3u64;
        for &m in st.pawns.iter().flatten() {
            h = (h ^ m as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        st.pawn_key = h;
    }

    /// Destinations (empty or enemy) of a piece through its plain leaps, slides and bent paths,
    /// the moves the sampled mobility counts too, as (those outside `unsafe_cells`, those in it);
    /// and the threats among them: what the enemy pieces it attacks are worth more than it.
    fn count_mobility(
        &self,
        pos: &Position,
        side: Side,
        ty: usize,
        from: u16,
        walk: &Walk,
    ) -> Reach {
        let Walk {
            unsafe_cells,
            target,
            attacked,
            checks,
        } = walk;
        let prog = &pos.game().tables.pieces[ty].program[side.index()];
        let enemy = enemy_mask(side);
        let own = self.value[ty];
        let threat = std::cell::Cell::new(0);
        let (safe, contested) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
        let hits = std::cell::Cell::new(0);
        let count = |to: u16| {
            let n = if unsafe_cells.contains(to) {
                &contested
            } else {
                &safe
            };
            n.set(n.get() + 1);
            if let Some(t) = target
                && t.checks.contains(to)
            {
                checks.insert(to);
            }
        };
        // The cells this piece could capture on, and those next to the enemy royal piece.
        let attack = |to: u16, stop: u8| {
            if let Some(attacked) = attacked
                && stop & Stop::ENEMY != 0
                && !pos.at(to).is_off()
            {
                attacked.insert(to);
                if let Some(t) = target
                    && t.zone.contains(to)
                {
                    hits.set(hits.get() + 1);
                }
            }
        };
        let reach = |c: Piece, stop: u8| {
            if c.is_empty() {
                stop & Stop::EMPTY != 0
            } else if c.bits() & enemy != 0 && stop & Stop::ENEMY != 0 {
                let v = self.value[c.kind().index()];
                if v > own {
                    threat.set(threat.get() + (v - own));
                }
                true
            } else {
                false
            }
        };
        let ride = |start: u16, off: i16, max: u8, stop: u8| {
            let (mut to, mut n) = (start as i16, 0u8);
            loop {
                to += off;
                let c = pos.at(to as u16);
                attack(to as u16, stop);
                if c.is_occupied() {
                    if reach(c, stop) {
                        count(to as u16);
                    }
                    return;
                }
                if stop & Stop::EMPTY != 0 {
                    count(to as u16);
                }
                n += 1;
                if n == max {
                    return;
                }
            }
        };
        for &(off, stop) in &prog.leaps {
            let to = (from as i16 + off) as u16;
            attack(to, stop);
            if reach(pos.at(to), stop) {
                count(to);
            }
        }
        for &(off, max, stop) in &prog.slides {
            ride(from, off, max, stop);
        }
        for b in &prog.bent {
            let first = (from as i16 + b.step) as u16;
            let c = pos.at(first);
            attack(first, b.stop);
            if reach(c, b.stop) {
                count(first);
            }
            if c.is_empty() {
                for &(off, max, stop) in &b.slides {
                    ride(first, off, max, stop);
                }
            }
        }
        Reach {
            safe: safe.get(),
            contested: contested.get(),
            threat: threat.get(),
            hits: hits.get(),
        }
    }

    /// What a piece of type `ty` of `side` needs to attack the enemy royal piece on `king`: the
    /// cells from which its plain leaps, slides and bent paths would reach it.
    fn check_cells(&self, pos: &Position, side: Side, ty: usize, king: u16) -> Cells {
        let prog = &pos.game().tables.pieces[ty].program[side.index()];
        let mut cells = Cells::EMPTY;
        for &(off, stop) in &prog.leaps {
            if stop & Stop::ENEMY != 0 {
                cells.insert(king as i16 - off);
            }
        }
        for &(off, max, stop) in &prog.slides {
            if stop & Stop::ENEMY == 0 {
                continue;
            }
            let mut c = king as i16;
            // A slide's `max` of 0 is unlimited: the board's edge ends it.
            let steps = if max == 0 { u8::MAX } else { max };
            for _ in 0..steps {
                c -= off;
                let p = pos.at(c as u16);
                if p.is_off() {
                    break;
                }
                cells.insert(c);
                if p.is_occupied() {
                    break;
                }
            }
        }
        // A bent path reaches the royal piece by its first step, or by a slide from the empty
        // cell that step lands on: walking the slide back from the royal square, each empty cell
        // is such a landing cell, one first step after the origin.
        for b in &prog.bent {
            if b.stop & Stop::ENEMY != 0 {
                cells.insert(king as i16 - b.step);
            }
            for &(off, max, stop) in &b.slides {
                if stop & Stop::ENEMY == 0 {
                    continue;
                }
                let steps = if max == 0 { u8::MAX } else { max };
                let mut c = king as i16;
                for _ in 0..steps {
                    c -= off;
                    if !pos.at(c as u16).is_empty() {
                        break;
                    }
                    cells.insert(c - b.step);
                }
            }
        }
        cells
    }

    /// The cells one side's pawns could capture on by a leap.
    fn pawn_attacks(&self, pos: &Position, side: Side) -> Cells {
        let mut cells = Cells::EMPTY;
        for &c in pos.pieces(side) {
            let ty = pos.at(c).kind().index();
            if self.pawn[ty] && !self.royal[ty] {
                let prog = &pos.game().tables.pieces[ty].program[side.index()];
                for &(off, stop) in &prog.leaps {
                    if stop & Stop::ENEMY != 0 {
                        cells.insert(c as i16 + off);
                    }
                }
            }
        }
        cells
    }

    /// Mobility of one side's pieces against what their squares promise on average, (mg, eg); a
    /// destination an enemy pawn attacks counts `unsafe` percent of one. With it, the threats (one
    /// value for both phases) and what the attack on the enemy royal piece needs.
    fn mobility(&self, pos: &Position, side: Side) -> (i32, i32, i32, Attack) {
        let (mut mg, mut eg) = (0, 0);
        let mut threats = 0;
        // The space term needs them too; at `unsafe=100` they count as any other destination.
        let unsafe_cells = if self.unsafe_percent == 100 && self.space_percent == 0 {
            Cells::EMPTY
        } else {
            self.pawn_attacks(pos, !side)
        };
        let king = pos.royal_square(!side);
        // `attack=0` skips the walk's attack cells altogether.
        let mut target = (king != 0 && self.attack_percent != 0).then(|| {
            let mut zone = Cells::EMPTY;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    zone.insert(king as i16 + dx + dy * STRIDE);
                }
            }
            KingTarget {
                zone,
                checks: Cells::EMPTY,
                checks_of: usize::MAX,
            }
        });
        let (attacked, checks) = (SharedCells::new(), SharedCells::new());
        let attacked_cells =
            (self.attack_percent != 0 || self.space_percent != 0).then_some(&attacked);
        // Pawns are walked for their threats and the cells they guard only.
        let pawn_walk = Walk {
            unsafe_cells: &unsafe_cells,
            target: None,
            attacked: attacked_cells,
            checks: &checks,
        };
        let (mut attackers, mut hits) = (0, 0);
        for &c in pos.pieces(side) {
            let ty = pos.at(c).kind().index();
            let (wm, we) = self.mob_weight[ty];
            if wm == 0 && we == 0 {
                if self.pawn[ty] && !self.royal[ty] {
                    threats += self.count_mobility(pos, side, ty, c, &pawn_walk).threat;
                }
                continue;
            }
            if let Some(t) = target.as_mut()
                && t.checks_of != ty
            {
                t.checks = self.check_cells(pos, side, ty, king);
                t.checks_of = ty;
            }
            let base = self.mob_base[(side.index() * self.types + ty) * SPAN + (c - BASE) as usize];
            let walk = Walk {
                unsafe_cells: &unsafe_cells,
                target: target.as_ref(),
                attacked: attacked_cells,
                checks: &checks,
            };
            let r = self.count_mobility(pos, side, ty, c, &walk);
            threats += r.threat;
            if r.hits > 0 {
                attackers += 1;
                hits += r.hits;
            }
            // In eighths of a destination, as `base` is.
            let d = (800 * r.safe + 8 * self.unsafe_percent * r.contested) / 100 - base as i32;
            mg += wm * d;
            eg += we * d;
        }
        // Enemy pieces attacked by lesser ones: a quarter of the difference, at most 150.
        let t = (threats / 4).min(150) * self.threat_percent / 100;
        let attack = Attack {
            attacked: attacked.get(),
            checks: checks.get(),
            zone: target.map_or(Cells::EMPTY, |t| t.zone),
            attackers,
            hits,
            pawn_attacked: unsafe_cells,
        };
        (mg / 8, eg / 8, t, attack)
    }

    /// The evaluation of a position from its terms, for the side to move.
    pub fn finish(&self, pos: &Position, st: &EvalState) -> i32 {
        let terms = self.terms(pos, st);
        self.for_side_to_move(&terms, pos, st)
    }

    /// The evaluation without mobility, the one term that walks the board: cheap, and within
    /// [`LAZY_MARGIN`] of [`EvalTables::finish`] in all but wild positions. With it, the terms
    /// it computed, from which [`EvalTables::finish_walked`] completes the full evaluation.
    pub fn finish_lazy(&self, pos: &Position, st: &EvalState) -> (i32, LazyTerms) {
        let terms = self.board_terms(pos, st);
        let v = self.for_side_to_move(&terms, pos, st);
        (v, LazyTerms(terms))
    }

    /// [`EvalTables::finish`] of the position `lazy` came from, without computing its terms again.
    pub fn finish_walked(&self, pos: &Position, st: &EvalState, lazy: LazyTerms) -> i32 {
        let mut terms = lazy.0;
        self.add_walks(pos, st, &mut terms);
        self.for_side_to_move(&terms, pos, st)
    }

    /// Passed pawns of one side: (mg, eg).
    fn passers(&self, pos: &Position, st: &EvalState, side: Side) -> (i32, i32) {
        let (mut mg, mut eg) = (0, 0);
        if !self.any_passer {
            return (mg, eg);
        }
        let enemy = &st.pawns[(!side).index()];
        for &c in pos.pieces(side) {
            let ty = pos.at(c).kind().index();
            if !self.pawn[ty] || self.royal[ty] {
                continue;
            }
            let (f, r) = (file_of(c) as usize, rank_of(c) as u32);
            let ahead: u16 = if side == Side::White {
                !((2u32 << r) - 1) as u16
            } else {
                ((1u32 << r) - 1) as u16
            };
            let lo = f.saturating_sub(1);
            let hi = (f + 1).min(15);
            if enemy[lo..=hi].iter().all(|&m| m & ahead == 0) {
                let (a, b) =
                    self.passer[(side.index() * self.types + ty) * SPAN + (c - BASE) as usize];
                mg += a as i32;
                eg += b as i32;
            }
        }
        (mg, eg)
    }

    /// The pawn shelter of one side's royal piece, for the middlegame, by Stockfish's shelter and
    /// storm tables: on three files around the royal piece (moved off the board's edges), by each
    /// file's distance from the nearer edge, the relative rank of the own pawn nearest the own
    /// edge on the royal piece's rank or ahead (0 for none: a hole), and that of the enemy's
    /// (a storm, unless the own pawn stands just before it and blocks it). Stockfish's units,
    /// halved to centipawns.
    fn shelter(&self, pos: &Position, st: &EvalState, side: Side) -> i32 {
        // [distance from the edge][relative rank]; the last rank counts nothing.
        const SHELTER: [[i32; 8]; 4] = [
            [-6, 81, 93, 58, 39, 18, 25, 0],
            [-43, 61, 35, -49, -29, -11, -63, 0],
            [-10, 75, 23, -2, 32, 3, -45, 0],
            [-39, -13, -29, -52, -48, -67, -166, 0],
        ];
        const STORM: [[i32; 8]; 4] = [
            [85, -289, -166, 97, 50, 45, 50, 0],
            [46, -25, 122, 45, 37, -10, 20, 0],
            [-6, 51, 168, 34, -2, -22, -14, 0],
            [-15, -11, 101, 4, 11, -15, -29, 0],
        ];
        const BLOCKED: i32 = 82;
        let king = pos.royal_square(side);
        if self.shelter_percent == 0 || king == 0 {
            return 0;
        }
        let files = self.files as usize;
        let ranks = u32::from(self.ranks);
        let kf = file_of(king) as usize;
        let (white, kr) = (side == Side::White, u32::from(rank_of(king)));
        let from = if white { kr } else { ranks - 1 - kr };
        // A file's pawns as relative ranks (bit 0 the own edge), from the royal piece's rank on.
        let relative = |mask: u16| -> u32 {
            let m = if white {
                u32::from(mask)
            } else {
                u32::from(mask.reverse_bits()) >> (16 - ranks)
            };
            m >> from << from
        };
        let lowest = |m: u32| {
            if m == 0 {
                0
            } else {
                (m.trailing_zeros() as usize).min(7)
            }
        };
        let centre = kf.clamp(1, files.saturating_sub(2).max(1));
        let mut v = 0;
        for f in centre - 1..=(centre + 1).min(files - 1) {
            let ours = lowest(relative(st.pawns[side.index()][f]));
            let theirs = lowest(relative(st.pawns[(!side).index()][f]));
            let edge = f.min(files - 1 - f).min(3);
            v += SHELTER[edge][ours];
            if ours != 0 && ours + 1 == theirs {
                if theirs == 2 {
                    v -= BLOCKED;
                }
            } else {
                v -= STORM[edge][theirs];
            }
        }
        v / 2 * self.shelter_percent / 100
    }

    /// The pawn structure of one side, (mg, eg): each pawn with no pawn of its side on the files
    /// next to it (isolated), and each pawn more than one on a file (doubled), is a weakness.
    fn structure(&self, st: &EvalState, side: Side) -> (i32, i32) {
        const ISOLATED: (i32, i32) = (-12, -18);
        const DOUBLED: (i32, i32) = (-10, -28);
        if self.structure_percent == 0 {
            return (0, 0);
        }
        let own = &st.pawns[side.index()][..self.files as usize];
        let (mut isolated, mut doubled) = (0, 0);
        for (f, &mask) in own.iter().enumerate() {
            let n = mask.count_ones() as i32;
            if n == 0 {
                continue;
            }
            doubled += n - 1;
            let left = f > 0 && own[f - 1] != 0;
            let right = own.get(f + 1).is_some_and(|&m| m != 0);
            if !left && !right {
                isolated += n;
            }
        }
        let p = self.structure_percent;
        (
            (ISOLATED.0 * isolated + DOUBLED.0 * doubled) * p / 100,
            (ISOLATED.1 * isolated + DOUBLED.1 * doubled) * p / 100,
        )
    }

    /// The space of one side, middlegame only, after Stockfish's: the cells of the central files
    /// on its own half but the back rank that no own pawn stands on and no enemy pawn attacks,
    /// those of them up to three cells behind an own pawn that no enemy piece attacks counting
    /// twice, times the square of the side's men less one (see `space_divisor`), while three
    /// quarters of the pieces other than pawns remain. `enemy` holds the cells the enemy's
    /// pieces could capture on, and `pawn_attacks` those its pawns could.
    fn space(
        &self,
        pos: &Position,
        st: &EvalState,
        side: Side,
        enemy: &Cells,
        pawn_attacks: &Cells,
    ) -> i32 {
        if self.space_percent == 0 || st.phase * 4 < self.phase_total * 3 {
            return 0;
        }
        let (files, ranks) = (self.files, self.ranks);
        let own = &st.pawns[side.index()];
        let white = side == Side::White;
        let mut bonus = 0;
        for f in files / 4..files - files / 4 {
            let pawns = u32::from(own[f as usize]);
            for rel in 1..ranks / 2 {
                let r = if white { rel } else { ranks - 1 - rel };
                if pawns >> r & 1 != 0 {
                    continue;
                }
                let c = cell(f, r);
                if pawn_attacks.contains(c) {
                    continue;
                }
                bonus += 1;
                // An own pawn one to three cells ahead shelters the cell.
                let ahead = if white {
                    pawns >> (r + 1)
                } else {
                    pawns << 3 >> r
                };
                if ahead & 0b111 != 0 && !enemy.contains(c) {
                    bonus += 1;
                }
            }
        }
        let weight = pos.pieces(side).len() as i64 - 1;
        let v = i64::from(bonus) * weight * weight * 27 * i64::from(self.space_percent);
        (v / self.space_divisor) as i32
    }

    /// The pair bonus of one side, (mg, eg): for each colour-bound type it has on both colours
    /// (Stockfish's bishop pair, about half a pawn).
    fn pair(&self, pos: &Position, side: Side) -> (i32, i32) {
        if self.pair_percent == 0 || self.colour_bound == 0 {
            return (0, 0);
        }
        let mut on = [0u64; 2];
        for &c in pos.pieces(side) {
            let bit = 1u64 << pos.at(c).kind().index();
            on[usize::from((file_of(c) + rank_of(c)) & 1)] |= bit & self.colour_bound;
        }
        let pairs = (on[0] & on[1]).count_ones() as i32;
        (
            pairs * PAIR.0 * self.pair_percent / 100,
            pairs * PAIR.1 * self.pair_percent / 100,
        )
    }

    /// Each side's terms, (mg, eg), before the phase blends them.
    fn terms(&self, pos: &Position, st: &EvalState) -> [Terms; 2] {
        let mut terms = self.board_terms(pos, st);
        self.add_walks(pos, st, &mut terms);
        terms
    }

    /// Each side's terms that need no walk of the board; the walked ones are 0.
    fn board_terms(&self, pos: &Position, st: &EvalState) -> [Terms; 2] {
        std::array::from_fn(|side| {
            let who = Side::from_index(side);
            let danger = st.danger[side];
            let king =
                8 * st.shield[side].min(3) as i64 - (danger as i64 * danger as i64 / 4).min(400);
            Terms {
                material: (st.mg[side], st.eg[side]),
                king: ((king * self.king_percent / 100) as i32, 0),
                mobility: (0, 0),
                threats: (0, 0),
                attack: (0, 0),
                passed: self.passers(pos, st, who),
                shelter: (self.shelter(pos, st, who), 0),
                structure: self.structure(st, who),
                space: (0, 0),
                pair: self.pair(pos, who),
            }
        })
    }

    /// Walks both sides' pieces and fills in the terms the walks give: mobility, threats, the
    /// attack on the royal piece and space.
    fn add_walks(&self, pos: &Position, st: &EvalState, terms: &mut [Terms; 2]) {
        let walks = Side::BOTH.map(|side| self.mobility(pos, side));
        for (side, t) in terms.iter_mut().enumerate() {
            let who = Side::from_index(side);
            let (mg, eg, threats, ref att) = walks[side];
            t.mobility = (mg, eg);
            t.threats = (threats, threats);
            if self.attack_percent != 0 {
                t.attack = att.bonus(&walks[side ^ 1].3, self.attack_percent);
            }
            t.space = (
                self.space(
                    pos,
                    st,
                    who,
                    &walks[side ^ 1].3.attacked,
                    &att.pawn_attacked,
                ),
                0,
            );
        }
    }

    /// The middlegame share of the phase, as (phase, total): the blend is
    /// `(mg × phase + eg × (total − phase)) / total`.
    fn phase(&self, st: &EvalState) -> (i64, i64) {
        (
            st.phase.min(self.phase_total) as i64,
            self.phase_total as i64,
        )
    }

    /// What the bare-king rule adds for White: pieces are worth more when losing the last one
    /// loses the game.
    fn bare_king_bonus(&self, st: &EvalState) -> i32 {
        const FEW: [i32; 4] = [600, 200, 80, 30];
        if !self.bare_king {
            return 0;
        }
        let few = |side: usize| FEW.get(st.nonroyal[side] as usize).copied().unwrap_or(0);
        few(1) - few(0)
    }

    /// The terms of both sides blended by the phase, and the bare-king bonus: White's score
    /// before the tempo.
    fn for_white(&self, terms: &[Terms; 2], st: &EvalState) -> i32 {
        let (phase, total) = self.phase(st);
        terms[0].blend(phase, total) - terms[1].blend(phase, total) + self.bare_king_bonus(st)
    }

    /// The terms blended and the tempo added, for the side to move.
    fn for_side_to_move(&self, terms: &[Terms; 2], pos: &Position, st: &EvalState) -> i32 {
        self.for_white(terms, st) * pos.side_to_move().sign() + TEMPO
    }

    /// The evaluation term by term, for people: what [`EvalTables::evaluate`] adds up.
    pub fn trace(&self, pos: &Position) -> EvalTrace {
        let st = self.state(pos);
        let (phase, total) = self.phase(&st);
        let terms = self.terms(pos, &st);
        let white = self.for_white(&terms, &st);
        let [w, b] = terms;
        EvalTrace {
            rows: Terms::NAMES
                .iter()
                .zip(w.rows().into_iter().zip(b.rows()))
                .map(|(&name, (white, black))| TraceRow { name, white, black })
                .collect(),
            phase: phase as i32,
            phase_total: total as i32,
            bare_king: self.bare_king_bonus(&st),
            tempo: TEMPO,
            white,
            side_to_move: white * pos.side_to_move().sign() + TEMPO,
        }
    }
}

/// The terms [`EvalTables::finish_lazy`] computed, for [`EvalTables::finish_walked`].
pub struct LazyTerms([Terms; 2]);

/// One side's evaluation terms, (mg, eg) each, in centipawns.
#[derive(Debug, Clone, Copy)]
struct Terms {
    /// Material and piece-square values.
    material: (i32, i32),
    /// The pawn shield and the enemy pieces near the royal piece (middlegame only).
    king: (i32, i32),
    mobility: (i32, i32),
    threats: (i32, i32),
    /// The attack on the enemy royal piece.
    attack: (i32, i32),
    passed: (i32, i32),
    shelter: (i32, i32),
    structure: (i32, i32),
    space: (i32, i32),
    pair: (i32, i32),
}

impl Terms {
    const NAMES: [&'static str; 10] = [
        "material",
        "king",
        "mobility",
        "threats",
        "attack",
        "passed",
        "shelter",
        "structure",
        "space",
        "pair",
    ];

    fn rows(&self) -> [(i32, i32); 10] {
        [
            self.material,
            self.king,
            self.mobility,
            self.threats,
            self.attack,
            self.passed,
            self.shelter,
            self.structure,
            self.space,
            self.pair,
        ]
    }

    /// The terms summed and blended by the phase. In i64: a board packed with pieces overflows
    /// the products in i32.
    fn blend(&self, phase: i64, total: i64) -> i32 {
        let (mg, eg) = self
            .rows()
            .iter()
            .fold((0i64, 0i64), |(a, b), &(m, e)| (a + m as i64, b + e as i64));
        ((mg * phase + eg * (total - phase)) / total) as i32
    }
}

/// One line of an [`EvalTrace`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceRow {
    pub name: &'static str,
    /// (mg, eg) of each side, in centipawns, from that side's view.
    pub white: (i32, i32),
    pub black: (i32, i32),
}

/// The static evaluation of a position term by term ([`EvalTables::trace`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalTrace {
    pub rows: Vec<TraceRow>,
    /// Non-pawn, non-royal material on the board (capped at the start's), and the start's: the
    /// middlegame weight of the blend is `phase / phase_total`.
    pub phase: i32,
    pub phase_total: i32,
    /// What the bare-king rule adds for White.
    pub bare_king: i32,
    /// What the side to move gets for the move.
    pub tempo: i32,
    /// The blended sum for White, before the tempo.
    pub white: i32,
    /// The evaluation the search uses: for the side to move, tempo included.
    pub side_to_move: i32,
}

impl std::fmt::Display for EvalTrace {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        writeln!(
            f,
            "{:<10} {:>13} {:>13} {:>13}",
            "", "white", "black", "net"
        )?;
        writeln!(
            f,
            "{:<10} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
            "term", "mg", "eg", "mg", "eg", "mg", "eg"
        )?;
        for r in &self.rows {
            writeln!(
                f,
                "{:<10} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
                r.name,
                r.white.0,
                r.white.1,
                r.black.0,
                r.black.1,
                r.white.0 - r.black.0,
                r.white.1 - r.black.1
            )?;
        }
        writeln!(
            f,
            "phase {}/{} (middlegame share)",
            self.phase, self.phase_total
        )?;
        if self.bare_king != 0 {
            writeln!(f, "bare king {:+} for White", self.bare_king)?;
        }
        writeln!(
            f,
            "total {:+} for White, tempo {:+}",
            self.white, self.tempo
        )?;
        write!(f, "eval {:+} for the side to move", self.side_to_move)
    }
}

/// The evaluation terms, kept up to date move by move by the search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EvalState {
    /// Material and piece-square sums per side.
    mg: [i32; 2],
    eg: [i32; 2],
    /// Non-pawn, non-royal material of both sides.
    phase: i32,
    /// Pieces other than royal ones, per side (bare king).
    pub nonroyal: [i32; 2],
    /// Pieces other than pawns and royal ones, per side (zugzwang guard).
    pub officers: [i32; 2],
    /// Enemy pressure near each side's royal piece, and its pawn shield.
    danger: [i32; 2],
    shield: [i32; 2],
    /// Pawns per side and file, one bit per rank.
    pawns: [[u16; 16]; 2],
    /// A hash of the pawn files: the key of the search's correction history.
    pub pawn_key: u64,
}

impl EvalState {
    #[inline]
    fn add(&mut self, et: &EvalTables, side: usize, t: usize, c: u16, kings: [u16; 2]) {
        self.change(et, side, t, c, kings, 1);
    }

    #[inline]
    fn remove(&mut self, et: &EvalTables, side: usize, t: usize, c: u16, kings: [u16; 2]) {
        self.change(et, side, t, c, kings, -1);
    }

    #[inline]
    fn change(
        &mut self,
        et: &EvalTables,
        side: usize,
        t: usize,
        c: u16,
        kings: [u16; 2],
        sign: i32,
    ) {
        let (a, b) = et.psq(Side::from_index(side), Kind(t as u8), c);
        self.mg[side] += sign * a;
        self.eg[side] += sign * b;
        if et.royal[t] {
            return;
        }
        self.nonroyal[side] += sign;
        if et.pawn[t] {
            self.shield[side] += sign * et.shields(t, c, kings[side]);
            self.pawns[side][file_of(c) as usize] ^= 1 << rank_of(c);
            return;
        }
        self.officers[side] += sign;
        self.phase += sign * et.value[t];
        self.danger[side ^ 1] += sign * et.danger(t, c, kings[side ^ 1]);
    }
}

/// King-move distance between two board cells.
#[inline]
fn chebyshev(a: u16, b: u16) -> i32 {
    let d = a as i32 - b as i32;
    // Cells are rank * STRIDE + file: split the difference into rank and file parts.
    let s = STRIDE as i32;
    let dr = (d + s / 2).div_euclid(s);
    let df = d - dr * s;
    dr.abs().max(df.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shipped start position where both sides have the same army is symmetric: only the
    /// tempo bonus remains. (Chigorin chess gives the sides different armies on purpose.)
    #[test]
    fn start_positions_are_balanced() {
        let mut checked = 0;
        for name in crate::variant::builtin_names() {
            let game = Game::new(crate::variant::builtin(name).unwrap());
            let pos = Position::start(&game);
            let army = |side: Side| {
                let mut kinds: Vec<usize> = pos
                    .pieces(side)
                    .iter()
                    .map(|&c| pos.board[c as usize].kind().index())
                    .collect();
                kinds.sort_unstable();
                kinds
            };
            // Racing kings starts both sides on ranks 1 and 2: not a mirror image.
            let (start, ranks) = (&game.variant.start, game.variant.ranks);
            let mirrored = start.squares().all(|((f, r), p)| {
                start
                    .get((f, ranks - 1 - r))
                    .is_some_and(|q| q.letter == p.letter && q.side != p.side)
            });
            if army(Side::White) != army(Side::Black) || !mirrored {
                continue;
            }
            let et = EvalTables::new(&game);
            assert_eq!(et.evaluate(&pos), TEMPO, "{name}");
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} symmetric starts");
    }

    /// Derived values follow the calibration: a knight about 300, a rook about 500.
    #[test]
    fn derived_values_are_calibrated() {
        assert_eq!(value_from_mobility(calibration().0), 300);
        assert_eq!(value_from_mobility(calibration().1), 500);
    }

    /// Updating the terms move by move gives what computing them from scratch gives, and the
    /// full evaluation completed from the lazy one's terms is the full evaluation.
    #[test]
    fn incremental_matches_full() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for name in crate::variant::builtin_names() {
            let game = Game::new(crate::variant::builtin(name).unwrap());
            let et = EvalTables::new(&game);
            for _ in 0..3 {
                let mut pos = Position::start(&game);
                let mut st = et.state(&pos);
                for _ in 0..150 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = moves[seed as usize % moves.len()];
                    let moved = pos.at(m.from);
                    pos.make(m);
                    st = et.update(&pos, &st, m, moved);
                    assert_eq!(st, et.state(&pos), "{name}: {}", pos.fen());
                    let (_, lazy) = et.finish_lazy(&pos, &st);
                    assert_eq!(
                        et.finish_walked(&pos, &st, lazy),
                        et.finish(&pos, &st),
                        "{name}: {}",
                        pos.fen()
                    );
                }
            }
        }
    }

    /// Mobility tells the destinations that enemy pawns attack from the others.
    #[test]
    fn squares_attacked_by_enemy_pawns_are_counted_apart() {
        let game = Game::new(crate::variant::builtin("chess").unwrap());
        let et = EvalTables::new(&game);
        // The knight on d4 reaches eight squares; the pawn on d7 attacks c6 and e6.
        let pos = Position::from_fen(&game, "4k3/3p4/8/8/3N4/8/8/4K3 w - - 0 1").unwrap();
        let knight = pos.at(cell(3, 3)).kind().index();
        let count = |cells: &Cells| {
            let (attacked, checks) = (SharedCells::new(), SharedCells::new());
            let walk = Walk {
                unsafe_cells: cells,
                target: None,
                attacked: Some(&attacked),
                checks: &checks,
            };
            let r = et.count_mobility(&pos, Side::White, knight, cell(3, 3), &walk);
            (r.safe, r.contested)
        };
        assert_eq!(count(&Cells::EMPTY), (8, 0));
        let attacked = et.pawn_attacks(&pos, Side::Black);
        assert!(attacked.contains(cell(2, 5)) && attacked.contains(cell(4, 5)));
        assert_eq!(count(&attacked), (6, 2));
    }

    /// The check cells of every piece type whose moves are all plain leaps, slides and bent paths
    /// are exactly the cells from which the move generator says it attacks the royal piece: the
    /// piece on each empty cell in turn, beside the two royal pieces and a blocker.
    #[test]
    fn check_cells_are_the_attacking_cells() {
        let mut tested = 0;
        for name in ["capablanca", "grant-acedrex", "chess", "shatranj"] {
            let game = Game::new(crate::variant::builtin(name).unwrap());
            let (files, ranks) = (game.variant.files, game.variant.ranks);
            let tables = &game.tables.pieces;
            let letter = |pick: fn(&crate::tables::PieceTables) -> bool| {
                tables.iter().find(|t| pick(t)).unwrap().letter
            };
            let et = EvalTables::new(&game);
            // White's royal piece off the edges, Black's in a corner, a white pawn in the way.
            let (kf, kr) = (files / 2, ranks / 2 - 1);
            let king = cell(kf, kr);
            let mut board = crate::setup::Setup::empty(files, ranks);
            board.put((kf, kr), Side::White, letter(|t| t.royal));
            board.put((files - 1, ranks - 1), Side::Black, letter(|t| t.royal));
            board.put((kf + 2, kr + 2), Side::White, letter(|t| t.pawn));
            for (ty, t) in tables.iter().enumerate() {
                if t.royal || !t.program[1].complex.is_empty() {
                    continue;
                }
                tested += 1;
                for f in 0..files {
                    for r in 0..ranks {
                        if board.get((f, r)).is_some() {
                            continue;
                        }
                        let mut setup = board.clone();
                        setup.put((f, r), Side::Black, t.letter);
                        let pos = Position::from_setup(&game, &setup).unwrap();
                        let cells = et.check_cells(&pos, Side::Black, ty, king);
                        assert_eq!(
                            cells.contains(cell(f, r)),
                            pos.attacked(king, Side::Black),
                            "{name}: {} on {f},{r}: {}",
                            t.letter,
                            pos.fen()
                        );
                    }
                }
            }
        }
        assert!(tested >= 18, "{tested}");
    }

    /// The mobility walk reaches exactly the destinations the move generator gives each walked
    /// piece, along random games of every shipped variant. The walk knows a piece's plain moves
    /// wherever it stands: not the moves of regions (the palace, the river), initial moves while
    /// the piece has them, nor promotions by rule (sittuyin's), so those pieces are left out.
    #[test]
    fn the_walk_counts_the_generated_destinations() {
        let mut checked = 0;
        for variant in crate::variant::builtin_names() {
            let game = Game::new(crate::variant::builtin(variant).unwrap());
            let et = EvalTables::new(&game);
            let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
            for _ in 0..4 {
                let mut pos = Position::start(&game);
                for _ in 0..(20 + rng.next() % 60) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.make(moves[(rng.next() % moves.len() as u64) as usize]);
                    // The move generator gives the side to move's moves.
                    let side = pos.side_to_move();
                    for &c in pos.pieces(side) {
                        let ty = pos.at(c).kind().index();
                        let piece = &game.tables.pieces[ty];
                        if et.mob_weight[ty] == (0, 0)
                            || piece.region.is_some()
                            || piece.rights && pos.virgin[c as usize]
                        {
                            continue;
                        }
                        let mut moves = Vec::new();
                        pos.piece_moves(c, &mut moves);
                        if moves.iter().any(|m| m.promotion().is_some()) {
                            continue;
                        }
                        moves.sort_unstable_by_key(|m| m.to);
                        moves.dedup_by_key(|m| m.to);
                        let (attacked, checks) = (SharedCells::new(), SharedCells::new());
                        let walk = Walk {
                            unsafe_cells: &Cells::EMPTY,
                            target: None,
                            attacked: Some(&attacked),
                            checks: &checks,
                        };
                        let r = et.count_mobility(&pos, side, ty, c, &walk);
                        assert_eq!(
                            r.safe + r.contested,
                            moves.len() as i32,
                            "{variant} {}: the {} on {}{}",
                            pos.fen(),
                            piece.letter,
                            (b'a' + file_of(c)) as char,
                            rank_of(c) + 1
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    /// A slider checks from any cell of its lines to the royal piece up to the first piece, and
    /// a check no enemy piece guards adds to the attack.
    #[test]
    fn sliders_give_safe_checks() {
        let game = Game::new(crate::variant::builtin("capablanca").unwrap());
        let et = EvalTables::new(&game);
        // Black's rook on h3 can check from h1 and from e3; nothing of White's guards them.
        let pos = Position::from_fen(&game, "5k4/10/10/10/10/7r2/10/4K5 w - - 0 1").unwrap();
        let rook = pos.at(cell(7, 2)).kind().index();
        let checks = et.check_cells(&pos, Side::Black, rook, cell(4, 0));
        for (f, r) in [(0, 0), (3, 0), (5, 0), (9, 0), (4, 1), (4, 7)] {
            assert!(checks.contains(cell(f, r)), "{f},{r}");
        }
        assert!(!checks.contains(cell(5, 1)) && !checks.contains(cell(4, 0)));
        let black = et.terms(&pos, &et.state(&pos))[1];
        assert!(black.attack.0 > 0, "{:?}", black.attack);
        // A white rook on a3 guards e3; the check from h1 stays safe: a smaller attack, not none.
        let guarded = Position::from_fen(&game, "5k4/10/10/10/10/R6r2/10/4K5 w - - 0 1").unwrap();
        let less = et.terms(&guarded, &et.state(&guarded))[1];
        assert!(
            0 < less.attack.0 && less.attack.0 < black.attack.0,
            "{:?}",
            less.attack
        );
    }

    /// A pawn is passed when no enemy pawn stands ahead of it on its file or the next ones;
    /// a passed pawn gains its `passer` entry, for either side.
    #[test]
    fn passed_pawns_have_no_enemy_pawn_ahead_nearby() {
        let game = Game::new(crate::variant::builtin("chess").unwrap());
        let et = EvalTables::new(&game);
        let pawn = |pos: &Position, c: u16| pos.at(c).kind().index();
        // White's pawn on d5; Black's pawn on the square given.
        for (black, passed) in [
            ("e6", false),
            ("d7", false),
            ("c7", false),
            ("e4", true),
            ("f6", true),
        ] {
            let (f, r) = (black.as_bytes()[0] - b'a', black.as_bytes()[1] - b'1');
            let mut rows = vec![String::from("8"); 8];
            rows[7 - 4] = String::from("3P4");
            rows[7 - r as usize] = format!("{}p{}", f, 7 - f).replace('0', "");
            rows[0] = String::from("4k3");
            rows[7] = String::from("4K3");
            let fen = format!("{} w - - 0 1", rows.join("/"));
            let pos = Position::from_fen(&game, &fen).unwrap();
            let st = et.state(&pos);
            // The side's pawn on `c` gains its entry when passed, nothing otherwise.
            let expect = |side: Side, c: u16, passed: bool| {
                let (mg, eg) = et.passer
                    [(side.index() * et.types + pawn(&pos, c)) * SPAN + (c - BASE) as usize];
                assert!(eg > 0, "{fen}");
                let want = if passed {
                    (mg.into(), eg.into())
                } else {
                    (0, 0)
                };
                assert_eq!(et.passers(&pos, &st, side), want, "{side:?} {fen}");
            };
            expect(Side::White, cell(3, 4), passed);
            // Black's pawn is passed unless White's d5 pawn stands ahead of it nearby.
            expect(
                Side::Black,
                cell(f, r),
                !(3..=5).contains(&(f + 1)) || r <= 4,
            );
        }
    }

    #[test]
    fn chebyshev_matches_coordinates() {
        for a in [(0u8, 0u8), (5, 7), (11, 11), (15, 0)] {
            for b in [(0u8, 0u8), (3, 9), (11, 0), (15, 15)] {
                let want = (a.0 as i32 - b.0 as i32)
                    .abs()
                    .max((a.1 as i32 - b.1 as i32).abs());
                assert_eq!(
                    chebyshev(cell(a.0, a.1), cell(b.0, b.1)),
                    want,
                    "{a:?} {b:?}"
                );
            }
        }
    }
}
