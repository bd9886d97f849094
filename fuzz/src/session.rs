//! Protocol sessions built from fuzz bytes: real commands (most with legal-looking arguments, moves
//! taken from a shadow position so that many are legal) mixed with garbage lines and wild numbers.
//!
//! Searches are kept tiny so one input runs in milliseconds: every session starts with a depth cap,
//! a depth that is set again is set back to the cap on the next line, every UCI `go` ends in
//! `depth 2`, and hash sizes and thread counts are small or unparsable: a large one would really be
//! allocated (the protocol clamps to 64 GB) or spawned on every input.

use acedrex::game::Game;
use acedrex::position::Position;
use acedrex::protocol::SharedBuf;
use arbitrary::{Arbitrary, Unstructured};
use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The depth every search is capped at.
pub const DEPTH: u32 = 2;

/// A number as a GUI might (mis)write it.
#[derive(Arbitrary, Debug, Clone)]
pub enum Num {
    Small(u8),
    Any(u64),
    Signed(i64),
    Float(f64),
    Wild(u8),
}

const WILD: &[&str] = &[
    "",
    "0",
    "-0",
    "-1",
    "+3",
    "1e3",
    "1.5",
    ".5",
    "nan",
    "inf",
    "-inf",
    "0x10",
    "99999999999",
    "4294967295",
    "4294967296",
    "2147483648",
    "-2147483649",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "1:30",
    "1:",
    ":",
    "5:99999999999999999999",
    "\u{663}",
    "１",
    "2 3",
];

impl Num {
    fn text(&self) -> String {
        match self {
            Num::Small(n) => n.to_string(),
            Num::Any(n) => n.to_string(),
            Num::Signed(n) => n.to_string(),
            Num::Float(x) => x.to_string(),
            Num::Wild(i) => WILD[usize::from(*i) % WILD.len()].to_string(),
        }
    }

    /// For thread counts: small, or not a count at all. A large count that parses would really be
    /// spawned by the next search.
    fn threads(&self) -> String {
        match self {
            Num::Small(n) => (n % 8).to_string(),
            Num::Any(n) => format!("-{n}"),
            Num::Signed(n) => (-i128::from(n.unsigned_abs().max(1))).to_string(),
            Num::Float(x) => format!("{x:e}"),
            Num::Wild(_) => {
                // Too large for usize is still a count the protocol clamps to its maximum.
                let t = self.text();
                let digits = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
                match t.parse::<usize>() {
                    Ok(n) if n <= 8 => t,
                    _ if digits => format!("{t}x"),
                    _ => t,
                }
            }
        }
    }

    /// For hash sizes: small, or not a size at all. A large size that parses is clamped to the
    /// protocol's maximum (64 GB), which overcommit grants and clearing the table then touches.
    fn resource(&self) -> String {
        self.threads()
    }
}

/// A square, mostly on the board.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct Square(u8, u8);

impl Square {
    fn text(self) -> String {
        let file = (b'a' + self.0 % 18) as char;
        format!("{file}{}", self.1 % 18)
    }

    /// As USI names squares: a file counted from the right, then a rank letter from the far edge.
    fn usi_text(self) -> String {
        let rank = (b'a' + self.1 % 18) as char;
        format!("{}{rank}", self.0 % 18)
    }
}

/// A piece letter, most of them ones the variants use.
fn letter(b: u8) -> char {
    const LETTERS: &[u8] = b"PNBRQKLUCEAGHpnbrqkluceaghxX?1";
    LETTERS[usize::from(b) % LETTERS.len()] as char
}

/// One arbitrary short text line, with no line break in it.
#[derive(Debug, Clone)]
pub struct Garbage(pub String);

impl<'a> Arbitrary<'a> for Garbage {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let len = u.int_in_range(0..=40)?;
        let mut s = String::new();
        for _ in 0..len {
            let c: char = u.arbitrary()?;
            if c != '\n' && c != '\r' {
                s.push(c);
            }
        }
        Ok(Garbage(s))
    }
}

