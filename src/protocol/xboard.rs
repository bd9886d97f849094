//! CECP v2 (the XBoard/WinBoard engine protocol), as XBoard 4.9 speaks it: see `docs/cecp.md` in the
//! shared folder for the exchange with Fairy-Max that this follows.
//!
//! One controller thread owns the game; the search runs on a worker thread so that `?`, `force`,
//! `quit` and the like are handled while the engine thinks. Commands that must not overtake the move
//! in progress (`ping`, moves, ...) wait in a queue until it has been sent; commands that change the
//! game (`force`, `new`, `setboard`, ...) abandon the search first.
//!
//! Non-standard debugging command: `fen` answers `# fen <FEN of the current position>`.

use super::{Config, Event, Out, Registry, printable, spawn_reader};
use crate::betza::Betza;
use crate::game::Game;
use crate::movegen::MoveError;
use crate::position::{Move, Position, Setup, Side};
use crate::search::{Engine, Info, Limits, Score, SearchResult};
use crate::variant::Variant;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Hash size until XBoard sends `memory`.
const DEFAULT_HASH_MB: usize = 16;
/// Taken off the clock for pipe and scheduling delays, so that a move sent "just in time" arrives
/// in time.
const LAG: Duration = Duration::from_millis(50);

/// Runs CECP on `input`/`output` until `quit` or end of input, with the built-in variants.
pub fn run<R, W>(input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    run_with(input, output, &Config::default())
}

/// Runs CECP with extra variant files from `config`.
pub fn run_with<R, W>(input: R, output: W, config: &Config) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    spawn_reader(input, tx.clone());
    let out = Out::new(output);
    let (registry, errors) = Registry::with_files(&config.variant_files);
    for e in errors {
        for l in e.lines() {
            out.line(&format!("# {l}"))?;
        }
    }
    let mut session = Session::new(out, tx, registry);
    session.serve(rx)
}

/// Commands handled at once even while the engine thinks: they only set flags or clocks.
const IMMEDIATE: &[&str] = &[
    "time", "otim", "post", "nopost", "easy", "hard", "computer", "random", "accepted", "rejected",
    "name", "rating", "ics", "hint", "bk", "xboard", ".", "draw",
];

/// Commands that change the game: a search in progress is abandoned (its move is not sent) first.
const ABANDON: &[&str] = &[
    "force", "new", "result", "undo", "remove", "setboard", "variant", "edit", "exit", "analyze",
    "white", "black",
];

/// Variant names XBoard 4.9 knows itself; for these it ignores `setup` and uses its own rules.
const XBOARD_VARIANTS: &[&str] = &[
    "normal",
    "wildcastle",
    "nocastle",
    "fischerandom",
    "bughouse",
    "crazyhouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "kriegspiel",
    "atomic",
    "3check",
    "shatranj",
    "shogi",
    "courier",
    "gothic",
    "capablanca",
    "knightmate",
    "fairy",
    "cylinder",
    "falcon",
    "caparandom",
    "berolina",
    "janus",
    "super",
    "great",
    "twilight",
    "makruk",
    "seirawan",
    "grand",
    "spartan",
    "xiangqi",
    "asean",
    "elven",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Thinking on the engine's move: the result is played.
    Move,
    /// `analyze`: runs until stopped; the result is not played.
    Analyze,
}

struct Running {
    id: u64,
    kind: Kind,
    stop: Arc<AtomicBool>,
    handle: JoinHandle<(Engine, SearchResult)>,
    /// When the controller stops a move search whatever the engine's own time management says.
    deadline: Option<Instant>,
}

/// Time control as `level`/`st`/`time`/`otim` set it.
#[derive(Debug, Clone)]
struct Clock {
    /// Moves per session (0: the whole game).
    mps: u32,
    base: Duration,
    inc: Duration,
    /// `st`: fixed time per move.
    per_move: Option<Duration>,
    own: Option<Duration>,
    opp: Option<Duration>,
}

