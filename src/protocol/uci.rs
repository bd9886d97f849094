//! UCI, with Fairy-Stockfish's variant extensions (`UCI_Variant`, `VariantPath`) so that GUIs such
//! as Cute Chess can pick any acedrex variant.
//!
//! As in the XBoard front end, one controller thread owns the position and the search runs on a
//! worker thread; `stop`, `isready` and `quit` are answered while it runs. `go perft N` runs on a
//! worker thread too and prints Fairy-Stockfish's divide format; the lines that arrive meanwhile
//! wait for it, except `stop` (which ends it without totals) and `quit`.
//!
//! The default variant is chess: UCI GUIs send `UCI_Variant` only for variants other than standard
//! chess (Cute Chess, python-chess), so any other default would break them on plain chess.
//!
//! Non-standard debugging command: `fen` answers `info string fen <FEN of the current position>`.

use super::args::{self, Arg, DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};
use super::{Config, EOF_GRACE, Event, Out, Registry, printable, spawn_reader};
use crate::eval::EvalTables;
use crate::movegen::perft;
use crate::position::{Move, Position};
use crate::search::{Engine, Info, Limits, SearchResult};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const DEFAULT_VARIANT: &str = "chess";

/// UCI, or its shogi dialect USI: the same session, other text for squares, moves and positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Usi,
}

impl Dialect {
    /// The variant a session starts in: chess for UCI GUIs, shogi for USI ones.
    fn default_variant(self) -> &'static str {
        match self {
            Dialect::Uci => DEFAULT_VARIANT,
            Dialect::Usi => "shogi",
        }
    }

    fn move_text(self, pos: &Position, m: Move) -> String {
        match self {
            Dialect::Uci => pos.move_text(m),
            Dialect::Usi => super::usi::move_text(pos, m),
        }
    }

    fn parse_move(self, pos: &mut Position, text: &str) -> Result<Move, String> {
        match self {
            Dialect::Uci => pos.parse_move(text).map_err(|e| e.to_string()),
            Dialect::Usi => {
                let t = &pos.game().tables;
                let own = super::usi::to_acedrex(text, t.files, t.ranks).ok_or_else(|| {
                    format!("`{text}` is not a USI move (expected e.g. 7g7f, 8h2b+ or P*5e)")
                })?;
                // Errors name the move as the GUI wrote it.
                pos.parse_move(&own).map_err(|e| {
                    e.to_string()
                        .replace(&format!("`{own}`"), &format!("`{text}`"))
                })
            }
        }
    }
}
/// Subtrees of this many plies are counted without looking at `stop` (a fraction of a second).
const PERFT_UNSTOPPABLE: u32 = 3;

/// Runs UCI on `input`/`output` until `quit` or end of input, with the built-in variants.
pub fn run<R, W>(input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    run_with(input, output, &Config::default())
}

/// Runs UCI with extra variant files and a start variant from `config`.
pub fn run_with<R, W>(input: R, output: W, config: &Config) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    run_dialect(input, output, config, Dialect::Uci)
}

/// Runs UCI or USI with the settings of `config`.
pub fn run_dialect<R, W>(input: R, output: W, config: &Config, dialect: Dialect) -> io::Result<()>
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
            out.line(&format!("info string error {}", printable(l)))?;
        }
    }
    let want = config.start_hash_mb();
    let mut session = Session::new(out, tx, registry, want, dialect);
    if session.hash_mb != want {
        session.error(&format!(
            "--hash {want}: not available, the table is {} MB",
            session.hash_mb
        ))?;
    }
    if let Some(v) = &config.variant
        && !session.set_variant(v)?
    {
        session.set_variant(dialect.default_variant())?;
    }
    session.serve(rx)
}

struct Running {
    id: u64,
    stop: Arc<AtomicBool>,
    handle: JoinHandle<(Engine, SearchResult)>,
    infinite: bool,
    /// The searched position (the GUI may send `position` before the answer comes).
    root: Position,
    /// `go ponder`: the limits to search with once `ponderhit` arrives.
    ponder: Option<Limits>,
    /// When the controller stops the search (only once the input has ended).
    deadline: Option<Instant>,
}