/// What a session does between its fixed opening and closing lines.
#[derive(Arbitrary, Debug, Clone)]
pub enum Step {
    /// A command word with no argument.
    Word(u8),
    /// Switch variant (by canonical, XBoard or unknown name).
    Variant(u8),
    /// A legal move of the shadow position (index modulo the count).
    Legal(u16),
    /// A move between two squares, perhaps with a promotion letter.
    Squares(Square, Square, Option<u8>),
    /// A position: the shadow's, a variant's start, or one with a piece moved or removed.
    Fen(FenKind),
    /// A numeric command with a wild argument.
    Number(u8, Num),
    /// A time control.
    Level(Num, Num, Num),
    /// Take back one or two plies.
    Undo(bool),
    /// `edit` placement lines.
    Edit(u8, Square),
    /// An option line.
    Option(u8, Num),
    /// A garbage line.
    Garbage(Garbage),
    /// A real command with garbage appended.
    Tail(u8, Garbage),
}

#[derive(Arbitrary, Debug, Clone)]
pub enum FenKind {
    Shadow,
    Start(u8),
    /// The shadow FEN with one character replaced.
    Mutated(u16, u8),
    /// The shadow FEN cut short.
    Cut(u16),
}

/// The position the generated moves come from: follows `new`, variant switches, the session's own
/// moves and take-backs, not the engine's replies (their moves then simply become illegal).
struct Shadow {
    pos: Position,
}

impl Shadow {
    fn new(game: &Arc<Game>) -> Shadow {
        Shadow {
            pos: Position::start(game),
        }
    }

    fn legal(&mut self, i: u16, usi: bool) -> Option<String> {
        let moves = self.pos.legal_moves();
        let m = *moves.get(usize::from(i) % moves.len().max(1))?;
        let text = if usi {
            acedrex::protocol::usi::move_text(&self.pos, m)
        } else {
            self.pos.move_text(m)
        };
        self.pos.make(m);
        Some(text)
    }

    fn undo(&mut self, plies: usize) {
        if self.pos.plies_played() >= plies {
            (0..plies).for_each(|_| self.pos.unmake());
        }
    }

    /// A FEN, or for USI an SFEN, of the kind asked for.
    fn fen(&self, kind: &FenKind, usi: bool) -> String {
        let text = |pos: &Position| {
            if usi {
                acedrex::protocol::usi::sfen(pos)
            } else {
                pos.fen()
            }
        };
        let fen = text(&self.pos);
        match kind {
            FenKind::Shadow => fen,
            FenKind::Start(g) => text(&Position::start(crate::game(*g))),
            FenKind::Mutated(at, c) => {
                let mut chars: Vec<char> = fen.chars().collect();
                let i = usize::from(*at) % chars.len().max(1);
                if let Some(slot) = chars.get_mut(i) {
                    *slot = letter(*c);
                }
                chars.into_iter().collect()
            }
            FenKind::Cut(at) => fen
                .chars()
                .take(usize::from(*at) % (fen.len() + 1))
                .collect(),
        }
    }
}

/// A variant name as a GUI sends it: the built-ins' names, XBoard names and aliases, and some that
/// exist nowhere.
fn variant_name(i: u8) -> String {
    let games = crate::games();
    let n = games.len();
    let i = usize::from(i);
    match i % 4 {
        0 => games[i / 4 % n].variant.name.clone(),
        1 => games[i / 4 % n].variant.xboard_name.clone(),
        2 => games[i / 4 % n]
            .variant
            .aliases
            .first()
            .cloned()
            .unwrap_or_default(),
        _ => [
            "normal",
            "standard",
            "fairy",
            "",
            "crazyhouse",
            "CHESS",
            "shogi",
        ][i / 4 % 7]
            .into(),
    }
}

fn variant_game(name: &str) -> Option<&'static Arc<Game>> {
    let is = |s: &str| s.eq_ignore_ascii_case(name);
    crate::games().iter().find(|g| {
        is(&g.variant.name) || is(&g.variant.xboard_name) || g.variant.aliases.iter().any(|a| is(a))
    })
}

