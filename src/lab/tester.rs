//! The self-play tester: a working build against a base build, game pairs from a suite (each
//! opening once with each engine moving first), one game at a time, an SPRT on the pentanomial
//! record. Every finished pair is appended to a results file; a run started again with the same
//! settings reads it back and goes on where it stopped.

use super::LabError;
use super::openings;
use super::stats::{Pentanomial, Sprt, Verdict};
use super::uci::UciEngine;
use crate::game::Game;
use crate::position::Position;
use crate::rules::Winner;
use crate::side::Side;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long each move may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Fischer clock: base time per game and increment per move.
    Clock { base: Duration, inc: Duration },
    /// A fixed node count per move (independent of machine load).
    Nodes(u64),
}

impl Control {
    /// Parses `BASE+INC` in seconds, such as `2+0.02` or `10+0.1`.
    pub fn parse_tc(text: &str) -> Result<Control, LabError> {
        let bad = || {
            LabError::Usage(format!(
                "time control `{text}`: expected BASE+INC in seconds"
            ))
        };
        let (b, i) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |s: &str| -> Result<Duration, LabError> {
            let v: f64 = s.trim().parse().map_err(|_| bad())?;
            if !(0.0..1e6).contains(&v) {
                return Err(bad());
            }
            Ok(Duration::from_secs_f64(v))
        };
        let (base, inc) = (secs(b)?, secs(i)?);
        if base.is_zero() && inc.is_zero() {
            return Err(bad());
        }
        Ok(Control::Clock { base, inc })
    }
}

impl std::fmt::Display for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Control::Clock { base, inc } => {
                write!(f, "tc {}+{}", base.as_secs_f64(), inc.as_secs_f64())
            }
            Control::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

/// When the referee ends a game early, from the scores both engines report (both must agree).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign: both engines see at least this many centipawns for the same side...
    pub resign_score: i32,
    /// ... on this many consecutive moves of each engine.
    pub resign_moves: u32,
    /// Draw: from this ply on, both engines within ±`draw_score`...
    pub draw_ply: usize,
    pub draw_score: i32,
    /// ... on this many consecutive moves of each engine.
    pub draw_moves: u32,
    /// A game this long is a draw.
    pub max_plies: usize,
}

impl Default for Adjudication {
    fn default() -> Self {
        Adjudication {
            resign_score: 600,
            resign_moves: 3,
            draw_ply: 80,
            draw_score: 10,
            draw_moves: 8,
            max_plies: 600,
        }
    }
}

/// What an SPRT run plays.
#[derive(Debug, Clone)]
pub struct SprtOptions {
    /// The working build.
    pub new: PathBuf,
    /// The build it is compared with.
    pub base: PathBuf,
    /// A shipped variant's name or a variant file.
    pub variant: String,
    pub openings: PathBuf,
    /// Finished pairs are appended here and read back on a restart.
    pub results: PathBuf,
    pub control: Control,
    /// With a node-limited control: the new engine's own nodes per move, node odds for a
    /// gauntlet against a fixed opponent (Fairy-Stockfish as `new`, say); None = the same count.
    pub new_nodes: Option<u64>,
    /// Per engine (new, base): a variant file it loads by `VariantPath` instead of the
    /// variant's own (the same variant name, other parameters: an `eval` line on trial).
    pub files: [Option<PathBuf>; 2],
    pub sprt: Sprt,
    /// Stop after this many pairs even if the SPRT has not concluded.
    pub max_pairs: Option<u64>,
    pub hash_mb: usize,
    /// A move may overrun the clock by this much before it loses on time (process start-up and
    /// pipe latency on a loaded machine are not the engine's thinking).
    pub time_margin: Duration,
    /// None: play every game out under the variant's rules and `max_plies`.
    pub adjudication: Option<Adjudication>,
    /// Progress line on stderr: None = when stderr is a terminal (a line per pair otherwise).
    pub progress: Option<bool>,
}

