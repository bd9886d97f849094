//! The command line's one-shot searches: `acedrex go` and `acedrex bench`, with the bench's
//! positions and depth and the loader that sets a position up from a variant, a FEN and moves.

use crate::game::Game;
use crate::position::Position;
use crate::protocol::uci::info_line;
use crate::search::{Engine, Limits};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Why a one-shot command could not set its position up.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Load(#[from] crate::variant::LoadError),
    #[error("{0}")]
    Fen(crate::position::FenError),
    #[error("move {index} ({text}): {error}")]
    Move {
        index: usize,
        text: String,
        error: crate::movegen::MoveError,
    },
}

/// Loads a variant and sets up a position from an optional FEN and a move list.
fn setup(variant: &str, fen: Option<&str>, moves: &str) -> Result<Position, CliError> {
    let game = Game::new(crate::variant::load(variant)?);
    let mut pos = match fen {
        Some(f) => Position::from_fen(&game, f).map_err(CliError::Fen)?,
        None => Position::start(&game),
    };
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = pos.parse_move(text).map_err(|error| CliError::Move {
            index: i + 1,
            text: text.to_string(),
            error,
        })?;
        pos.make(m);
    }
    Ok(pos)
}

/// `acedrex go`: searches one position and returns the info lines and a final `bestmove`. Without
/// any limit it searches to the bench depth (4 with dice).
pub fn go_command(
    variant: &str,
    fen: Option<&str>,
    moves: &str,
    limits: &Limits,
) -> Result<String, CliError> {
    let pos = setup(variant, fen, moves)?;
    let mut limits = limits.clone();
    if limits.is_unlimited() {
        // Nobody can send `stop` to a one-shot command.
        limits.depth = Some(default_depth(&pos));
        limits.infinite = false;
    }
    let mut engine = Engine::new(64, 1);
    let stop = Arc::new(AtomicBool::new(false));
    let mut out = String::new();
    let result = engine.search(&pos, &limits, &stop, &mut |info| {
        out += &info_line(&pos, info);
        out.push('\n');
    });
    match result.best {
        Some(m) => {
            out += &format!("bestmove {}", pos.move_text(m));
            if let Some(p) = result.ponder {
                let mut after = pos.clone();
                after.make(m);
                out += &format!(" ponder {}", after.move_text(p));
            }
        }
        None => out += "bestmove (none)",
    }
    Ok(out)
}

/// Depth for `go` without limits and for `bench`: chance nodes make dice searches far wider.
fn default_depth(pos: &Position) -> u32 {
    if pos.dice_faces().is_empty() {
        BENCH_DEPTH
    } else {
        4
    }
}

/// Bench positions: (variant, moves played from its start).
const BENCH: &[(&str, &str)] = &[
    ("grant-acedrex", ""),
    (
        "grant-acedrex",
        "f4f5 f9f8 g1e3 g12e10 e4e5 e9e8 c1d3 j12i10",
    ),
    (
        "grant-acedrex",
        "g4g5 g9g8 h4h5 h9h8 e1h4 e12h9 f4f5 f9f8 k1h2 b12e11",
    ),
    ("grant-acedrex-cazaux", ""),
    ("grant-acedrex-murray", ""),
    ("chess", ""),
    ("chess", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7"),
    ("capablanca", ""),
    ("shatranj", ""),
    ("courier", ""),
    ("makruk", ""),
];

/// Default bench depth per board: enough to exercise every part of the search in well under a
/// minute for the whole list.
const BENCH_DEPTH: u32 = 11;

/// OpenBench `bench`: the fixed positions (all, or those of one variant — its start position when
/// it has no listed one), fixed depth, one thread, 16 MB hash, a fresh table per position. One
/// line per position; the last line is exactly `N nodes M nps`.
pub fn bench(variant: Option<&str>, depth: Option<u32>) -> Result<String, CliError> {
    let list: Vec<(String, &str)> = match variant {
        None => BENCH.iter().map(|&(v, m)| (v.to_string(), m)).collect(),
        Some(v) => {
            let canonical = crate::variant::load(v)?.name;
            let mine: Vec<(String, &str)> = BENCH
                .iter()
                .filter(|(n, _)| *n == canonical)
                .map(|&(n, m)| (n.to_string(), m))
                .collect();
            if mine.is_empty() {
                vec![(v.to_string(), "")]
            } else {
                mine
            }
        }
    };
    let mut engine = Engine::new(16, 1);
    let stop = Arc::new(AtomicBool::new(false));
    let mut out = String::new();
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    for (i, (v, moves)) in list.iter().enumerate() {
        let pos = setup(v, None, moves)?;
        engine.clear();
        engine.prepare(&pos);
        let depth = depth.unwrap_or_else(|| default_depth(&pos));
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let t0 = Instant::now();
        let r = engine.search(&pos, &limits, &stop, &mut |_| {});
        let dt = t0.elapsed();
        nodes += r.nodes;
        time += dt;
        let best = r.best.map_or("(none)".to_string(), |m| pos.move_text(m));
        out += &format!(
            "position {:>2} {v} [{moves}] depth {} score {} nodes {} time {} bestmove {best}\n",
            i + 1,
            r.depth,
            r.score,
            r.nodes,
            dt.as_millis()
        );
    }
    let nps = (nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64;
    out += &format!("{nodes} nodes {nps} nps");
    Ok(out)
}