impl Default for Clock {
    fn default() -> Clock {
        // XBoard's default: 40 moves in 5 minutes.
        Clock {
            mps: 40,
            base: Duration::from_secs(300),
            inc: Duration::ZERO,
            per_move: None,
            own: None,
            opp: None,
        }
    }
}

/// `edit` mode: the board being set up and the colour of the pieces being placed.
struct Edit {
    setup: Setup,
    /// The colour of the pieces placed next.
    side: Side,
}

struct Session {
    out: Out,
    tx: Sender<Event>,
    registry: Registry,
    pos: Position,
    /// Present whenever no search is running (the search thread borrows it).
    engine: Option<Engine>,
    hash_mb: usize,
    threads: usize,
    search: Option<Running>,
    next_id: u64,
    /// Lines that wait for the move in progress.
    pending: VecDeque<String>,
    force: bool,
    engine_side: Side,
    analyzing: bool,
    /// Analysis must (re)start: analyze mode was entered or the position changed.
    analysis_due: bool,
    post: Arc<AtomicBool>,
    clock: Clock,
    depth: Option<u32>,
    edit: Option<Edit>,
    quit: bool,
}

fn new_game(v: &Variant) -> Arc<Game> {
    Game::new(v.clone())
}

impl Session {
    fn new(out: Out, tx: Sender<Event>, registry: Registry) -> Session {
        let chess = registry
            .find("normal")
            .cloned()
            .or_else(|| crate::variant::builtin("chess"))
            .expect("built-in chess");
        let game = new_game(&chess);
        Session {
            out,
            tx,
            registry,
            pos: Position::start(&game),
            engine: Some(Engine::new(DEFAULT_HASH_MB, 1)),
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            search: None,
            next_id: 0,
            pending: VecDeque::new(),
            force: false,
            engine_side: Side::Black,
            analyzing: false,
            analysis_due: false,
            post: Arc::new(AtomicBool::new(false)),
            clock: Clock::default(),
            depth: None,
            edit: None,
            quit: false,
        }
    }

    fn send(&self, line: &str) -> io::Result<()> {
        self.out.line(line)
    }