impl SprtOptions {
    /// The settings that make results comparable; a results file remembers them.
    fn settings(&self) -> String {
        let adj = match &self.adjudication {
            Some(a) => format!(
                "resign {}/{} draw {}/{}/{} max {}",
                a.resign_score, a.resign_moves, a.draw_ply, a.draw_score, a.draw_moves, a.max_plies
            ),
            None => "no adjudication".into(),
        };
        let mut engines = self
            .new_nodes
            .map_or(String::new(), |n| format!(" new nodes {n}"));
        for (who, f) in ["new", "base"].iter().zip(&self.files) {
            if let Some(f) = f {
                engines += &format!(" {who} file {}", f.display());
            }
        }
        format!(
            "variant {} openings {} {}{engines} hash {} {adj}",
            self.variant,
            self.openings.display(),
            self.control,
            self.hash_mb
        )
    }
}

/// How one game ended, from the new build's side.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// 1, 0.5 or 0 for the new build.
    pub score: f64,
    pub reason: String,
    pub plies: usize,
    /// Index (0 new, 1 base) of an engine that crashed, hung or lost on time: it is restarted.
    pub fault: Option<usize>,
}

/// The state of a run: what the results file holds.
#[derive(Debug, Clone, Default)]
pub struct Record {
    pub penta: Pentanomial,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub endings: BTreeMap<String, u64>,
    pub faults: u64,
    /// Index of the next pair to play.
    pub next_pair: u64,
    /// Set when a node-limited run stopped because every opening of its suite (this many) had
    /// been played: both engines are deterministic at fixed nodes, so a second pass through the
    /// suite would replay the same games and count them twice.
    pub suite_spent: Option<usize>,
}

impl Record {
    fn add_pair(&mut self, pair: u64, games: &[(f64, String); 2]) {
        let half_points = ((games[0].0 + games[1].0) * 2.0).round() as usize;
        self.penta.add(half_points);
        for (s, reason) in games {
            match *s {
                s if s > 0.75 => self.wins += 1,
                s if s < 0.25 => self.losses += 1,
                _ => self.draws += 1,
            }
            if reason.contains("fault") || reason.contains("time forfeit") {
                self.faults += 1;
            }
            *self.endings.entry(ending_kind(reason)).or_default() += 1;
        }
        self.next_pair = self.next_pair.max(pair + 1);
    }

    /// The summary lines: games, W/D/L, pentanomial, Elo, LLR, verdict, endings.
    pub fn report(&self, sprt: &Sprt) -> String {
        let pairs = self.penta.pairs();
        let llr = self.penta.llr(sprt.elo0, sprt.elo1);
        let (lo, hi) = sprt.bounds();
        let elo = match self.penta.elo() {
            Some(e) => format!("Elo {} ± {:.1}", signed(e.elo), e.error()),
            None => "Elo n/a".into(),
        };
        let verdict = match sprt.verdict(llr) {
            Some(Verdict::Accept) => "H1 accepted (gain)",
            Some(Verdict::Reject) => "H0 accepted (no gain)",
            None => "unfinished",
        };
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        format!(
            "games {} ({pairs} pairs): +{} ={} -{}  pentanomial {:?}\n\
             {elo}  LLR {llr:.2} [{lo:.2}, {hi:.2}] for elo0 {} elo1 {}: {verdict}\n\
             endings: {}  faults {}{}",
            2 * pairs,
            self.wins,
            self.draws,
            self.losses,
            self.penta.0,
            sprt.elo0,
            sprt.elo1,
            endings.join(", "),
            self.faults,
            self.suite_spent.map_or(String::new(), |n| format!(
                "\nstopped: all {n} openings of the suite are played; at fixed nodes more pairs \
                 would replay the same games (a larger suite: `acedrex openings --count`)"
            ))
        )
    }
}

/// An Elo figure with its sign, to one decimal (no "-0.0").
fn signed(elo: f64) -> String {
    let tenths = (elo * 10.0).round();
    if tenths == 0.0 {
        "0.0".into()
    } else {
        format!("{:+.1}", tenths / 10.0)
    }
}

/// The reason of an ending without the engine-specific detail (for the endings tally).
fn ending_kind(reason: &str) -> String {
    reason
        .split(':')
        .next()
        .unwrap_or(reason)
        .trim()
        .to_string()
}

/// Header line of a results file.
fn header(opts: &SprtOptions) -> String {
    format!("# acedrex sprt results; {}", opts.settings())
}