/// A `go perft` in progress: the counts per root move, or `None` when stopped.
struct Perft {
    id: u64,
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Option<Vec<(String, u64)>>>,
    deadline: Option<Instant>,
}

struct Session {
    dialect: Dialect,
    out: Out,
    tx: Sender<Event>,
    registry: Registry,
    variant: String,
    /// `UCI_Chess960`: castling as in Chess960 in whatever variant is chosen.
    chess960: bool,
    pos: Position,
    /// Present whenever no search is running.
    engine: Option<Engine>,
    hash_mb: usize,
    threads: usize,
    /// `ucinewgame` during a search: clear the table once the engine is back.
    clear_pending: bool,
    search: Option<Running>,
    perft: Option<Perft>,
    /// Lines that wait for the perft in progress.
    pending: VecDeque<String>,
    next_id: u64,
    quit: bool,
    /// When the input has ended: searches must be over by then.
    eof_cap: Option<Instant>,
}

impl Session {
    fn new(
        out: Out,
        tx: Sender<Event>,
        registry: Registry,
        hash_mb: usize,
        dialect: Dialect,
    ) -> Session {
        let game = registry
            .game(dialect.default_variant())
            .expect("a built-in default variant");
        let mut engine = Engine::new(hash_mb, 1);
        if engine.hash_mb() != hash_mb {
            engine.set_hash(DEFAULT_HASH_MB);
        }
        Session {
            dialect,
            out,
            tx,
            registry,
            variant: game.variant.name.clone(),
            chess960: false,
            pos: Position::start(&game),
            hash_mb: engine.hash_mb(),
            engine: Some(engine),
            threads: 1,
            clear_pending: false,
            search: None,
            perft: None,
            pending: VecDeque::new(),
            next_id: 0,
            quit: false,
            eof_cap: None,
        }
    }

    fn send(&self, line: &str) -> io::Result<()> {
        self.out.line(line)
    }

    fn error(&self, msg: &str) -> io::Result<()> {
        self.send(&format!("info string error {msg}"))
    }