    /// The event loop: GUI lines, finished searches, and the controller's own deadline.
    fn serve(&mut self, rx: Receiver<Event>) -> io::Result<()> {
        let mut eof = false;
        loop {
            while self.search.is_none() && !self.quit {
                let Some(line) = self.pending.pop_front() else {
                    break;
                };
                self.command(&line)?;
            }
            if self.quit {
                break;
            }
            if self.search.is_none()
                && self.analyzing
                && self.analysis_due
                && self.edit.is_none()
                && !eof
            {
                self.analysis_due = false;
                self.start(Kind::Analyze);
            }
            if eof && self.search.is_none() {
                break;
            }
            let deadline = self.search.as_ref().and_then(|s| s.deadline);
            let event = match deadline {
                Some(d) => match rx.recv_timeout(d.saturating_duration_since(Instant::now())) {
                    Ok(e) => e,
                    Err(RecvTimeoutError::Timeout) => {
                        if let Some(s) = &mut self.search {
                            s.stop.store(true, Ordering::SeqCst);
                            s.deadline = None;
                        }
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => Event::Eof,
                },
                None => rx.recv().unwrap_or(Event::Eof),
            };
            match event {
                Event::Line(line) => self.arrived(line)?,
                Event::Eof => {
                    eof = true;
                    // An infinite analysis would never end; a move search finishes by itself.
                    if self
                        .search
                        .as_ref()
                        .is_some_and(|s| s.kind == Kind::Analyze)
                    {
                        self.abandon();
                    }
                }
                Event::Done(id) => {
                    if self.search.as_ref().is_some_and(|s| s.id == id) {
                        self.finish()?;
                    }
                }
            }
        }
        self.abandon();
        Ok(())
    }

    /// A line from the GUI: run it now, queue it behind the move in progress, or abandon the search.
    fn arrived(&mut self, line: String) -> io::Result<()> {
        let Some(kind) = self.search.as_ref().map(|s| s.kind) else {
            return self.command(&line);
        };
        let word = line.split_whitespace().next().unwrap_or("");
        if word == "quit" {
            self.abandon();
            self.quit = true;
            return Ok(());
        }
        if self.edit.is_some() {
            self.pending.push_back(line);
            return Ok(());
        }
        match kind {
            Kind::Analyze => {
                if IMMEDIATE.contains(&word) || word == "ping" || word.is_empty() {
                    self.command(&line)
                } else {
                    self.abandon();
                    self.pending.push_back(line);
                    Ok(())
                }
            }
            Kind::Move => {
                if word == "?" {
                    if let Some(s) = &self.search {
                        s.stop.store(true, Ordering::SeqCst);
                    }
                    Ok(())
                } else if !self.pending.is_empty() {
                    // Keep the GUI's order behind a queued command such as `ping`.
                    self.pending.push_back(line);
                    Ok(())
                } else if IMMEDIATE.contains(&word) {
                    self.command(&line)
                } else {
                    if ABANDON.contains(&word) {
                        self.abandon();
                    }
                    self.pending.push_back(line);
                    Ok(())
                }
            }
        }
    }

    /// One command, with no search running (except for the immediate ones).
    fn command(&mut self, line: &str) -> io::Result<()> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(());
        }
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        if self.analyzing && !IMMEDIATE.contains(&word) && word != "ping" {
            self.analysis_due = true;
        }
        if self.edit.is_some() {
            return self.edit_line(line);
        }
        match word {
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "hint" | "bk" | "easy" | "hard" | "." | "draw" => Ok(()),
            "protover" => self.features(),
            "new" => {
                let chess = self.registry.find("normal").cloned();
                if let Some(v) = chess {
                    self.set_variant(&v, false)?;
                }
                self.force = false;
                self.engine_side = Side::Black;
                self.depth = None;
                self.clock.own = None;
                self.clock.opp = None;
                if let Some(e) = &mut self.engine {
                    e.clear();
                }
                Ok(())
            }
            "variant" => match self.registry.find(rest).cloned() {
                Some(v) => self.set_variant(&v, true),
                None => self.send(&format!("Error (unsupported variant): {line}")),
            },
            "force" => {
                self.force = true;
                Ok(())
            }
            "go" => {
                self.force = false;
                self.engine_side = self.pos.side_to_move();
                self.think()
            }
            "playother" => {
                self.force = false;
                self.engine_side = !self.pos.side_to_move();
                Ok(())
            }
            "white" | "black" => {
                // Protocol v1: the named side is to move and the engine plays the other one.
                let side = if word == "black" {
                    Side::Black
                } else {
                    Side::White
                };
                self.engine_side = !side;
                if self.pos.side_to_move() != side {
                    let mut setup = self.pos.setup();
                    setup.side = side;
                    setup.ep = None;
                    if let Ok(p) = Position::from_setup(self.pos.game(), &setup) {
                        self.pos = p;
                    }
                }
                Ok(())
            }
            "usermove" => self.user_move(rest),
            "undo" => self.take_back(1, line),
            "remove" => self.take_back(2, line),
            "setboard" => self.set_board(rest),
            "edit" => {
                self.start_edit();
                Ok(())
            }
            "level" => self.level(rest, line),
            "st" => match rest.parse::<f64>() {
                Ok(s) if s.is_finite() && s > 0.0 => {
                    self.clock.per_move = Some(Duration::from_secs_f64(s.min(1e6)));
                    Ok(())
                }
                _ => self.send(&format!("Error (bad argument): {line}")),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d > 0 => {
                    self.depth = Some(d);
                    Ok(())
                }
                _ => self.send(&format!("Error (bad argument): {line}")),
            },
            "time" | "otim" => match rest.parse::<i64>() {
                Ok(cs) => {
                    let t = Some(Duration::from_millis(
                        cs.clamp(0, i64::MAX / 10) as u64 * 10,
                    ));
                    if word == "time" {
                        self.clock.own = t;
                    } else {
                        self.clock.opp = t;
                    }
                    Ok(())
                }
                Err(_) => self.send(&format!("Error (bad argument): {line}")),
            },
            "post" | "nopost" => {
                self.post.store(word == "post", Ordering::SeqCst);
                Ok(())
            }
            "analyze" => {
                self.analyzing = true;
                self.analysis_due = true;
                Ok(())
            }
            "exit" => {
                self.analyzing = false;
                self.analysis_due = false;
                Ok(())
            }
            "ping" => self.send(&format!("pong {rest}")),
            "result" => {
                // The game is over: no more thinking until told to.
                self.force = true;
                Ok(())
            }
            "memory" => match rest.parse::<usize>() {
                Ok(mb) if mb > 0 => {
                    self.hash_mb = mb;
                    if let Some(e) = &mut self.engine {
                        e.set_hash(mb);
                    }
                    Ok(())
                }
                _ => self.send(&format!("Error (bad argument): {line}")),
            },
            "cores" => match rest.parse::<usize>() {
                Ok(n) if n > 0 => {
                    self.threads = n;
                    if let Some(e) = &mut self.engine {
                        e.set_threads(n);
                    }
                    Ok(())
                }
                _ => self.send(&format!("Error (bad argument): {line}")),
            },
            "option" => self.option(rest, line),
            // Nothing to stop: `?` only matters while thinking.
            "?" => Ok(()),
            "quit" => {
                self.quit = true;
                Ok(())
            }
            "fen" => self.send(&format!("# fen {}", self.pos.fen())),
            _ if looks_like_move(word) && rest.is_empty() => self.user_move(word),
            _ => self.send(&format!("Error (unknown command): {}", printable(line))),
        }
    }

    fn features(&self) -> io::Result<()> {
        self.send(&format!(
            "feature myname=\"acedrex {}\" variants=\"{}\" setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 \
             memory=1 smp=1 analyze=1 option=\"VariantPath -file \" done=1",
            env!("CARGO_PKG_VERSION"),
            self.registry.xboard_names().join(",")
        ))
    }

    /// Switches variant; after `variant`, an engine-defined variant's board and pieces are sent.
    fn set_variant(&mut self, v: &Variant, announce: bool) -> io::Result<()> {
        let game = new_game(v);
        self.pos = Position::start(&game);
        if announce {
            for l in setup_lines(v) {
                self.send(&l)?;
            }
        }
        Ok(())
    }

    fn option(&mut self, rest: &str, line: &str) -> io::Result<()> {
        let (name, value) = rest.split_once('=').unwrap_or((rest, ""));
        match name.trim() {
            "VariantPath" if !value.trim().is_empty() => match self.registry.load_path(value) {
                Ok(names) => {
                    self.send(&format!("# loaded {}", names.join(", ")))?;
                    // Tell XBoard the longer list; it accepts features at any time.
                    self.send(&format!(
                        "feature variants=\"{}\"",
                        self.registry.xboard_names().join(",")
                    ))
                }
                Err(e) => {
                    for l in e.lines() {
                        self.send(&format!("# {l}"))?;
                    }
                    self.send(&format!(
                        "tellusererror VariantPath: cannot load {}",
                        value.trim()
                    ))
                }
            },
            "VariantPath" => Ok(()),
            _ => self.send(&format!("Error (unknown option): {line}")),
        }
    }

    fn level(&mut self, rest: &str, line: &str) -> io::Result<()> {
        let parts: Vec<&str> = rest.split_whitespace().collect();
        let parsed = (|| {
            let [mps, base, inc] = parts.as_slice() else {
                return None;
            };
            let mps: u32 = mps.parse().ok()?;
            let base = match base.split_once(':') {
                Some((m, s)) => m
                    .parse::<u64>()
                    .ok()?
                    .checked_mul(60)?
                    .checked_add(s.parse::<u64>().ok()?)?,
                None => base.parse::<u64>().ok()?.checked_mul(60)?,
            };
            let inc: f64 = inc
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite() && *x >= 0.0)?;
            Some((
                mps,
                Duration::from_secs(base.min(1 << 40)),
                Duration::from_secs_f64(inc.min(1e6)),
            ))
        })();
        match parsed {
            Some((mps, base, inc)) => {
                self.clock = Clock {
                    mps,
                    base,
                    inc,
                    per_move: None,
                    own: None,
                    opp: None,
                };
                Ok(())
            }
            None => self.send(&format!("Error (bad argument): {line}")),
        }
    }

    /// A move from the GUI; in play (not force, not analysing) the engine then claims a finished
    /// game or starts thinking when it is its turn.
    fn user_move(&mut self, text: &str) -> io::Result<()> {
        if text.is_empty() {
            return self.send("Error (no move given): usermove");
        }
        let m = match parse_move(&mut self.pos, text) {
            Ok(m) => m,
            Err(reason) => {
                return self.send(&format!("Illegal move ({reason}): {}", printable(text)));
            }
        };
        self.pos.make(m);
        if self.force || self.analyzing {
            return Ok(());
        }
        if let Some(end) = self.pos.game_end() {
            return self.send(&end.to_string());
        }
        if self.pos.side_to_move() == self.engine_side {
            self.think()
        } else {
            Ok(())
        }
    }

    fn take_back(&mut self, plies: usize, line: &str) -> io::Result<()> {
        if self.pos.plies_played() < plies {
            return self.send(&format!("Error (no move to undo): {line}"));
        }
        for _ in 0..plies {
            self.pos.unmake();
        }
        Ok(())
    }

    fn set_board(&mut self, fen: &str) -> io::Result<()> {
        let game = self.pos.game().clone();
        match Position::from_fen(&game, fen) {
            Ok(p) => {
                self.pos = p;
                Ok(())
            }
            Err(e) => self.send(&format!("tellusererror Illegal position: {}", e.reasons())),
        }
    }

    fn start_edit(&mut self) {
        self.edit = Some(Edit {
            setup: self.pos.setup(),
            side: Side::White,
        });
    }

    /// One line of `edit` mode: `#` clears the board, `c` switches colour, `Pa4` places a piece,
    /// `xa4` empties a square, `.` ends the edit.
    fn edit_line(&mut self, line: &str) -> io::Result<()> {
        let game = self.pos.game().clone();
        let (files, ranks) = (game.tables.files, game.tables.ranks);
        let Some(edit) = self.edit.as_mut() else {
            return Ok(());
        };
        match line {
            "#" => edit.setup = Setup::empty(files, ranks),
            "c" => edit.side = !edit.side,
            "." => {
                let edit = self.edit.take().expect("in edit mode");
                return self.finish_edit(&game, edit.setup);
            }
            _ => {
                let mut chars = line.chars();
                let letter = chars.next().unwrap_or(' ');
                let square = crate::geometry::parse_square(chars.as_str(), files, ranks)
                    .filter(|&(_, n)| n == chars.as_str().len());
                let known =
                    letter.is_ascii_uppercase() && game.variant.piece_index(letter).is_some();
                match square {
                    Some((c, _)) if letter == 'x' || known => {
                        let at = (crate::geometry::file_of(c), crate::geometry::rank_of(c));
                        if letter == 'x' {
                            edit.setup.remove(at);
                        } else {
                            edit.setup.put(at, edit.side, letter);
                        }
                    }
                    _ => return self.send(&format!("Error (bad edit command): {line}")),
                }
            }
        }
        Ok(())
    }

    fn finish_edit(&mut self, game: &Arc<Game>, mut setup: Setup) -> io::Result<()> {
        // Rights: the edit protocol has none, so a royal piece (and a castling corner piece)
        // standing where the game starts it is taken as unmoved.
        setup.rights = game.unmoved_rights(&setup);
        setup.side = self.pos.side_to_move();
        setup.ep = None;
        (setup.halfmove, setup.fullmove) = (0, 1);
        match Position::from_setup(game, &setup) {
            Ok(p) => {
                self.pos = p;
                Ok(())
            }
            Err(e) => self.send(&format!("tellusererror Illegal position: {}", e.reasons())),
        }
    }

    /// The engine's turn: claim a finished game, or start searching.
    fn think(&mut self) -> io::Result<()> {
        if let Some(end) = self.pos.game_end() {
            return self.send(&end.to_string());
        }
        self.start(Kind::Move);
        Ok(())
    }

    fn limits(&self, kind: Kind) -> (Limits, Option<Instant>) {
        let mut l = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        if kind == Kind::Analyze {
            l.infinite = true;
            return (l, None);
        }
        let now = Instant::now();
        if let Some(t) = self.clock.per_move {
            l.movetime = Some(t.saturating_sub(LAG).max(Duration::from_millis(10)));
            return (l, Some(now + t.saturating_sub(LAG / 2)));
        }
        let own = self
            .clock
            .own
            .unwrap_or(self.clock.base)
            .saturating_sub(LAG);
        let opp = self.clock.opp.unwrap_or(self.clock.base);
        let inc = self.clock.inc;
        if self.pos.side_to_move() == Side::White {
            (l.wtime, l.btime) = (Some(own), Some(opp));
        } else {
            (l.wtime, l.btime) = (Some(opp), Some(own));
        }
        (l.winc, l.binc) = (Some(inc), Some(inc));
        if self.clock.mps > 0 {
            let played = self.pos.fullmove().saturating_sub(1);
            l.movestogo = Some(self.clock.mps - played % self.clock.mps);
        }
        // A backstop only: the engine's own time management stops long before this.
        (l, Some(now + own / 3 + inc))
    }

    fn start(&mut self, kind: Kind) {
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        let (limits, deadline) = self.limits(kind);
        let pos = self.pos.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let id = self.next_id;
        self.next_id += 1;
        let (out, post, tx, stop2) = (
            self.out.clone(),
            self.post.clone(),
            self.tx.clone(),
            stop.clone(),
        );
        let handle = std::thread::spawn(move || {
            let mut on_info = |info: &Info| {
                // Analysis exists to show thinking; in play `post`/`nopost` decide.
                if kind == Kind::Analyze || post.load(Ordering::SeqCst) {
                    let _ = out.line(&thinking(&pos, info));
                }
            };
            let result = engine.search(&pos, &limits, &stop2, &mut on_info);
            let _ = tx.send(Event::Done(id));
            (engine, result)
        });
        self.search = Some(Running {
            id,
            kind,
            stop,
            handle,
            deadline,
        });
    }

    /// Takes the engine back from a search thread; a panicked search leaves a fresh engine.
    fn join(&mut self, r: Running) -> Option<SearchResult> {
        match r.handle.join() {
            Ok((engine, result)) => {
                self.engine = Some(engine);
                Some(result)
            }
            Err(_) => {
                self.engine = Some(Engine::new(self.hash_mb, self.threads));
                None
            }
        }
    }

    /// Stops the search and drops its result.
    fn abandon(&mut self) {
        if let Some(r) = self.search.take() {
            r.stop.store(true, Ordering::SeqCst);
            self.join(r);
        }
    }

    /// A search ended by itself or by `?`/deadline: play and announce its move.
    fn finish(&mut self) -> io::Result<()> {
        let Some(r) = self.search.take() else {
            return Ok(());
        };
        let kind = r.kind;
        let result = self.join(r);
        if kind == Kind::Analyze {
            return Ok(());
        }
        let legal = self.pos.legal_moves();
        // Never forfeit over a search bug: fall back to any legal move.
        let best = result
            .and_then(|r| r.best)
            .filter(|m| legal.contains(m))
            .or_else(|| legal.first().copied());
        match best {
            Some(m) => {
                let text = self.pos.move_text(m);
                self.pos.make(m);
                self.send(&format!("move {text}"))?;
                match self.pos.game_end() {
                    Some(end) => self.send(&end.to_string()),
                    None => Ok(()),
                }
            }
            None => match self.pos.game_end_with(0) {
                Some(end) => self.send(&end.to_string()),
                None => Ok(()),
            },
        }
    }
}