/// Reads a results file written with the same settings; an absent file is an empty record.
pub fn read_results(path: &Path, opts: &SprtOptions) -> Result<Record, LabError> {
    let mut rec = Record::default();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(rec),
        Err(e) => return Err(LabError::io(path, e)),
    };
    let bad = |message: String| LabError::Results {
        path: path.display().to_string(),
        message,
    };
    let mut lines = text.lines();
    match lines.next() {
        None => return Ok(rec),
        Some(h) if h == header(opts) => {}
        Some(h) => {
            return Err(bad(format!(
                "written with other settings (`{h}`, now `{}`): use another results file",
                header(opts)
            )));
        }
    }
    for (n, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(" | ").collect();
        let words: Vec<&str> = fields[0].split_whitespace().collect();
        let parsed = match (words.as_slice(), fields.len()) {
            (["pair", p, "opening", _, "new", a, b], 3) => {
                match (p.parse::<u64>(), a.parse::<f64>(), b.parse::<f64>()) {
                    (Ok(p), Ok(a), Ok(b)) => Some((p, a, b)),
                    _ => None,
                }
            }
            _ => None,
        };
        let Some((p, a, b)) = parsed else {
            return Err(bad(format!("line {}: cannot read `{line}`", n + 2)));
        };
        rec.add_pair(p, &[(a, fields[1].to_string()), (b, fields[2].to_string())]);
    }
    Ok(rec)
}

fn score_text(s: f64) -> &'static str {
    if s > 0.75 {
        "1"
    } else if s < 0.25 {
        "0"
    } else {
        "0.5"
    }
}

/// Runs (or resumes) an SPRT; returns the final record. Progress goes to stderr.
pub fn run(opts: &SprtOptions) -> Result<Record, LabError> {
    let variant =
        crate::variant::load(&opts.variant).map_err(|e| LabError::Variant(e.to_string()))?;
    if variant.dice.is_some() {
        return Err(LabError::Usage(
            "dice variants need the referee to roll for the engines; UCI has no roll".into(),
        ));
    }
    let name = variant.name.clone();
    // A file on trial must name the same variant: the engine selects it by that name.
    for f in opts.files.iter().flatten() {
        let v = crate::variant::load(&f.display().to_string())
            .map_err(|e| LabError::Variant(e.to_string()))?;
        if v.name != name {
            return Err(LabError::Usage(format!(
                "{}: variant `{}`, not `{name}`",
                f.display(),
                v.name
            )));
        }
    }
    let variant_file = super::uci::variant_path(&opts.variant);
    let game = Game::new(variant);
    let suite = openings::read(&opts.openings)?;
    if suite.is_empty() {
        return Err(LabError::Usage(format!(
            "{}: no openings",
            opts.openings.display()
        )));
    }
    for (i, f) in suite.iter().enumerate() {
        Position::from_fen(&game, f).map_err(|e| LabError::Opening {
            index: i + 1,
            message: e.to_string(),
        })?;
    }
    let mut rec = read_results(&opts.results, opts)?;
    let fresh =
        !opts.results.exists() || std::fs::metadata(&opts.results).is_ok_and(|m| m.len() == 0);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&opts.results)
        .map_err(|e| LabError::io(&opts.results, e))?;
    if fresh {
        writeln!(file, "{}", header(opts)).map_err(|e| LabError::io(&opts.results, e))?;
    }
    let start = |i: usize| -> Result<UciEngine, LabError> {
        let (path, label) = if i == 0 {
            (&opts.new, "new")
        } else {
            (&opts.base, "base")
        };
        let file = opts.files[i].as_deref().or(variant_file.as_deref());
        let mut e = UciEngine::start(path, label, &name, file, opts.hash_mb)?;
        if i == 0 {
            e.nodes = opts.new_nodes;
        }
        Ok(e)
    };
    let mut engines = [Some(start(0)?), Some(start(1)?)];
    let tty = opts
        .progress
        .unwrap_or_else(|| std::io::stderr().is_terminal());
    let t0 = Instant::now();
    let first_pair = rec.next_pair;
    loop {
        let llr = rec.penta.llr(opts.sprt.elo0, opts.sprt.elo1);
        if opts.sprt.verdict(llr).is_some()
            || opts.max_pairs.is_some_and(|m| rec.penta.pairs() >= m)
        {
            break;
        }
        if matches!(opts.control, Control::Nodes(_)) && rec.next_pair >= suite.len() as u64 {
            rec.suite_spent = Some(suite.len());
            break;
        }
        let pair = rec.next_pair;
        let index = (pair % suite.len() as u64) as usize;
        let fen = &suite[index];
        let mut games: [(f64, String); 2] = Default::default();
        for (g, slot) in games.iter_mut().enumerate() {
            for (i, e) in engines.iter_mut().enumerate() {
                if e.is_none() {
                    *e = Some(start(i)?);
                }
            }
            let [Some(new), Some(base)] = &mut engines else {
                unreachable!("both engines were just started")
            };
            // Game 0: the new build moves first; game 1: the base build does.
            let r = if g == 0 {
                play_game(&game, fen, [new, base], opts)?
            } else {
                let mut r = play_game(&game, fen, [base, new], opts)?;
                r.score = 1.0 - r.score;
                r.fault = r.fault.map(|f| 1 - f);
                r
            };
            if let Some(f) = r.fault {
                engines[f] = None;
            }
            *slot = (r.score, r.reason);
        }
        writeln!(
            file,
            "pair {pair} opening {} new {} {} | {} | {}",
            index + 1,
            score_text(games[0].0),
            score_text(games[1].0),
            games[0].1,
            games[1].1
        )
        .and_then(|_| file.flush())
        .map_err(|e| LabError::io(&opts.results, e))?;
        rec.add_pair(pair, &games);
        let played = rec.next_pair - first_pair;
        let rate = t0.elapsed().as_secs_f64() / played as f64;
        let line = progress_line(&rec, &opts.sprt, rate);
        if tty {
            eprint!("\r\x1b[2K{line}");
        } else {
            eprintln!("{line}");
        }
    }
    if tty {
        eprintln!();
    }
    Ok(rec)
}