/// Variant files a session may load: the shipped ones, a test variant, and paths that are not there.
fn variant_path(i: u8) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    match i % 4 {
        0 => format!("{root}/variants/shatranj.txt"),
        1 => format!("{root}/tests/protocol/mini-acedrex.txt"),
        2 => format!("{root}/no/such/file.txt"),
        _ => format!("{root}/tests/bad-variants/many-errors.txt"),
    }
}

/// Builds the lines of one session.
pub fn lines(protocol: acedrex::protocol::Protocol, steps: &[Step]) -> Vec<String> {
    use acedrex::protocol::Protocol;
    // USI is UCI's session with shogi's text: `uci` below means either.
    let usi = protocol == Protocol::Usi;
    let uci = protocol != Protocol::Xboard;
    let first_game = || {
        if usi {
            variant_game("shogi").expect("shogi is built in")
        } else {
            crate::game(4)
        }
    };
    let mut shadow = Shadow::new(first_game());
    let mut out: Vec<String> = if usi {
        vec!["usi".into()]
    } else if uci {
        vec!["uci".into()]
    } else {
        vec![
            "xboard".into(),
            "protover 2".into(),
            format!("sd {DEPTH}"),
            "st 1".into(),
        ]
    };
    let moves_line = |moves: &[String]| format!("position startpos moves {}", moves.join(" "));
    let mut uci_moves: Vec<String> = Vec::new();
    for step in steps {
        match step {
            Step::Word(w) => {
                let words: &[&str] = if usi {
                    &[
                        "usi",
                        "isready",
                        "usinewgame",
                        "stop",
                        "ponderhit",
                        "go",
                        "go infinite",
                        "go ponder",
                        "go perft 1",
                        "go perft 2",
                        "go byoyomi",
                        "position startpos",
                        "position sfen",
                        "gameover win",
                        "gameover",
                        "uci",
                        "position",
                        "go mate",
                    ]
                } else if uci {
                    &[
                        "uci",
                        "isready",
                        "ucinewgame",
                        "stop",
                        "ponderhit",
                        "go",
                        "go infinite",
                        "go ponder",
                        "go perft 1",
                        "go perft 2",
                        "go searchmoves",
                        "position startpos",
                        "debug on",
                        "register later",
                        "fen",
                        "position",
                        "position fen",
                        "go mate",
                    ]
                } else {
                    &[
                        "new",
                        "force",
                        "go",
                        "playother",
                        "white",
                        "black",
                        "post",
                        "nopost",
                        "hard",
                        "easy",
                        "random",
                        "computer",
                        "?",
                        "draw",
                        "hint",
                        "bk",
                        ".",
                        "edit",
                        "exit",
                        "analyze",
                        "protover 2",
                        "xboard",
                        "accepted setboard",
                        "rejected usermove",
                        "fen",
                        "result 1-0 {resign}",
                        "result *",
                        "usermove",
                        "name someone",
                        "rating 2000 1500",
                        "ics -",
                        "setboard",
                        "variant",
                        "level",
                        "undo",
                        "remove",
                        "option",
                        "option VariantPath=",
                    ]
                };
                let word = words[usize::from(*w) % words.len()];
                if ["new", "ucinewgame", "usinewgame"].contains(&word) {
                    shadow = Shadow::new(first_game());
                    uci_moves.clear();
                }
                push_go(&mut out, word, uci);
            }
            Step::Variant(i) => {
                let name = variant_name(*i);
                if let Some(g) = variant_game(&name) {
                    shadow = Shadow::new(g);
                    uci_moves.clear();
                }
                if uci {
                    out.push(format!("setoption name UCI_Variant value {name}"));
                } else {
                    out.push(format!("variant {name}"));
                }
            }
            Step::Legal(i) => {
                if let Some(m) = shadow.legal(*i, usi) {
                    if uci {
                        uci_moves.push(m);
                        out.push(moves_line(&uci_moves));
                    } else if i % 2 == 0 {
                        out.push(format!("usermove {m}"));
                    } else {
                        out.push(m);
                    }
                }
            }
            Step::Squares(a, b, p) => {
                let mut m = if usi {
                    a.usi_text() + &b.usi_text()
                } else {
                    a.text() + &b.text()
                };
                if let Some(p) = p {
                    if usi && p % 3 == 0 {
                        m.push('+');
                    } else {
                        if p % 2 == 0 {
                            m.push('=');
                        }
                        m.push(letter(*p));
                    }
                }
                if uci {
                    out.push(format!("position startpos moves {m}"));
                } else {
                    out.push(format!("usermove {m}"));
                }
            }
            Step::Fen(kind) => {
                let fen = shadow.fen(kind, usi);
                if usi {
                    out.push(format!("position sfen {fen}"));
                } else if uci {
                    out.push(format!("position fen {fen}"));
                } else {
                    out.push(format!("setboard {fen}"));
                }
            }
            Step::Number(w, n) => {
                let line = if uci {
                    let keys = [
                        "wtime",
                        "btime",
                        "winc",
                        "binc",
                        "movetime",
                        "movestogo",
                        "depth",
                        "nodes",
                        "mate",
                        "perft",
                        "hash",
                        "threads",
                        "byoyomi",
                    ];
                    match keys[usize::from(*w) % keys.len()] {
                        "hash" => format!("setoption name Hash value {}", n.resource()),
                        "threads" => format!("setoption name Threads value {}", n.threads()),
                        "perft" => format!("go perft {}", n.text().len() % 3),
                        key => format!("go {key} {} depth {DEPTH}", n.text()),
                    }
                } else {
                    let keys = [
                        "sd", "st", "time", "otim", "memory", "cores", "ping", "protover",
                    ];
                    match keys[usize::from(*w) % keys.len()] {
                        "memory" => format!("memory {}", n.resource()),
                        "cores" => format!("cores {}", n.threads()),
                        "sd" => {
                            out.push(format!("sd {}", n.text()));
                            format!("sd {DEPTH}")
                        }
                        key => format!("{key} {}", n.text()),
                    }
                };
                out.push(line);
            }
            Step::Level(a, b, c) => {
                if uci {
                    out.push(format!(
                        "go wtime {} btime {} winc {} depth {DEPTH}",
                        a.text(),
                        b.text(),
                        c.text()
                    ));
                } else {
                    out.push(format!("level {} {} {}", a.text(), b.text(), c.text()));
                }
            }
            Step::Undo(two) => {
                let plies = if *two { 2 } else { 1 };
                shadow.undo(plies);
                if uci {
                    uci_moves.truncate(uci_moves.len().saturating_sub(plies));
                    out.push(moves_line(&uci_moves));
                } else {
                    out.push(if *two { "remove" } else { "undo" }.into());
                }
            }
            Step::Edit(l, sq) => {
                if uci {
                    let kind = if usi { "sfen" } else { "fen" };
                    out.push(format!("position {kind} {}{}", letter(*l), sq.text()));
                } else {
                    match l % 8 {
                        0 => out.push("edit".into()),
                        1 => out.push("#".into()),
                        2 => out.push("c".into()),
                        3 => out.push(".".into()),
                        _ => out.push(format!("{}{}", letter(*l), sq.text())),
                    }
                }
            }
            Step::Option(i, n) => {
                let path = variant_path(*i);
                if uci {
                    out.push(match i % 3 {
                        0 => format!("setoption name VariantPath value {path}"),
                        1 => format!("setoption name Clear Hash value {}", n.text()),
                        _ => format!("setoption name {} value", n.text()),
                    });
                } else {
                    out.push(match i % 3 {
                        0 => format!("option VariantPath={path}"),
                        1 => format!("option Unknown={}", n.text()),
                        _ => format!("option {}", n.text()),
                    });
                }
            }
            Step::Garbage(g) => out.push(g.0.clone()),
            Step::Tail(w, g) => {
                let words = if usi {
                    ["go", "position", "setoption", "isready", "gameover", "usi"]
                } else if uci {
                    ["go", "position", "setoption", "isready", "stop", "uci"]
                } else {
                    ["go", "usermove", "setboard", "variant", "level", "ping"]
                };
                let line = format!("{} {}", words[usize::from(*w) % words.len()], g.0);
                push_go(&mut out, &line, uci);
            }
        }
    }
    if uci {
        out.extend(["stop".into(), "isready".into()]);
    } else {
        // `.` ends an `edit` left open (where every other line is a placement).
        out.extend([".".into(), "force".into(), format!("ping {PING}")]);
    }
    out
}