/// Whether a word is meant as a move (`e2e4`, `a11a12r`), so that a bad one gets `Illegal move`
/// rather than `Error (unknown command)`.
fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 4 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit()
}

/// Parses a GUI move. A promotion letter that names no piece of the variant (XBoard's default `q`
/// in a variant without queens) is ignored when the promotion is forced anyway.
fn parse_move(pos: &mut Position, text: &str) -> Result<Move, &'static str> {
    let reason = |e: &MoveError| match e {
        MoveError::Syntax(_) => "unparsable",
        MoveError::Illegal(_) => "not legal here",
        MoveError::Ambiguous(..) => "promotion piece missing",
    };
    match pos.parse_move(text) {
        Ok(m) => Ok(m),
        Err(e @ MoveError::Illegal(_)) => {
            let last = text.chars().last().unwrap_or(' ');
            let foreign =
                last.is_ascii_alphabetic() && pos.game().variant.piece_index(last).is_none();
            if foreign {
                let trimmed = text[..text.len() - 1].trim_end_matches('=');
                if let Ok(m) = pos
                    .parse_move(trimmed)
                    .map_err(|_| ())
                    .and_then(|m| m.promotion().map(|_| m).ok_or(()))
                {
                    return Ok(m);
                }
            }
            Err(reason(&e))
        }
        Err(e) => Err(reason(&e)),
    }
}

