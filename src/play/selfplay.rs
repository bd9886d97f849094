//! `acedrex selfplay N`: the engine against itself, games written as PGN as they finish, a progress
//! bar on a terminal (nothing extra when piped) and a summary at the end.

use super::PlayError;
use super::engine::{self, Turn};
use crate::game::Game;
use crate::pgn::{self, PgnGame, Ply};
use crate::position::Position;
use crate::search::Engine;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `acedrex selfplay N [--variant V] [--dice] [--depth D | --movetime MS] [-o FILE]`.
#[derive(Debug, Clone)]
pub struct SelfplayOptions {
    pub games: u32,
    pub variant: String,
    pub dice: bool,
    /// Search depth per move; with neither depth nor movetime, depth 4.
    pub depth: Option<u32>,
    pub movetime: Option<Duration>,
    /// PGN file, created afresh. None: PGN on stdout, summary on stderr.
    pub output: Option<PathBuf>,
    /// Seed for the opening moves and the die; game `i` uses `seed + i`.
    pub seed: u64,
    /// Random legal plies at the start of each game, so a deterministic engine plays varied games.
    pub random_plies: u32,
    /// A game still running after this many plies is stopped unfinished (`*`).
    pub max_plies: u32,
    /// Progress bar: None = when stderr is a terminal.
    pub progress: Option<bool>,
}

impl Default for SelfplayOptions {
    fn default() -> Self {
        SelfplayOptions {
            games: 1,
            variant: "grant-acedrex".into(),
            dice: false,
            depth: None,
            movetime: None,
            output: None,
            seed: 1,
            random_plies: 4,
            max_plies: 1000,
            progress: None,
        }
    }
}

/// Results of a selfplay run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u32,
    pub white: u32,
    pub black: u32,
    pub draws: u32,
    pub unfinished: u32,
    pub plies: u64,
    /// How games ended, by reason.
    pub reasons: BTreeMap<String, u32>,
    pub elapsed: Duration,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let decided = self.white + self.black + self.draws;
        let score = if decided > 0 {
            100.0 * (f64::from(self.white) + 0.5 * f64::from(self.draws)) / f64::from(decided)
        } else {
            0.0
        };
        writeln!(
            f,
            "{} game{} in {:.1} s: White won {}, Black won {}, {} drawn{}; White scored {score:.1}%",
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.elapsed.as_secs_f64(),
            self.white,
            self.black,
            self.draws,
            if self.unfinished > 0 {
                format!(", {} unfinished", self.unfinished)
            } else {
                String::new()
            },
        )?;
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        if !reasons.is_empty() {
            writeln!(f, "endings: {}", reasons.join(", "))?;
        }
        if self.games > 0 {
            writeln!(
                f,
                "average length {:.1} plies",
                self.plies as f64 / f64::from(self.games)
            )?;
        }
        Ok(())
    }
}

/// A one-line progress bar on stderr, redrawn in place; silent when disabled.
struct Progress {
    on: bool,
    total: u32,
    started: Instant,
    last_draw: Option<Instant>,
}