/// The token the closing `ping` carries.
pub const PING: u32 = 424242;

/// Pushes a line; a UCI `go` gets the depth cap as its last limit.
fn push_go(out: &mut Vec<String>, line: &str, uci: bool) {
    if uci && line.split_whitespace().next() == Some("go") && !line.contains("perft") {
        out.push(format!("{line} depth {DEPTH}"));
    } else {
        out.push(line.to_string());
    }
}

/// The GUI side of a session: every generated line at once, then, like a GUI, `quit` only once the
/// closing `ping`/`isready` has been answered (or after a generous wait, and the check fails).
struct Gui {
    lines: io::Cursor<Vec<u8>>,
    sink: SharedBuf,
    answered: Box<dyn Fn(&str) -> bool + Send>,
    quit: Option<io::Cursor<&'static [u8]>>,
}

impl io::Read for Gui {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.lines.read(buf)?;
        if n > 0 {
            return Ok(n);
        }
        if self.quit.is_none() {
            let deadline = Instant::now() + Duration::from_secs(20);
            while Instant::now() < deadline {
                let out = self.sink.text();
                if (self.answered)(&out) {
                    break;
                }
                std::thread::sleep(Duration::from_micros(200));
            }
            self.quit = Some(io::Cursor::new(b"quit\n"));
        }
        self.quit.as_mut().expect("set").read(buf)
    }
}

