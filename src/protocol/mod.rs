//! Front ends for chess GUIs: [`xboard`] (CECP v2, XBoard/WinBoard) and [`uci`] (UCI, e.g. Cute
//! Chess). Both are thin: they turn protocol lines into calls on the library and print the answers.
//!
//! Shared here: the variant registry (built-ins plus user files), the line reader thread, the
//! locked writer both the controller and the search thread print through, FEN normalisation
//! for the FEN dialects GUIs send, bounded numeric arguments ([`args`]) and XBoard's
//! piece-to-char table ([`piece_to_char`], also used by the Fairy-Max export).
//!
//! A panic in a search (a bug, never an input) is caught where the search thread is joined: the
//! session goes on with a fresh engine and a legal move. This is why the release profile unwinds.

pub mod args;
pub mod piece_to_char;
pub mod uci;
pub mod usi;
pub mod xboard;

use crate::game::Game;
use crate::variant::Variant;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Which protocol a GUI speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Xboard,
    Uci,
    /// UCI's shogi dialect (see [`usi`]).
    Usi,
}

/// The protocol a GUI's first line announces (`xboard`, `uci` or `usi`), if any.
pub fn detect(first_line: &str) -> Option<Protocol> {
    match first_line.trim() {
        "xboard" => Some(Protocol::Xboard),
        "uci" => Some(Protocol::Uci),
        "usi" => Some(Protocol::Usi),
        _ => None,
    }
}

/// Start-up settings that do not come through the protocol itself (command-line flags).
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Variant files (or directories of `*.txt` files) to offer besides the built-ins.
    pub variant_files: Vec<PathBuf>,
    /// The variant to start in (UCI only: XBoard always names it).
    pub variant: Option<String>,
    /// The transposition table's size in MB at start-up (default 16, at most 65536); the GUI's
    /// own setting (`memory`, `Hash`) replaces it.
    pub hash_mb: Option<usize>,
}

impl Config {
    fn start_hash_mb(&self) -> usize {
        self.hash_mb
            .unwrap_or(args::DEFAULT_HASH_MB)
            .clamp(1, args::MAX_HASH_MB)
    }
}

/// How long a search still running when the input ends may go on: a script piped in wants its
/// last answer, but a session over finite input must end. Then the search is stopped and answered
/// (an analysis or infinite search at once).
pub const EOF_GRACE: Duration = Duration::from_secs(10);

/// Why a variant file could not be added to a session.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("no variant file or directory {0}")]
    NotFound(String),
    /// The file's diagnostics, rendered (one or more lines).
    #[error("{0}")]
    Invalid(String),
}

/// Every file of one path that failed to load.
#[derive(Debug, thiserror::Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct LoadErrors(pub Vec<LoadError>);

/// Runs `protocol` until `quit` or end of input.
pub fn run<R, W>(protocol: Protocol, input: R, output: W, config: &Config) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    match protocol {
        Protocol::Xboard => xboard::run_with(input, output, config),
        Protocol::Uci => uci::run_with(input, output, config),
        Protocol::Usi => uci::run_dialect(input, output, config, uci::Dialect::Usi),
    }
}

/// The variants a session can play: the built-ins, then user files (a later file with the same
/// name wins). Each variant's tables are built once, when it is first played, and clones of a
/// registry share them: every session of a process reuses the built-ins' games.
#[derive(Debug, Clone)]
pub struct Registry {
    variants: Vec<Variant>,
    games: Vec<Arc<OnceLock<Arc<Game>>>>,
}

impl Registry {
    /// The built-ins only.
    pub fn builtin() -> Registry {
        static BUILTIN: OnceLock<Registry> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                // XBoard and UCI GUIs have no dice: dice variants are for `acedrex play` and selfplay.
                let variants: Vec<Variant> = crate::variant::builtin_names()
                    .into_iter()
                    .filter_map(crate::variant::builtin)
                    .filter(|v| v.dice.is_none())
                    .collect();
                let games = variants.iter().map(|_| Arc::default()).collect();
                Registry { variants, games }
            })
            .clone()
    }

    /// The built-ins plus `files`; the second value lists what failed to load.
    pub fn with_files(files: &[PathBuf]) -> (Registry, Vec<LoadError>) {
        let mut r = Registry::builtin();
        let errors = files
            .iter()
            .filter_map(|f| r.load_path(&f.to_string_lossy()).err())
            .flat_map(|e| e.0)
            .collect();
        (r, errors)
    }

    /// Loads one variant file, or every `*.txt` file of a directory. Returns the names loaded;
    /// the files that load are added even when others fail.
    pub fn load_path(&mut self, path: &str) -> Result<Vec<String>, LoadErrors> {
        let p = Path::new(path.trim());
        let shown = p.display().to_string();
        let files: Vec<PathBuf> = if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|source| {
                    LoadErrors(vec![LoadError::Read {
                        path: shown.clone(),
                        source,
                    }])
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "txt"))
                .collect();
            v.sort();
            v
        } else if p.is_file() {
            vec![p.to_path_buf()]
        } else {
            return Err(LoadErrors(vec![LoadError::NotFound(shown)]));
        };
        let mut names = Vec::new();
        let mut errors = Vec::new();
        for f in files {
            let shown = f.display().to_string();
            let loaded = std::fs::read_to_string(&f)
                .map_err(|source| LoadError::Read {
                    path: shown.clone(),
                    source,
                })
                .and_then(|text| {
                    crate::variant::parse_variant(&shown, &text)
                        .map_err(|d| LoadError::Invalid(crate::variant::render(&d)))
                });
            match loaded {
                Ok(v) => {
                    names.push(v.name.clone());
                    self.variants.push(v);
                    self.games.push(Arc::default());
                }
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(names)
        } else {
            Err(LoadErrors(errors))
        }
    }

    /// A variant by canonical name, alias or XBoard name (ASCII case ignored); `standard` is chess.
    pub fn find(&self, name: &str) -> Option<&Variant> {
        self.index(name).map(|i| &self.variants[i])
    }

    /// The game of [`Registry::find`]'s variant, its tables built on first use.
    pub fn game(&self, name: &str) -> Option<Arc<Game>> {
        let i = self.index(name)?;
        Some(
            self.games[i]
                .get_or_init(|| Game::new(self.variants[i].clone()))
                .clone(),
        )
    }

    fn index(&self, name: &str) -> Option<usize> {
        let name = name.trim();
        let name = if name.eq_ignore_ascii_case("standard") {
            "chess"
        } else {
            name
        };
        let is = |s: &str| s.eq_ignore_ascii_case(name);
        let rev = || self.variants.iter().enumerate().rev();
        rev()
            .find(|(_, v)| is(&v.name))
            .or_else(|| rev().find(|(_, v)| v.aliases.iter().any(|a| is(a))))
            .or_else(|| rev().find(|(_, v)| is(&v.xboard_name)))
            .map(|(i, _)| i)
    }

    /// Canonical names, each once, built-ins first.
    pub fn names(&self) -> Vec<String> {
        dedup(self.variants.iter().map(|v| v.name.clone()))
    }

    /// XBoard names, each once, built-ins first.
    pub fn xboard_names(&self) -> Vec<String> {
        dedup(self.variants.iter().map(|v| v.xboard_name.clone()))
    }
}