    fn serve(&mut self, rx: Receiver<Event>) -> io::Result<()> {
        let mut eof = false;
        while !self.quit {
            while self.perft.is_none() && !self.quit {
                let Some(line) = self.pending.pop_front() else {
                    break;
                };
                self.command(&line)?;
            }
            if self.quit || (eof && self.search.is_none() && self.perft.is_none()) {
                break;
            }
            let deadline = super::earliest(
                self.search.as_ref().and_then(|s| s.deadline),
                self.perft.as_ref().and_then(|p| p.deadline),
            );
            let event = match deadline {
                Some(d) => match rx.recv_timeout(d.saturating_duration_since(Instant::now())) {
                    Ok(e) => e,
                    Err(RecvTimeoutError::Timeout) => {
                        self.stop();
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
                    // Nobody will send `stop` any more: an infinite or ponder search stops now,
                    // anything else within the grace time.
                    let cap = Instant::now() + EOF_GRACE;
                    self.eof_cap = Some(cap);
                    if let Some(s) = &mut self.search {
                        let now = (s.infinite || s.ponder.is_some()).then(Instant::now);
                        s.deadline = super::earliest(now, Some(cap));
                    }
                    if let Some(p) = &mut self.perft {
                        p.deadline = Some(cap);
                    }
                }
                Event::Eof => {}
                Event::Done(id) => {
                    if self.search.as_ref().is_some_and(|s| s.id == id) {
                        self.finish()?;
                    }
                    if self.perft.as_ref().is_some_and(|p| p.id == id) {
                        self.finish_perft()?;
                    }
                }
            }
        }
        if let Some(r) = self.search.take() {
            r.stop.store(true, Ordering::SeqCst);
            self.join(r);
        }
        if let Some(p) = self.perft.take() {
            p.stop.store(true, Ordering::SeqCst);
            let _ = p.handle.join();
        }
        Ok(())
    }

    /// A line from the GUI. While a perft runs, `stop` and `quit` act at once and the rest waits.
    fn arrived(&mut self, line: String) -> io::Result<()> {
        if self.perft.is_none() {
            return self.command(&line);
        }
        match line.split_whitespace().next().unwrap_or("") {
            "quit" => self.quit = true,
            "stop" => self.stop(),
            _ => self.pending.push_back(line),
        }
        Ok(())
    }

    /// `stop`: a search answers with its best move (a ponder search too), a perft ends without
    /// totals.
    fn stop(&mut self) {
        if let Some(s) = &mut self.search {
            s.ponder = None;
            s.deadline = None;
            s.stop.store(true, Ordering::SeqCst);
        }
        if let Some(p) = &mut self.perft {
            p.deadline = None;
            p.stop.store(true, Ordering::SeqCst);
        }
    }

    fn command(&mut self, line: &str) -> io::Result<()> {
        let line = line.trim();
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word {
            "" | "debug" | "register" => Ok(()),
            "uci" => {
                self.dialect = Dialect::Uci;
                self.identify()
            }
            "usi" => {
                // A shogi GUI: USI text, and shogi unless a variant was chosen already.
                if self.dialect != Dialect::Usi {
                    self.dialect = Dialect::Usi;
                    if self.variant == DEFAULT_VARIANT {
                        self.set_variant(Dialect::Usi.default_variant())?;
                    }
                }
                self.identify()
            }
            "isready" => self.send("readyok"),
            "ucinewgame" | "usinewgame" => {
                match &mut self.engine {
                    Some(e) => e.clear(),
                    None => self.clear_pending = true,
                }
                Ok(())
            }
            "setoption" => self.set_option(rest),
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => {
                self.stop();
                Ok(())
            }
            "ponderhit" => self.ponder_hit(),
            "quit" => {
                self.quit = true;
                Ok(())
            }
            "fen" => self.send(&format!("info string fen {}", self.pos.fen())),
            // The static evaluation of the current position term by term, as info strings.
            "eval" => {
                let trace = EvalTables::new(self.pos.game()).trace(&self.pos);
                for l in trace.to_string().lines() {
                    self.send(&format!("info string {l}"))?;
                }
                Ok(())
            }
            // USI's result notice: nothing to do.
            "gameover" => Ok(()),
            _ => self.error(&format!("unknown command: {}", printable(line))),
        }
    }

    fn identify(&self) -> io::Result<()> {
        self.send(&format!("id name acedrex {}", env!("CARGO_PKG_VERSION")))?;
        self.send("id author the acedrex authors")?;
        self.send(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ))?;
        self.send(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ))?;
        self.send(&self.variant_option())?;
        self.send("option name UCI_Chess960 type check default false")?;
        self.send("option name VariantPath type string default <empty>")?;
        self.send(match self.dialect {
            Dialect::Uci => "uciok",
            Dialect::Usi => "usiok",
        })
    }

    fn variant_option(&self) -> String {
        let vars: String = self
            .registry
            .names()
            .iter()
            .map(|n| format!(" var {n}"))
            .collect();
        format!(
            "option name UCI_Variant type combo default {}{vars}",
            self.dialect.default_variant()
        )
    }

    /// `setoption name <id> [value <x>]`; names are matched without regard to case.
    fn set_option(&mut self, rest: &str) -> io::Result<()> {
        let Some(body) = rest.strip_prefix("name") else {
            return self.error(&format!("setoption without name: {rest}"));
        };
        let (name, value) = match body.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (body.trim().trim_end_matches(" value").trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => match args::count(value, 1, MAX_HASH_MB) {
                Arg::Bad => self.error(&format!(
                    "Hash must be 1..{MAX_HASH_MB}: {}",
                    printable(value)
                )),
                arg => {
                    if arg.is_clamped() {
                        self.send(&format!(
                            "info string Hash {} is out of range, using {MAX_HASH_MB}",
                            printable(value)
                        ))?;
                    }
                    self.set_hash(arg.value().unwrap_or(DEFAULT_HASH_MB))
                }
            },
            "threads" => match args::count(value, 1, MAX_THREADS) {
                Arg::Bad => self.error(&format!(
                    "Threads must be 1..{MAX_THREADS}: {}",
                    printable(value)
                )),
                arg => {
                    if arg.is_clamped() {
                        self.send(&format!(
                            "info string Threads {} is out of range, using {MAX_THREADS}",
                            printable(value)
                        ))?;
                    }
                    self.threads = arg.value().unwrap_or(1);
                    if let Some(e) = &mut self.engine {
                        e.set_threads(self.threads);
                    }
                    Ok(())
                }
            },
            "uci_variant" => {
                if !self.set_variant(value)? {
                    self.error(&format!("unknown variant {}", printable(value)))?;
                }
                Ok(())
            }
            "uci_chess960" => match value.to_ascii_lowercase().as_str() {
                v @ ("true" | "false") => {
                    self.chess960 = v == "true";
                    let name = self.variant.clone();
                    self.set_variant(&name).map(|_| ())
                }
                _ => self.error(&format!(
                    "UCI_Chess960 must be true or false: {}",
                    printable(value)
                )),
            },
            "variantpath" if value.is_empty() || value == "<empty>" => Ok(()),
            "variantpath" => match self.registry.load_path(value) {
                Ok(names) => {
                    self.send(&format!("info string loaded variants {}", names.join(" ")))?;
                    self.send(&format!("info string {}", self.variant_option()))
                }
                Err(e) => e.to_string().lines().try_for_each(|l| self.error(l)),
            },
            _ => self.error(&format!("unknown option {}", printable(name))),
        }
    }

    /// Resizes the hash table now, or when the engine is back from its search; when the memory
    /// cannot be had, the old table stays (and the GUI is told so).
    fn set_hash(&mut self, mb: usize) -> io::Result<()> {
        let Some(e) = &mut self.engine else {
            self.hash_mb = mb;
            return Ok(());
        };
        self.hash_mb = e.set_hash(mb);
        if self.hash_mb != mb {
            self.error(&format!(
                "Hash {mb}: not available, the table stays at {} MB",
                self.hash_mb
            ))?;
        }
        Ok(())
    }

    /// Switches to a variant's start position; false if the name is unknown.
    fn set_variant(&mut self, name: &str) -> io::Result<bool> {
        let Some(mut game) = self.registry.game(name) else {
            return Ok(false);
        };
        if self.chess960 && !game.variant.castling.any_file {
            // The same variant with Chess960 castling: what GUIs mean by UCI_Chess960.
            let mut v = game.variant.clone();
            v.castling.any_file = true;
            game = crate::game::Game::new(v);
        }
        self.variant = game.variant.name.clone();
        self.pos = Position::start(&game);
        Ok(true)
    }

    /// `position startpos|fen FEN [moves ...]`; on any error the position stays as it was.
    fn position(&mut self, rest: &str) -> io::Result<()> {
        let (setup, moves) = match rest.split_once(" moves") {
            Some((s, m)) => (s.trim(), m.trim()),
            None => (rest.trim(), ""),
        };
        let game = self.pos.game().clone();
        let start = if setup == "startpos" {
            Ok(Position::start(&game))
        } else if let Some(fen) = setup.strip_prefix("fen ") {
            Position::from_fen(&game, fen).map_err(|e| e.to_string())
        } else if let Some(sfen) = setup.strip_prefix("sfen ") {
            super::usi::sfen_to_fen(sfen)
                .map_err(|e| e.to_string())
                .and_then(|fen| Position::from_fen(&game, &fen).map_err(|e| e.to_string()))
        } else {
            Err(format!(
                "expected `startpos`, `fen FEN` or `sfen SFEN`: position {rest}"
            ))
        };
        let mut pos = match start {
            Ok(p) => p,
            Err(e) => return self.error(&e),
        };
        for text in moves.split_whitespace() {
            match self.dialect.parse_move(&mut pos, text) {
                Ok(m) => pos.make(m),
                Err(e) => return self.error(&format!("position command: {e}")),
            }
        }
        self.pos = pos;
        Ok(())
    }

    fn go(&mut self, rest: &str) -> io::Result<()> {
        // A `go` while searching: the old search answers first, as the GUI expects one reply each.
        if let Some(mut r) = self.search.take() {
            r.ponder = None;
            r.stop.store(true, Ordering::SeqCst);
            self.search = Some(r);
            self.finish()?;
        }
        let mut limits = Limits::default();
        let mut ponder = false;
        let mut tokens = rest.split_whitespace().peekable();
        let ms = Duration::from_millis(1);
        let usi = self.dialect == Dialect::Usi;
        while let Some(key) = tokens.next() {
            // USI's `btime` is the first player's clock, acedrex's White; `byoyomi` is a
            // per-move allowance after the main time, taken here as both sides' increment.
            let key = match (usi, key) {
                (true, "btime") => "wtime",
                (true, "wtime") => "btime",
                (true, "binc") => "winc",
                (true, "winc") => "binc",
                _ => key,
            };
            if usi && key == "byoyomi" {
                if let Some(d) = self.go_arg(key, args::clock(tokens.next().unwrap_or(""), ms))? {
                    limits.winc = Some(limits.winc.unwrap_or_default() + d);
                    limits.binc = Some(limits.binc.unwrap_or_default() + d);
                }
                continue;
            }
            let ok = match key {
                "wtime" => self
                    .go_arg(key, args::clock(tokens.next().unwrap_or(""), ms))?
                    .map(|d| limits.wtime = Some(d)),
                "btime" => self
                    .go_arg(key, args::clock(tokens.next().unwrap_or(""), ms))?
                    .map(|d| limits.btime = Some(d)),
                "winc" => self
                    .go_arg(key, args::clock(tokens.next().unwrap_or(""), ms))?
                    .map(|d| limits.winc = Some(d)),
                "binc" => self
                    .go_arg(key, args::clock(tokens.next().unwrap_or(""), ms))?
                    .map(|d| limits.binc = Some(d)),
                "movetime" => self
                    .go_arg(key, args::clock(tokens.next().unwrap_or(""), ms))?
                    .map(|d| limits.movetime = Some(d)),
                "movestogo" => self
                    .go_arg(
                        key,
                        args::count(tokens.next().unwrap_or(""), 0, args::MAX_MOVES_TO_GO),
                    )?
                    .map(|n| limits.movestogo = Some(n)),
                "depth" => self
                    .go_arg(
                        key,
                        args::count(tokens.next().unwrap_or(""), 0, args::MAX_DEPTH),
                    )?
                    .map(|n| limits.depth = Some(n.max(1))),
                "nodes" => self
                    .go_arg(key, args::count(tokens.next().unwrap_or(""), 0, u64::MAX))?
                    .map(|n| limits.nodes = Some(n)),
                // Mate in N moves needs at most 2N-1 plies.
                "mate" => self
                    .go_arg(
                        key,
                        args::count(tokens.next().unwrap_or(""), 0, args::MAX_DEPTH / 2),
                    )?
                    .map(|n| limits.depth = Some(2 * n.max(1))),
                "infinite" => {
                    limits.infinite = true;
                    Some(())
                }
                "ponder" => {
                    ponder = true;
                    Some(())
                }
                "searchmoves" => {
                    while tokens.peek().is_some_and(|t| looks_like_move(t)) {
                        tokens.next();
                    }
                    Some(())
                }
                "perft" => {
                    return match self.go_arg(
                        key,
                        args::count(tokens.next().unwrap_or(""), 1, args::MAX_DEPTH),
                    )? {
                        Some(d) => {
                            self.start_perft(d);
                            Ok(())
                        }
                        None => {
                            self.error(&format!("go perft needs a depth: go {}", printable(rest)))
                        }
                    };
                }
                _ => None,
            };
            if ok.is_none() {
                self.error(&format!(
                    "bad go argument `{}`: go {}",
                    printable(key),
                    printable(rest)
                ))?;
            }
        }
        // Plain `go` searches until `stop`, as in Stockfish.
        if limits.is_unlimited() {
            limits.infinite = true;
        }
        let ponder_limits = ponder.then(|| limits.clone());
        if ponder {
            limits = Limits {
                infinite: true,
                ..Limits::default()
            };
        }
        self.start(limits, ponder_limits);
        Ok(())
    }

    /// A `go` argument: refused (the caller complains), or clamped with a note.
    fn go_arg<T: Copy + std::fmt::Debug>(&self, key: &str, arg: Arg<T>) -> io::Result<Option<T>> {
        if let Arg::Clamped(v) = arg {
            self.send(&format!("info string go {key}: out of range, using {v:?}"))?;
        }
        Ok(arg.value())
    }

    fn start(&mut self, limits: Limits, ponder: Option<Limits>) {
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        let pos = self.pos.clone();
        let root = pos.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let id = self.next_id;
        self.next_id += 1;
        let (out, tx, stop2, infinite) = (
            self.out.clone(),
            self.tx.clone(),
            stop.clone(),
            limits.infinite,
        );
        // After the end of input: no `stop` will come.
        let deadline = self.eof_cap.map(|cap| {
            if infinite || ponder.is_some() {
                Instant::now()
            } else {
                cap
            }
        });
        let dialect = self.dialect;
        let handle = std::thread::spawn(move || {
            let mut on_info = |info: &crate::search::Info| {
                let _ = out.line(&dialect_info_line(&pos, info, dialect));
            };
            let result = engine.search(&pos, &limits, &stop2, &mut on_info);
            let _ = tx.send(Event::Done(id));
            (engine, result)
        });
        self.search = Some(Running {
            id,
            stop,
            handle,
            infinite,
            root,
            ponder,
            deadline,
        });
    }

    fn join(&mut self, r: Running) -> Option<SearchResult> {
        let (mut engine, result) = match r.handle.join() {
            Ok((e, res)) => (e, Some(res)),
            Err(_) => {
                let _ = self.error("the search failed; playing on with a fresh engine");
                (Engine::new(self.hash_mb, self.threads), None)
            }
        };
        self.hash_mb = engine.set_hash(self.hash_mb);
        engine.set_threads(self.threads);
        if std::mem::take(&mut self.clear_pending) {
            engine.clear();
        }
        self.engine = Some(engine);
        result
    }

    /// The opponent played the expected move: search it for real with the `go ponder` limits.
    fn ponder_hit(&mut self) -> io::Result<()> {
        let Some(r) = self.search.take() else {
            return Ok(());
        };
        let Some(limits) = r.ponder.clone() else {
            self.search = Some(r);
            return Ok(());
        };
        r.stop.store(true, Ordering::SeqCst);
        self.join(r);
        self.start(limits, None);
        Ok(())
    }

    /// A search ended: `bestmove` (after `stop` or its limits); a ponder search only answers after
    /// `ponderhit` or `stop`.
    fn finish(&mut self) -> io::Result<()> {
        let Some(mut r) = self.search.take() else {
            return Ok(());
        };
        let mut root = std::mem::replace(&mut r.root, self.pos.clone());
        let result = self.join(r);
        let legal = root.legal_moves();
        let best = result
            .as_ref()
            .and_then(|r| r.best)
            .filter(|m| legal.contains(m))
            .or_else(|| legal.first().copied());
        match best {
            Some(m) => {
                let ponder = result
                    .as_ref()
                    .filter(|r| r.best == Some(m))
                    .and_then(|r| r.ponder);
                let mut line = format!("bestmove {}", self.dialect.move_text(&root, m));
                if let Some(p) = ponder {
                    root.make(m);
                    if root.legal_moves().contains(&p) {
                        line += &format!(" ponder {}", self.dialect.move_text(&root, p));
                    }
                }
                self.send(&line)
            }
            None => self.send(match self.dialect {
                Dialect::Uci => "bestmove (none)",
                Dialect::Usi => "bestmove resign",
            }),
        }
    }

    /// Starts `go perft` on its own thread, so that `stop` and `quit` are heard meanwhile.
    fn start_perft(&mut self, depth: u32) {
        let mut pos = self.pos.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let id = self.next_id;
        self.next_id += 1;
        let (tx, stop2) = (self.tx.clone(), stop.clone());
        let dialect = self.dialect;
        let handle = std::thread::spawn(move || {
            let rows = divide(&mut pos, depth, &stop2).map(|rows| {
                rows.into_iter()
                    .map(|(m, n)| (dialect.move_text(&pos, m), n))
                    .collect()
            });
            let _ = tx.send(Event::Done(id));
            rows
        });
        self.perft = Some(Perft {
            id,
            stop,
            handle,
            deadline: self.eof_cap,
        });
    }

    fn finish_perft(&mut self) -> io::Result<()> {
        let Some(p) = self.perft.take() else {
            return Ok(());
        };
        let Ok(Some(mut rows)) = p.handle.join() else {
            return self.send("info string perft stopped");
        };
        rows.sort();
        for (m, n) in &rows {
            self.send(&format!("{m}: {n}"))?;
        }
        let total: u64 = rows.iter().map(|(_, n)| n).sum();
        self.send("")?;
        self.send(&format!("Nodes searched: {total}"))?;
        self.send("")
    }
}