impl Progress {
    fn draw(&mut self, done: u32, s: &Summary, ply: usize, force: bool) {
        if !self.on {
            return;
        }
        // At most ten redraws a second: a fast engine would spend its time drawing.
        if !force
            && self
                .last_draw
                .is_some_and(|t| t.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        self.last_draw = Some(Instant::now());
        let width = 30;
        let filled = (done as usize * width) / self.total.max(1) as usize;
        let bar: String = "#".repeat(filled) + &"-".repeat(width - filled);
        let current = if done < self.total {
            format!("  game {} ply {ply}", done + 1)
        } else {
            String::new()
        };
        eprint!(
            "\r\x1b[2Kselfplay [{bar}] {done}/{}  +{} -{} ={}  {:.0}s{current}",
            self.total,
            s.white,
            s.black,
            s.draws,
            self.started.elapsed().as_secs_f64()
        );
    }

    fn finish(&self) {
        if self.on {
            eprintln!();
        }
    }
}

/// Runs the games, writes the PGN and prints the summary (stdout, or stderr when the PGN goes to
/// stdout). Returns the summary.
pub fn selfplay(opts: &SelfplayOptions) -> Result<Summary, PlayError> {
    let mut variant = crate::variant::load(&opts.variant)?;
    if opts.dice {
        variant = engine::with_dice(variant);
    }
    let game = Game::new(variant);
    let mut sink: Box<dyn Write> = match &opts.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|error| PlayError::Create {
                path: path.display().to_string(),
                error,
            })?,
        )),
        None => Box::new(std::io::stdout()),
    };
    let mut progress = Progress {
        on: opts
            .progress
            .unwrap_or_else(|| std::io::stderr().is_terminal()),
        total: opts.games,
        started: Instant::now(),
        last_draw: None,
    };
    let mut summary = Summary::default();
    let mut engine = Engine::new(16, 1);
    for i in 0..opts.games {
        progress.draw(i, &summary, 0, true);
        let g = play_game(&game, opts, i, &mut engine, &mut |ply| {
            progress.draw(i, &summary, ply, false)
        });
        summary.games += 1;
        summary.plies += g.plies.len() as u64;
        match g.result.as_str() {
            "1-0" => summary.white += 1,
            "0-1" => summary.black += 1,
            "1/2-1/2" => summary.draws += 1,
            _ => summary.unfinished += 1,
        }
        *summary
            .reasons
            .entry(g.reason.clone().unwrap_or_else(|| "unfinished".into()))
            .or_default() += 1;
        // Written game by game, so an interrupted run keeps what it played.
        sink.write_all(g.to_pgn().as_bytes())?;
        sink.flush()?;
        progress.draw(i + 1, &summary, 0, true);
    }
    progress.finish();
    summary.elapsed = progress.started.elapsed();
    if opts.output.is_some() {
        write!(std::io::stdout(), "{summary}")?;
    } else {
        eprint!("{summary}");
    }
    Ok(summary)
}

/// One game of the engine against itself. `on_ply` hears the ply count as the game goes.
pub fn play_game(
    game: &Arc<Game>,
    opts: &SelfplayOptions,
    index: u32,
    engine: &mut Engine,
    on_ply: &mut dyn FnMut(usize),
) -> PgnGame {
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed.wrapping_add(u64::from(index)));
    let depth = opts.depth.or(if opts.movetime.is_none() {
        Some(4)
    } else {
        None
    });
    let limits = engine::limits(depth, opts.movetime);
    // A shuffle variant's game starts from an arrangement drawn from the game's seed.
    let start = match &game.variant.shuffle {
        Some(_) => {
            let setup = game.variant.random_start(rng.random::<u64>());
            Position::from_setup(game, &setup).expect("a shuffled start loads")
        }
        None => Position::start(game),
    };
    let mut pos = start.clone();
    let mut g = PgnGame::new(start);
    let name = match (depth, opts.movetime) {
        (Some(d), _) => format!("acedrex depth {d}"),
        (None, Some(t)) => format!("acedrex {} ms", t.as_millis()),
        (None, None) => "acedrex".into(),
    };
    g.set_tag("Event", "acedrex selfplay");
    g.set_tag("Site", "acedrex");
    g.set_tag("Date", pgn::today());
    g.set_tag("Round", (index + 1).to_string());
    g.set_tag("White", name.clone());
    g.set_tag("Black", name);
    engine.clear();
    let dice = !pos.dice_faces().is_empty();
    let mut end = None;
    while g.plies.len() < opts.max_plies as usize {
        if let Some(e) = pos.game_end() {
            end = Some(e);
            break;
        }
        let roll = if dice {
            match engine::dice_turn(&mut pos, &mut rng) {
                Some(Turn::Move { face, .. }) => Some(face),
                Some(Turn::Pass { face }) => {
                    pos.make_null();
                    g.plies.push(Ply {
                        mv: None,
                        roll: Some(face),
                        comment: None,
                    });
                    continue;
                }
                None => break,
            }
        } else {
            None
        };
        let m = if (g.plies.len() as u32) < opts.random_plies {
            let moves = match roll {
                Some(face) => pos.dice_moves(face),
                None => pos.legal_moves(),
            };
            moves[rng.random_range(0..moves.len())]
        } else {
            match engine::choose(engine, &pos, roll, &limits) {
                Some(m) => m,
                None => break,
            }
        };
        pos.make(m);
        g.plies.push(Ply {
            mv: Some(m),
            roll,
            comment: None,
        });
        on_ply(g.plies.len());
    }
    g.set_end(end);
    g
}
