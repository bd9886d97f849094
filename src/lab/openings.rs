//! Balanced opening suites: random legal plies from the start position, kept when the engine's own
//! shallow search scores the result within a bound, de-duplicated by position. Deterministic from
//! the seed (one-thread searches to a fixed depth and node cap, a fresh table each time).
//!
//! A suite file holds one FEN per line; lines starting with `#` are comments (the header says
//! which command wrote it). With `moves`, each line is instead the walk's moves from the start, as
//! XBoard writes them: for a peer that plays a variant but cannot take its positions by `setboard`
//! (XBoard then plays the moves to both engines). The same options give the same openings in
//! either form, line by line.

use super::LabError;
use crate::game::Game;
use crate::position::Position;
use crate::search::{Engine, Limits, Score};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// How to generate a suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpeningOptions {
    pub variant: String,
    /// Openings wanted.
    pub count: usize,
    /// Random plies from the start.
    pub plies: u32,
    /// Keep positions the filter search scores within ±bound centipawns.
    pub bound: i32,
    /// Depth of the filter search (capped by `nodes`).
    pub depth: u32,
    pub nodes: u64,
    pub seed: u64,
    /// Write each opening as its moves from the start instead of its FEN.
    pub moves: bool,
}

impl Default for OpeningOptions {
    fn default() -> Self {
        OpeningOptions {
            variant: "chess".into(),
            count: 500,
            plies: 8,
            bound: 60,
            depth: 6,
            nodes: 100_000,
            seed: 1,
            moves: false,
        }
    }
}

impl OpeningOptions {
    /// The command line that regenerates the suite (written in its header).
    pub fn command(&self) -> String {
        format!(
            "acedrex openings --variant {} --count {} --plies {} --bound {} --depth {} --nodes {} --seed {}{}",
            self.variant,
            self.count,
            self.plies,
            self.bound,
            self.depth,
            self.nodes,
            self.seed,
            if self.moves { " --moves" } else { "" }
        )
    }
}

/// A generated suite: the FENs, the moves that reach each from the start (XBoard's text, one
/// line an opening), and how many candidates were tried.
#[derive(Debug, Clone)]
pub struct Suite {
    pub fens: Vec<String>,
    pub moves: Vec<String>,
    pub tried: usize,
}

impl Suite {
    /// The file text: a header with the command, then one FEN (or line of moves) per line.
    pub fn text(&self, opts: &OpeningOptions) -> String {
        let mut out = format!(
            "# {} balanced openings for {}: {} random plies, filter search within ±{} cp{}\n# {}\n",
            self.fens.len(),
            opts.variant,
            opts.plies,
            opts.bound,
            if opts.moves {
                ", as moves from the start"
            } else {
                ""
            },
            opts.command()
        );
        let lines = if opts.moves { &self.moves } else { &self.fens };
        for f in lines {
            out += f;
            out.push('\n');
        }
        out
    }
}

/// Generates a suite; `on_progress(kept, tried)` hears each candidate. Stops after
/// `50 × count` candidates if the bound is too tight to fill it.
pub fn generate(
    opts: &OpeningOptions,
    on_progress: &mut dyn FnMut(usize, usize),
) -> Result<Suite, LabError> {
    let variant =
        crate::variant::load(&opts.variant).map_err(|e| LabError::Variant(e.to_string()))?;
    let game: Arc<Game> = Game::new(variant);
    if opts.moves && game.variant.shuffle.is_some() {
        return Err(LabError::Variant(format!(
            "{}: a shuffle variant's openings start from other arrangements; they are written as FENs",
            opts.variant
        )));
    }
    let start = Position::start(&game);
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut engine = Engine::new(16, 1);
    let stop = Arc::new(AtomicBool::new(false));
    let mut seen = HashSet::new();
    let mut fens = Vec::new();
    let mut lines = Vec::new();
    let mut tried = 0;
    while fens.len() < opts.count && tried < 50 * opts.count.max(1) {
        tried += 1;
        // A shuffle variant's openings start from fresh arrangements of its back rank.
        let shuffled = game.variant.shuffle.as_ref().map(|_| {
            let setup = game.variant.random_start(rng.random::<u64>());
            Position::from_setup(&game, &setup).expect("a shuffled start loads")
        });
        let Some((mut pos, moves)) =
            random_walk(shuffled.as_ref().unwrap_or(&start), opts.plies, &mut rng)
        else {
            continue;
        };
        // Same placement, side, rights and e.p. square: the same opening.
        if !seen.insert(pos.hash()) {
            continue;
        }
        if pos.game_end().is_some() {
            continue;
        }
        // Games start from the FEN, without the walk's moves behind it (which the search reads,
        // e.g. for the counter move): judge the position as it will be played.
        let pos = Position::from_fen(&game, &pos.fen()).expect("a position's own FEN loads");
        engine.clear();
        let limits = Limits {
            depth: Some(opts.depth),
            nodes: Some(opts.nodes),
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, &stop, &mut |_| {});
        if matches!(r.score, Score::Cp(v) if v.abs() <= opts.bound) {
            fens.push(pos.fen());
            lines.push(moves.join(" "));
        }
        on_progress(fens.len(), tried);
    }
    Ok(Suite {
        fens,
        moves: lines,
        tried,
    })
}