/// XBoard thinking output: `depth score time(cs) nodes pv`; mates as ±(100000 + moves).
fn thinking(pos: &Position, info: &Info) -> String {
    let score = match info.score {
        Score::Cp(c) => c,
        Score::Mate(n) if n >= 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    };
    let pv: Vec<String> = info.pv.iter().map(|&m| pos.move_text(m)).collect();
    format!(
        "{} {} {} {} {}",
        info.depth,
        score,
        info.time.as_millis() / 10,
        info.nodes,
        pv.join(" ")
    )
}

/// XBoard's piece slots (enum ChessSquare of XBoard 4.9) that acedrex uses.
mod slot {
    pub const PAWN: usize = 0;
    pub const KNIGHT: usize = 1;
    pub const BISHOP: usize = 2;
    pub const ROOK: usize = 3;
    pub const QUEEN: usize = 4;
    /// Slots before the King in XBoard 4.9.
    pub const COUNT: usize = 43;
}

/// Fairy slots by piece name, so that XBoard shows a fitting picture; the Grant Acedrex ones are
/// the slots Fairy-Max's fmax.ini uses for grande-acedrex.
const NAMED_SLOTS: &[(&str, usize)] = &[
    ("aanca", 17),
    ("griffon", 17),
    ("gryphon", 17),
    ("unicorn", 20),
    ("rhinoceros", 20),
    ("giraffe", 23),
    ("lion", 32),
    ("ferz", 5),
    ("met", 5),
    ("alfil", 6),
    ("elephant", 6),
    ("archbishop", 7),
    ("cardinal", 7),
    ("chancellor", 8),
    ("marshall", 8),
    ("wazir", 9),
    ("mann", 10),
    ("commoner", 10),
    ("cannon", 11),
    ("nightrider", 12),
];