fn progress_line(rec: &Record, sprt: &Sprt, secs_per_pair: f64) -> String {
    let llr = rec.penta.llr(sprt.elo0, sprt.elo1);
    let (lo, hi) = sprt.bounds();
    let elo = rec.penta.elo().map_or("n/a".to_string(), |e| {
        format!("{} ± {:.1}", signed(e.elo), e.error())
    });
    format!(
        "sprt games {} +{} ={} -{} penta {:?} Elo {elo} LLR {llr:.2} [{lo:.2}, {hi:.2}] {:.1} s/pair",
        2 * rec.penta.pairs(),
        rec.wins,
        rec.draws,
        rec.losses,
        rec.penta.0,
        secs_per_pair
    )
}

/// One game from `fen`; `engines[0]` moves first. The score is from `engines[0]`'s side.
pub fn play_game(
    game: &Arc<Game>,
    fen: &str,
    engines: [&mut UciEngine; 2],
    opts: &SprtOptions,
) -> Result<GameRecord, LabError> {
    let mut pos = Position::from_fen(game, fen).map_err(|e| LabError::Usage(e.to_string()))?;
    let first_side = pos.side_to_move();
    let mut moves: Vec<String> = Vec::new();
    let adj = opts.adjudication;
    let max_plies = adj.map_or(Adjudication::default().max_plies, |a| a.max_plies);
    // Per engine: remaining clock (ms), last score, and consecutive resign / draw moves.
    let mut clock = [0i64; 2];
    let mut inc = 0i64;
    if let Control::Clock { base, inc: i } = opts.control {
        clock = [base.as_millis() as i64; 2];
        inc = i.as_millis() as i64;
    }
    let mut last_score: [Option<i32>; 2] = [None, None];
    let (mut resign_run, mut draw_run) = (0u32, 0u32);
    let margin = opts.time_margin.as_millis() as i64;
    let mut engines = engines;
    for (i, e) in engines.iter_mut().enumerate() {
        // A failed `ucinewgame` is the engine's fault: it loses this game.
        if let Err(err) = e.new_game() {
            return Ok(loss(i, format!("fault: {err}"), 0));
        }
    }
    loop {
        let legal = pos.legal_moves().len();
        if let Some(end) = pos.game_end_with(legal) {
            let score = match end.winner {
                Winner::Draw => 0.5,
                Winner::White if first_side == Side::White => 1.0,
                Winner::Black if first_side == Side::Black => 1.0,
                _ => 0.0,
            };
            return Ok(GameRecord {
                score,
                reason: end.reason.to_string(),
                plies: moves.len(),
                fault: None,
            });
        }
        if moves.len() >= max_plies {
            return Ok(draw("max plies", moves.len()));
        }
        let me = usize::from(pos.side_to_move() != first_side);
        let white = usize::from(first_side != Side::White);
        let (args, timeout) = match opts.control {
            Control::Clock { .. } => (
                format!(
                    "wtime {} btime {} winc {inc} binc {inc}",
                    clock[white].max(1),
                    clock[1 - white].max(1)
                ),
                Duration::from_millis((clock[me].max(0) + margin + 1000) as u64),
            ),
            // Generous: a node-limited move never comes near it unless the engine hangs.
            Control::Nodes(n) => (
                format!("nodes {}", engines[me].nodes.unwrap_or(n)),
                Duration::from_secs(60),
            ),
        };
        let answer = match engines[me].go(fen, &moves, &args, timeout) {
            Ok(a) => a,
            Err(err) => return Ok(loss(me, format!("fault: {err}"), moves.len())),
        };
        if let Control::Clock { .. } = opts.control {
            clock[me] -= answer.elapsed.as_millis() as i64;
            if clock[me] < -margin {
                return Ok(loss(
                    me,
                    format!("time forfeit: {}", engines[me].name),
                    moves.len(),
                ));
            }
            clock[me] = clock[me].max(0) + inc;
        }
        let m = match pos.parse_move(&answer.bestmove) {
            Ok(m) => m,
            Err(e) => {
                return Ok(loss(
                    me,
                    format!(
                        "illegal move: {} played {}: {e}",
                        engines[me].name, answer.bestmove
                    ),
                    moves.len(),
                ));
            }
        };
        pos.make(m);
        moves.push(answer.bestmove);
        last_score[me] = answer.score;
        if let Some(a) = adj
            && let [Some(s0), Some(s1)] = last_score
        {
            // Both scores from engine 0's side.
            let (v0, v1) = (s0, -s1);
            if (v0 >= a.resign_score && v1 >= a.resign_score)
                || (v0 <= -a.resign_score && v1 <= -a.resign_score)
            {
                resign_run += 1;
            } else {
                resign_run = 0;
            }
            if resign_run >= 2 * a.resign_moves {
                let loser = usize::from(v0 > 0);
                return Ok(loss(loser, "adjudicated: resign".into(), moves.len()));
            }
            if moves.len() >= a.draw_ply && v0.abs() <= a.draw_score && v1.abs() <= a.draw_score {
                draw_run += 1;
            } else {
                draw_run = 0;
            }
            if draw_run >= 2 * a.draw_moves {
                return Ok(draw("adjudicated: draw", moves.len()));
            }
        }
    }
}

/// A loss for engine `loser` (0 moves first); faults make the engine restart.
fn loss(loser: usize, reason: String, plies: usize) -> GameRecord {
    let fault =
        (reason.starts_with("fault") || reason.starts_with("time forfeit")).then_some(loser);
    GameRecord {
        score: if loser == 0 { 0.0 } else { 1.0 },
        reason,
        plies,
        fault,
    }
}

fn draw(reason: &str, plies: usize) -> GameRecord {
    GameRecord {
        score: 0.5,
        reason: reason.to_string(),
        plies,
        fault: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            Control::parse_tc("2+0.02").unwrap(),
            Control::Clock {
                base: Duration::from_secs(2),
                inc: Duration::from_millis(20)
            }
        );
        assert_eq!(
            Control::parse_tc("10").unwrap(),
            Control::Clock {
                base: Duration::from_secs(10),
                inc: Duration::ZERO
            }
        );
        assert!(Control::parse_tc("fast").is_err());
        assert!(Control::parse_tc("0+0").is_err());
        assert_eq!(Control::Nodes(5000).to_string(), "nodes 5000");
    }
}