/// `plies` uniformly random legal moves, and their text as XBoard writes them; None if the game
/// ends on the way.
fn random_walk(
    start: &Position,
    plies: u32,
    rng: &mut ChaCha8Rng,
) -> Option<(Position, Vec<String>)> {
    let mut pos = start.clone();
    let mut texts = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.game_end_with(moves.len()).is_some() {
            return None;
        }
        let m = moves[rng.random_range(0..moves.len())];
        texts.push(crate::protocol::xboard::gui_move(&pos, m));
        pos.make(m);
    }
    Some((pos, texts))
}

/// Reads a suite file: its FENs in order.
pub fn read(path: &Path) -> Result<Vec<String>, LabError> {
    let text = std::fs::read_to_string(path).map_err(|e| LabError::io(path, e))?;
    Ok(parse(&text))
}

/// The FENs of a suite's text (comments and blank lines skipped).
pub fn parse(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(seed: u64) -> OpeningOptions {
        OpeningOptions {
            variant: "shatranj".into(),
            count: 6,
            plies: 6,
            bound: 80,
            depth: 3,
            nodes: 5_000,
            seed,
            moves: false,
        }
    }

    #[test]
    fn suites_are_deterministic_distinct_and_balanced() {
        let a = generate(&small(7), &mut |_, _| {}).unwrap();
        let b = generate(&small(7), &mut |_, _| {}).unwrap();
        assert_eq!(a.fens, b.fens, "same seed, same suite");
        assert_eq!(a.fens.len(), 6);
        let distinct: HashSet<&String> = a.fens.iter().collect();
        assert_eq!(distinct.len(), a.fens.len());
        let c = generate(&small(8), &mut |_, _| {}).unwrap();
        assert_ne!(a.fens, c.fens, "another seed, another suite");
        let game = Game::new(crate::variant::load("shatranj").unwrap());
        let mut engine = Engine::new(16, 1);
        for f in &a.fens {
            let pos = Position::from_fen(&game, f).unwrap();
            // Six plies from the start: White to move again.
            assert_eq!(pos.side_to_move(), crate::side::Side::White, "{f}");
            engine.clear();
            let limits = Limits {
                depth: Some(3),
                nodes: Some(5_000),
                ..Limits::default()
            };
            let r = engine.search(
                &pos,
                &limits,
                &Arc::new(AtomicBool::new(false)),
                &mut |_| {},
            );
            assert!(
                matches!(r.score, Score::Cp(v) if v.abs() <= 80),
                "{f}: {:?}",
                r.score
            );
        }
    }

    #[test]
    fn moves_form_reaches_the_same_positions() {
        let mut opts = small(5);
        opts.variant = "chu".into();
        let s = generate(&opts, &mut |_, _| {}).unwrap();
        let game = Game::new(crate::variant::load("chu").unwrap());
        assert_eq!(s.moves.len(), s.fens.len());
        for (line, fen) in s.moves.iter().zip(&s.fens) {
            let mut pos = Position::start(&game);
            for text in line.split_whitespace() {
                let m = pos
                    .parse_move(text)
                    .unwrap_or_else(|e| panic!("{line}: {e}"));
                pos.make(m);
            }
            assert_eq!(&pos.fen(), fen, "{line}");
        }
        opts.moves = true;
        let text = s.text(&opts);
        assert!(text.contains("--moves"));
        assert_eq!(parse(&text), s.moves);
        opts.variant = "fischerandom".into();
        assert!(
            generate(&opts, &mut |_, _| {}).is_err(),
            "a shuffle start has no moves form"
        );
    }

    #[test]
    fn suite_text_round_trips_and_names_its_command() {
        let opts = small(3);
        let s = generate(&opts, &mut |_, _| {}).unwrap();
        let text = s.text(&opts);
        assert!(text.contains(&opts.command()));
        assert_eq!(parse(&text), s.fens);
    }
}