/// Every `isready` of `input` has its `readyok` in `output`.
fn all_ready(input: &str, output: &str) -> bool {
    let asked = input
        .lines()
        .filter(|l| l.split_whitespace().next() == Some("isready"))
        .count();
    output.lines().filter(|l| *l == "readyok").count() >= asked
}

fn ponged(output: &str) -> bool {
    output.lines().any(|l| l == format!("pong {PING}"))
}

/// Runs one session and checks that it ended well: the closing `ping`/`isready` was answered, and
/// `run` returned `Ok` after `quit`.
pub fn run(protocol: acedrex::protocol::Protocol, data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(steps) = Vec::<Step>::arbitrary(&mut u) else {
        return;
    };
    let steps = &steps[..steps.len().min(40)];
    run_text(protocol, &(lines(protocol, steps).join("\n") + "\n"));
}

/// Runs the session `text` (its lines, then `quit` once answered) and checks how it ended.
pub fn run_text(protocol: acedrex::protocol::Protocol, text: &str) {
    use acedrex::protocol::Protocol;
    let sink = SharedBuf::default();
    let input = text.to_string();
    let answered: Box<dyn Fn(&str) -> bool + Send> = match protocol {
        Protocol::Uci | Protocol::Usi => Box::new(move |out| all_ready(&input, out)),
        Protocol::Xboard => Box::new(ponged),
    };
    let gui = Gui {
        lines: io::Cursor::new(text.as_bytes().to_vec()),
        sink: sink.clone(),
        answered,
        quit: None,
    };
    // A small table: every `new` clears it, and a depth-2 search needs few entries.
    let config = acedrex::protocol::Config {
        hash_mb: Some(1),
        ..Default::default()
    };
    let result = acedrex::protocol::run(protocol, io::BufReader::new(gui), sink.clone(), &config);
    let output = sink.text();
    assert!(result.is_ok(), "session failed: {result:?}\n{text}");
    let ok = match protocol {
        Protocol::Uci | Protocol::Usi => all_ready(text, &output),
        Protocol::Xboard => ponged(&output),
    };
    assert!(
        ok,
        "the closing ping/isready was not answered:\n--- input\n{text}--- output\n{output}"
    );
}