/// `perft::divide` that can be stopped: `None` once `stop` is set.
fn divide(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    let mut rows = Vec::new();
    for m in pos.legal_moves() {
        pos.make(m);
        let n = count(pos, depth.max(1) - 1, stop);
        pos.unmake();
        rows.push((m, n?));
    }
    Some(rows)
}

/// Leaf count as `perft::perft`, looking at `stop` above the last few plies.
fn count(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= PERFT_UNSTOPPABLE {
        return Some(perft::perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut nodes = 0;
    for m in pos.legal_moves() {
        pos.make(m);
        let n = count(pos, depth - 1, stop);
        pos.unmake();
        nodes += n?;
    }
    Some(nodes)
}

fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 4 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit()
}

/// The UCI-style info line of one iteration.
pub fn info_line(pos: &Position, info: &Info) -> String {
    dialect_info_line(pos, info, Dialect::Uci)
}

/// The info line with the dialect's move text.
fn dialect_info_line(pos: &Position, info: &Info, dialect: Dialect) -> String {
    let mut p = pos.clone();
    let mut pv = Vec::new();
    for &m in &info.pv {
        pv.push(dialect.move_text(&p, m));
        p.make(m);
    }
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::SharedBuf;

    fn chess() -> Position {
        Position::start(&crate::game::Game::new(
            crate::variant::builtin("chess").unwrap(),
        ))
    }

    #[test]
    fn a_panicking_search_still_answers_and_leaves_a_fresh_engine() {
        let buf = SharedBuf::default();
        let (tx, _rx) = mpsc::channel();
        let mut s = Session::new(
            Out::new(buf.clone()),
            tx,
            Registry::builtin(),
            DEFAULT_HASH_MB,
            Dialect::Uci,
        );
        s.engine = None;
        s.search = Some(Running {
            id: 0,
            stop: Arc::default(),
            handle: std::thread::spawn(|| -> (Engine, SearchResult) { panic!("a search bug") }),
            infinite: false,
            root: chess(),
            ponder: None,
            deadline: None,
        });
        s.finish().unwrap();
        let out = buf.text();
        let mv = out
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("no bestmove: {out}"));
        assert!(chess().parse_move(mv).is_ok(), "{out}");
        assert!(out.contains("info string error the search failed"), "{out}");
        assert!(s.engine.is_some());
    }

    #[test]
    fn stoppable_perft_counts_as_perft() {
        let mut pos = chess();
        let stop = AtomicBool::new(false);
        let text = |pos: &Position, rows: Vec<(Move, u64)>| {
            let mut rows: Vec<(String, u64)> = rows
                .into_iter()
                .map(|(m, n)| (pos.move_text(m), n))
                .collect();
            rows.sort();
            rows
        };
        let rows = divide(&mut pos, 5, &stop).unwrap();
        let rows = text(&pos, rows);
        assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 4_865_609);
        let reference = perft::divide(&mut pos, 5);
        assert_eq!(rows, text(&pos, reference));
        stop.store(true, Ordering::SeqCst);
        assert!(divide(&mut pos, 5, &stop).is_none());
        // Shallow counts never look at `stop`.
        assert!(divide(&mut pos, 2, &stop).is_some());
    }
}