fn dedup(names: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// What the controller thread waits for: a line from the GUI, the end of input, or a finished
/// search (by search id).
#[derive(Debug)]
pub(crate) enum Event {
    Line(String),
    Eof,
    Done(u64),
}

/// Reads lines on their own thread so the controller can wait for input and for the search at
/// once. Bytes that are not UTF-8 are replaced, never fatal.
pub(crate) fn spawn_reader<R: BufRead + Send + 'static>(mut input: R, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim().to_string();
                    if tx.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(Event::Eof);
    });
}

/// The GUI-facing writer, shared by the controller and the search thread; every line is flushed.
#[derive(Clone)]
pub(crate) struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    pub(crate) fn new(w: impl Write + Send + 'static) -> Out {
        Out(Arc::new(Mutex::new(Box::new(w))))
    }

    pub(crate) fn line(&self, text: &str) -> io::Result<()> {
        // A panic elsewhere must not silence the engine: take the writer even if poisoned.
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        w.write_all(text.as_bytes())?;
        w.write_all(b"\n")?;
        w.flush()
    }
}

/// The earlier of two optional deadlines.
pub(crate) fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A GUI line echoed in a complaint, with control characters shown as `?` so that they cannot
/// disturb the GUI's parsing.
pub(crate) fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// A `Write` that appends to a shared buffer: lets tests and tools read what the engine printed.
#[derive(Clone, Default)]
pub struct SharedBuf(pub Arc<Mutex<Vec<u8>>>);

impl SharedBuf {
    /// Everything written so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(name: &str) -> Arc<Game> {
        Game::new(crate::variant::builtin(name).unwrap())
    }

    /// Sessions share the built-ins' tables; a user file of the same name gets its own.
    #[test]
    fn registries_build_each_game_once() {
        let (a, b) = (Registry::builtin(), Registry::builtin());
        let chess = a.game("normal").unwrap();
        assert!(Arc::ptr_eq(&chess, &b.game("chess").unwrap()));
        assert!(Arc::ptr_eq(&chess, &a.game("fide").unwrap()));
        let dir = std::env::temp_dir().join(format!("acedrex-registry-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("chess.txt");
        std::fs::write(&file, "variant chess\ninherit capablanca\n").unwrap();
        let mut c = Registry::builtin();
        c.load_path(&file.to_string_lossy()).unwrap();
        let own = c.game("chess").unwrap();
        assert!(!Arc::ptr_eq(&chess, &own));
        assert!(Arc::ptr_eq(&own, &c.game("chess").unwrap()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// GUIs' FEN dialects read as acedrex's own: XBoard's 5-field FEN with file letters for an
    /// unmoved king, Shredder/X-FEN castling files.
    #[test]
    fn xboard_fens_are_read() {
        let fen = |g: &Arc<Game>, f: &str| crate::position::Position::from_fen(g, f).unwrap().fen();
        let g = game("grant-acedrex");
        assert_eq!(
            fen(
                &g,
                "rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w Gg 0 1"
            ),
            "rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w Kk - 0 1"
        );
        let c = game("chess");
        assert_eq!(
            fen(&c, "4k2r/8/8/8/8/8/8/R3K3 w AHh - 0 1"),
            "4k2r/8/8/8/8/8/8/R3K3 w Qk - 0 1"
        );
    }

    #[test]
    fn a_poisoned_writer_still_writes() {
        let buf = SharedBuf::default();
        let out = Out::new(buf.clone());
        let held = out.clone();
        let _ = std::thread::spawn(move || {
            let _lock = held.0.lock().unwrap();
            panic!("a panic while printing");
        })
        .join();
        assert!(out.0.is_poisoned());
        out.line("still here").unwrap();
        assert_eq!(buf.text(), "still here\n");
    }

    #[test]
    fn registry_finds_by_any_name() {
        let r = Registry::builtin();
        assert_eq!(r.find("grande-acedrex").unwrap().name, "grant-acedrex");
        assert_eq!(r.find("normal").unwrap().name, "chess");
        assert_eq!(r.find("Standard").unwrap().name, "chess");
        assert!(r.find("nonsense").is_none());
        assert_eq!(r.xboard_names()[0], "grande-acedrex");
    }
}
