//! CECP v2 (the XBoard/WinBoard engine protocol), as XBoard 4.9 speaks it and Fairy-Max answers it.
//!
//! One controller thread owns the game; the search runs on a worker thread so that `?`, `force`,
//! `quit` and the like are handled while the engine thinks. Commands that must not overtake the move
//! in progress (`ping`, moves, ...) wait in a queue until it has been sent; commands that change the
//! game (`force`, `new`, `setboard`, ...) abandon the search first.
//!
//! Non-standard debugging command: `fen` answers `# fen <FEN of the current position>`.
//!
//! The XBoard side of a variant (the `setup` and `piece` lines) is in [`export`].

mod export;

pub use export::setup_lines;

use super::args::{self, Arg, DEFAULT_HASH_MB};
use super::{Config, EOF_GRACE, Event, Out, Registry, earliest, printable, spawn_reader};
use crate::game::Game;
use crate::movegen::MoveError;
use crate::position::{Move, MoveKind, Position, Setup, Side};
use crate::search::{Engine, Info, Limits, Score, SearchResult};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Hash size until XBoard sends `memory`.
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
        for l in e.to_string().lines() {
            out.line(&format!("# {l}"))?;
        }
    }
    let want = config.start_hash_mb();
    let mut session = Session::new(out, tx, registry, want);
    if session.hash_mb != want {
        session.send(&format!(
            "# --hash {want}: not available, the hash table is {} MB",
            session.hash_mb
        ))?;
    }
    session.serve(rx)
}

/// Commands handled at once even while the engine thinks: they only set flags or clocks.
const IMMEDIATE: &[&str] = &[
    "time", "otim", "post", "nopost", "easy", "hard", "computer", "random", "accepted", "rejected",
    "name", "rating", "ics", "hint", "bk", "xboard", ".", "draw",
];

/// Commands that take back the engine's turn: they abandon a search at once, even one started
/// by a line queued before them (`quit` and `?` also act at once).
const URGENT: &[&str] = &["force", "new"];

/// Commands that change the game: a search in progress is abandoned (its move is not sent) first.
/// Behind queued lines they wait their turn, except the [`URGENT`] ones.
const ABANDON: &[&str] = &[
    "force", "new", "result", "undo", "remove", "setboard", "variant", "edit", "exit", "analyze",
    "white", "black", "holding",
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
    /// When the input has ended: searches must be over by then.
    eof_cap: Option<Instant>,
}

impl Session {
    fn new(out: Out, tx: Sender<Event>, registry: Registry, hash_mb: usize) -> Session {
        let game = registry.game("normal").expect("built-in chess");
        let mut engine = Engine::new(hash_mb, 1);
        if engine.hash_mb() != hash_mb {
            engine.set_hash(DEFAULT_HASH_MB);
        }
        Session {
            out,
            tx,
            registry,
            pos: Position::start(&game),
            hash_mb: engine.hash_mb(),
            engine: Some(engine),
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
            eof_cap: None,
        }
    }

    fn send(&self, line: &str) -> io::Result<()> {
        self.out.line(line)
    }