/// Other slots, in order of preference. XBoard's Lion (21) is left out: it has Chu Shogi rules.
const FREE_SLOTS: &[usize] = &[
    17, 20, 23, 32, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 18, 19, 26, 27, 28, 29, 33, 34, 35, 36,
    37, 38, 39, 40, 41,
];

fn same_betza(b: &Betza, text: &str) -> bool {
    crate::betza::parse(text).is_ok_and(|n| n.to_string() == b.to_string())
}

/// The `setup` and `piece` lines XBoard needs to play an engine-defined variant (the first engine's
/// lines define the board, the start position and every piece's moves); none for variants XBoard
/// knows itself.
pub fn setup_lines(v: &Variant) -> Vec<String> {
    if XBOARD_VARIANTS.contains(&v.xboard_name.as_str()) {
        return Vec::new();
    }
    let shatranj_like = matches!(
        v.xboard_parent.as_str(),
        "shatranj" | "courier" | "makruk" | "asean"
    );
    let mut slots: Vec<Option<usize>> = vec![None; slot::COUNT];
    let mut king = None;
    let mut slot_of: Vec<Option<usize>> = vec![None; v.pieces.len()];
    // Pass 1: royal, pawn and the orthodox movers keep XBoard's own slots.
    for (i, p) in v.pieces.iter().enumerate() {
        let native = [
            (slot::KNIGHT, "N"),
            (slot::BISHOP, "B"),
            (slot::ROOK, "R"),
            (slot::QUEEN, "Q"),
        ]
        .into_iter()
        .find(|&(s, b)| slots[s].is_none() && same_betza(&p.betza, b))
        .map(|(s, _)| s);
        if p.royal && king.is_none() {
            king = Some(i);
        } else if v.promotion.pawns.contains(&p.letter) && slots[slot::PAWN].is_none() {
            slots[slot::PAWN] = Some(i);
            slot_of[i] = Some(slot::PAWN);
        } else if let Some(s) = native {
            slots[s] = Some(i);
            slot_of[i] = Some(s);
        }
    }
    // Pass 2: the rest by name, else the first free fairy slot.
    for (i, p) in v.pieces.iter().enumerate() {
        if Some(i) == king || slot_of[i].is_some() {
            continue;
        }
        let name = p.name.to_ascii_lowercase();
        let named = NAMED_SLOTS
            .iter()
            .find(|&&(n, s)| n == name && slots[s].is_none())
            .map(|&(_, s)| s);
        if let Some(s) = named.or_else(|| FREE_SLOTS.iter().copied().find(|&s| slots[s].is_none()))
        {
            slots[s] = Some(i);
            slot_of[i] = Some(s);
        }
    }
    // XBoard wants at least 5 slots before the King (a 12-character table).
    let used = slots
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |s| s + 1)
        .max(5);
    let letter = |s: &Option<usize>| s.map_or('.', |i| v.pieces[i].letter);
    let king_letter = king.map_or('.', |i| v.pieces[i].letter);
    let white: String = slots[..used]
        .iter()
        .map(letter)
        .chain([king_letter])
        .collect();
    let table = format!("{white}{}", white.to_ascii_lowercase());
    let mut lines = vec![format!(
        "setup ({table}) {}x{}+0_{} {}",
        v.files,
        v.ranks,
        v.xboard_parent,
        v.start.fen()
    )];
    for (i, p) in v.pieces.iter().enumerate() {
        // Pieces XBoard already moves right in their slot need no definition (as Fairy-Max does).
        let native = match slot_of[i] {
            Some(slot::PAWN) => Some(if shatranj_like {
                "mfWcfF"
            } else {
                "fmWfceFifmnD"
            }),
            Some(slot::KNIGHT) => Some("N"),
            Some(slot::BISHOP) => Some("B"),
            Some(slot::ROOK) => Some("R"),
            Some(slot::QUEEN) => Some("Q"),
            None if Some(i) == king && shatranj_like => Some("K"),
            _ => None,
        };
        if native.is_some_and(|n| same_betza(&p.betza, n))
            || (slot_of[i].is_none() && Some(i) != king)
        {
            continue;
        }
        match xboard_betza(&p.betza) {
            Ok(text) => lines.push(format!("piece {}& {text}", p.letter)),
            Err(e) => lines.push(format!(
                "# piece {} ({}) has no XBoard Betza: {e}",
                p.letter, p.name
            )),
        }
    }
    lines
}

fn xboard_betza(b: &Betza) -> Result<String, String> {
    crate::betza::to_xboard(b)
}