    /// The event loop: GUI lines, finished searches, and the controller's own deadline.
    fn serve(&mut self, rx: Receiver<Event>) -> io::Result<()> {
        let mut eof = false;
        loop {
            self.drain()?;
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
                Event::Eof if !eof => {
                    eof = true;
                    // Nobody is left to stop a search: a move search may go on for a while (a
                    // script piped in wants its move), an analysis would never end.
                    self.eof_cap = Some(Instant::now() + EOF_GRACE);
                    if self
                        .search
                        .as_ref()
                        .is_some_and(|s| s.kind == Kind::Analyze)
                    {
                        self.abandon();
                    }
                    let cap = self.eof_cap;
                    if let Some(s) = &mut self.search {
                        s.deadline = earliest(s.deadline, cap);
                    }
                }
                Event::Eof => {}
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

    /// Runs the queued lines while no search runs. A search that a queued line starts is
    /// abandoned at once when an [`URGENT`] line waits behind it.
    fn drain(&mut self) -> io::Result<()> {
        while !self.quit {
            if self.search.is_some() {
                if self.pending.iter().any(|l| URGENT.contains(&first_word(l))) {
                    self.abandon();
                } else {
                    break;
                }
            }
            let Some(line) = self.pending.pop_front() else {
                break;
            };
            self.command(&line)?;
        }
        Ok(())
    }

    /// A line from the GUI during a search: run it now, queue it behind the move in progress, or
    /// abandon the search. `quit`, `?` and the [`URGENT`] commands act at once, even behind queued
    /// lines (which keep their order).
    fn arrived(&mut self, line: String) -> io::Result<()> {
        let Some(kind) = self.search.as_ref().map(|s| s.kind) else {
            return self.command(&line);
        };
        let word = first_word(&line);
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
                } else if URGENT.contains(&word)
                    || (self.pending.is_empty() && ABANDON.contains(&word))
                {
                    self.abandon();
                    self.pending.push_back(line);
                    Ok(())
                } else if !self.pending.is_empty() {
                    // Keep the GUI's order behind a queued command such as `ping`.
                    self.pending.push_back(line);
                    Ok(())
                } else if IMMEDIATE.contains(&word) {
                    self.command(&line)
                } else {
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
        // `quit` and `ping` are no edit commands: they keep their meaning in edit mode.
        if self.edit.is_some() && word != "quit" && word != "ping" {
            return self.edit_line(line);
        }
        match word {
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "hint" | "bk" | "easy" | "hard" | "." | "draw" => Ok(()),
            "protover" => self.features(),
            "new" => {
                if let Some(chess) = self.registry.game("normal") {
                    self.set_variant(&chess, false)?;
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
            "variant" => match self.registry.game(rest) {
                Some(g) => self.set_variant(&g, true),
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
            "st" => {
                if let Some(t) = self.bounded(args::seconds(rest, true), line, |t| {
                    format!("{}", t.as_secs())
                })? {
                    self.clock.per_move = Some(t);
                }
                Ok(())
            }
            "sd" => {
                let arg = args::count(rest, 1, args::MAX_DEPTH);
                if let Some(d) = self.bounded(arg, line, |d| d.to_string())? {
                    self.depth = Some(d);
                }
                Ok(())
            }
            "time" | "otim" => {
                let arg = args::clock(rest, Duration::from_millis(10));
                if let Some(t) = self.bounded(arg, line, |t| (t.as_millis() / 10).to_string())? {
                    if word == "time" {
                        self.clock.own = Some(t);
                    } else {
                        self.clock.opp = Some(t);
                    }
                }
                Ok(())
            }
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
            "ping" => self.send(&format!("pong {}", printable(rest))),
            "result" => {
                // The game is over: no more thinking until told to.
                self.force = true;
                Ok(())
            }
            "memory" => {
                let arg = args::count(rest, 1, args::MAX_HASH_MB);
                if let Some(mb) = self.bounded(arg, line, |mb| mb.to_string())? {
                    self.set_hash(mb)?;
                }
                Ok(())
            }
            "cores" => {
                let arg = args::count(rest, 1, args::MAX_THREADS);
                if let Some(n) = self.bounded(arg, line, |n| n.to_string())? {
                    self.threads = n;
                    if let Some(e) = &mut self.engine {
                        e.set_threads(n);
                    }
                }
                Ok(())
            }
            "option" => self.option(rest, line),
            // Nothing to stop: `?` only matters while thinking.
            "?" => Ok(()),
            "quit" => {
                self.quit = true;
                Ok(())
            }
            "fen" => self.send(&format!("# fen {}", self.pos.fen())),
            "holding" => self.holding(rest, line),
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
    fn set_variant(&mut self, game: &Arc<Game>, announce: bool) -> io::Result<()> {
        let v = &game.variant;
        self.pos = Position::start(game);
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
                    for l in e.to_string().lines() {
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

    /// `level MPS BASE INC`: BASE in minutes or `minutes:seconds`, INC in seconds.
    fn level(&mut self, rest: &str, line: &str) -> io::Result<()> {
        let parts: Vec<&str> = rest.split_whitespace().collect();
        let [mps, base, inc] = parts.as_slice() else {
            return self.bad_argument(line);
        };
        let mps = args::count(mps, 0, args::MAX_MOVES_TO_GO);
        let (minutes, secs) = base.split_once(':').unwrap_or((base, "0"));
        let minutes = args::clock(minutes, Duration::from_secs(60));
        let secs = args::clock(secs, Duration::from_secs(1));
        let inc = args::seconds(inc, false);
        let (Some(m), Some(b1), Some(b2), Some(i)) =
            (mps.value(), minutes.value(), secs.value(), inc.value())
        else {
            return self.bad_argument(line);
        };
        // A negative number of minutes or seconds is no clock.
        if base.contains('-') {
            return self.bad_argument(line);
        }
        let base = (b1 + b2).min(args::MAX_TIME);
        let clamped = mps.is_clamped()
            || minutes.is_clamped()
            || secs.is_clamped()
            || inc.is_clamped()
            || base == args::MAX_TIME;
        if clamped {
            self.send(&format!(
                "# {}: out of range, using level {m} {}:{:02} {}",
                printable(line),
                base.as_secs() / 60,
                base.as_secs() % 60,
                i.as_secs_f64()
            ))?;
        }
        self.clock = Clock {
            mps: m,
            base,
            inc: i,
            per_move: None,
            own: None,
            opp: None,
        };
        Ok(())
    }

    fn bad_argument(&self, line: &str) -> io::Result<()> {
        self.send(&format!("Error (bad argument): {}", printable(line)))
    }

    /// A bounded argument's value: refused with XBoard's error reply, or clamped with a note.
    fn bounded<T: Copy>(
        &self,
        arg: Arg<T>,
        line: &str,
        shown: impl Fn(T) -> String,
    ) -> io::Result<Option<T>> {
        match arg {
            Arg::Ok(v) => Ok(Some(v)),
            Arg::Clamped(v) => {
                self.send(&format!(
                    "# {}: out of range, using {}",
                    printable(line),
                    shown(v)
                ))?;
                Ok(Some(v))
            }
            Arg::Bad => self.bad_argument(line).map(|()| None),
        }
    }

    /// Resizes the hash table; when the memory cannot be had, the old table stays (and XBoard is
    /// told so).
    fn set_hash(&mut self, mb: usize) -> io::Result<()> {
        let Some(e) = &mut self.engine else {
            self.hash_mb = mb;
            return Ok(());
        };
        self.hash_mb = e.set_hash(mb);
        if self.hash_mb != mb {
            self.send(&format!(
                "# memory {mb}: not available, the hash table stays at {} MB",
                self.hash_mb
            ))?;
        }
        Ok(())
    }

    /// A move from the GUI; in play (not force, not analysing) the engine then claims a finished
    /// game or starts thinking when it is its turn.
    fn user_move(&mut self, text: &str) -> io::Result<()> {
        if text.is_empty() {
            return self.send("Error (no move given): usermove");
        }
        let text = &gui_ranks(&self.pos, text, 1);
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

    /// `holding [PNB] [pq]`: what each side holds (bughouse). A trailing `COLOR PIECE` (the piece
    /// just passed) is informational: the brackets already count it.
    fn holding(&mut self, rest: &str, line: &str) -> io::Result<()> {
        let game = self.pos.game().clone();
        let parsed = (|| {
            let (white, rest) = rest.strip_prefix('[')?.split_once(']')?;
            let (black, _) = rest.trim_start().strip_prefix('[')?.split_once(']')?;
            let mut counts = [[0u8; crate::piece::Kind::MAX]; 2];
            for (side, letters) in [(0, white), (1, black)] {
                for c in letters.chars() {
                    let k = game.variant.piece_index(c.to_ascii_uppercase())?;
                    if game.tables.pieces[k].royal {
                        return None;
                    }
                    counts[side][k] = counts[side][k].checked_add(1)?;
                }
            }
            Some(counts)
        })();
        match parsed {
            _ if !game.tables.hand.on => self.send(&format!(
                "Error (this variant has no hands): {}",
                printable(line)
            )),
            None => self.send(&format!(
                "Error (expected holding [PIECES] [pieces]): {}",
                printable(line)
            )),
            Some(counts) => {
                for side in Side::BOTH {
                    let held = counts[side.index()].iter().take(game.tables.pieces.len());
                    for (k, &n) in held.enumerate() {
                        self.pos.set_in_hand(side, crate::piece::Kind(k as u8), n);
                    }
                }
                Ok(())
            }
        }
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
        let deadline = earliest(deadline, self.eof_cap);
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
                let _ = self.send("# the search failed; playing on with a fresh engine");
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
                let text = gui_move(&self.pos, m);
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

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// A move as XBoard reads it: Chess960 castling as `O-O` / `O-O-O` (XBoard's FischerRandom
/// castling; the side is the partner's, the king may not move at all), else coordinates.
pub fn gui_move(pos: &Position, m: Move) -> String {
    if m.kind() == MoveKind::Castle && pos.game().tables.castle_any.is_some() {
        return if m.extra() > m.from { "O-O" } else { "O-O-O" }.to_string();
    }
    gui_ranks(pos, &pos.move_text(m), -1)
}

/// XBoard numbers the ranks of a 10-rank board from 0 (xiangqi's `a0`..`i9`): moves to and from the
/// GUI have their rank numbers shifted by `by` there, and are left as they are on other boards.
fn gui_ranks(pos: &Position, text: &str, by: i32) -> String {
    if pos.game().tables.ranks != 10 {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut digits = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            match digits.parse::<i32>() {
                Ok(n) => out.push_str(&(n + by).to_string()),
                Err(_) => out.push_str(&digits),
            }
            digits.clear();
        }
        out.push(c);
    }
    out.pop();
    out
}

/// Whether a word is meant as a move (`e2e4`, `a11a12r`, `P@e4`, `+P@e4`), so that a bad one gets `Illegal move`
/// rather than `Error (unknown command)`.
fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    word.starts_with("O-O")
        || word.starts_with("0-0")
        || word == "@@@@"
        || (b.len() >= 4 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit())
        || (b.len() >= 4 && b[0].is_ascii_alphabetic() && b[1] == b'@')
        || (b.len() >= 5 && b[0] == b'+' && b[2] == b'@')
}

/// Parses a GUI move. A promotion letter that names no piece of the variant (XBoard's default `q`
/// in a variant without queens) is ignored when the promotion is forced anyway.
fn parse_move(pos: &mut Position, text: &str) -> Result<Move, &'static str> {
    let reason = |e: &MoveError| match e {
        MoveError::Syntax(_) => "unparsable",
        MoveError::Illegal(_) => "not legal here",
        MoveError::Ambiguous(..) => "promotion piece missing",
    };
    let castle = match text.trim_end_matches(['+', '#']) {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(king_side) = castle {
        return pos
            .legal_moves()
            .into_iter()
            .find(|m| m.kind() == MoveKind::Castle && (m.extra() > m.from) == king_side)
            .ok_or("not legal here");
    }
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
    let pv: Vec<String> = info.pv.iter().map(|&m| gui_move(pos, m)).collect();
    format!(
        "{} {} {} {} {}",
        info.depth,
        score,
        info.time.as_millis() / 10,
        info.nodes,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::SharedBuf;

    fn session() -> (Session, SharedBuf, Receiver<Event>) {
        let buf = SharedBuf::default();
        let (tx, rx) = mpsc::channel();
        let s = Session::new(
            Out::new(buf.clone()),
            tx,
            Registry::builtin(),
            DEFAULT_HASH_MB,
        );
        (s, buf, rx)
    }

    /// Runs the session's search to its end, as the event loop does.
    fn wait_for_move(s: &mut Session, rx: &Receiver<Event>) {
        while s.search.is_some() {
            if let Ok(Event::Done(id)) = rx.recv()
                && s.search.as_ref().is_some_and(|r| r.id == id)
            {
                s.finish().unwrap();
            }
        }
    }

    #[test]
    fn a_panicking_search_still_moves_and_leaves_a_fresh_engine() {
        let (mut s, buf, rx) = session();
        // A search thread that panics, as a search bug would.
        s.engine = None;
        s.search = Some(Running {
            id: 0,
            kind: Kind::Move,
            stop: Arc::default(),
            handle: std::thread::spawn(|| -> (Engine, SearchResult) { panic!("a search bug") }),
            deadline: None,
        });
        s.next_id = 1;
        s.finish().unwrap();
        let out = buf.text();
        let mv = out
            .lines()
            .find_map(|l| l.strip_prefix("move "))
            .unwrap_or_else(|| panic!("no move: {out}"));
        let game = Registry::builtin().game("chess").unwrap();
        assert!(Position::start(&game).parse_move(mv).is_ok(), "{out}");
        assert!(out.contains("# the search failed"), "{out}");
        assert!(s.engine.is_some());
        // The session plays on: the next search runs on the fresh engine.
        for line in ["sd 1", "go", "ping 1"] {
            s.arrived(line.to_string()).unwrap();
        }
        wait_for_move(&mut s, &rx);
        s.drain().unwrap();
        let out = buf.text();
        let moves = out.lines().filter(|l| l.starts_with("move ")).count();
        assert_eq!(moves, 2, "{out}");
        assert!(out.ends_with("pong 1\n"), "{out}");
    }

    #[test]
    fn a_search_started_from_the_queue_is_abandoned_for_a_queued_force() {
        let (mut s, buf, _rx) = session();
        s.command("st 100000").unwrap();
        s.command("force").unwrap();
        for line in ["go", "ping 1", "force", "ping 2"] {
            s.pending.push_back(line.to_string());
        }
        s.drain().unwrap();
        assert!(s.search.is_none());
        assert_eq!(buf.text(), "pong 1\npong 2\n");
    }
}
