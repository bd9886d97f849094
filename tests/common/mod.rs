//! Shared helpers for the integration tests.
#![allow(dead_code)]

use acedrex::game::Game;
use acedrex::position::Position;
use acedrex::search::{Engine, Limits, Score, SearchResult};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// One search of a position by a fresh single-threaded engine with a 1 MB table, nothing reported.
pub fn search(pos: &Position, limits: Limits) -> SearchResult {
    let mut engine = Engine::new(1, 1);
    engine.search(pos, &limits, &Arc::new(AtomicBool::new(false)), &mut |_| {})
}

/// The score and first move of a depth-4 search of a FEN.
pub fn search_fen(g: &Arc<Game>, fen: &str) -> (Score, String) {
    let pos = Position::from_fen(g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    search_depth4(&pos)
}

/// The score and first move of a depth-4 search of a position (its history included).
pub fn search_depth4(pos: &Position) -> (Score, String) {
    let r = search(
        pos,
        Limits {
            depth: Some(4),
            ..Limits::default()
        },
    );
    let best = r.best.map(|m| pos.move_text(m)).unwrap_or_default();
    (r.score, best)
}

/// A FEN with moves played on it (coordinate text, separated by spaces).
pub fn play(g: &Arc<Game>, fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for text in moves.split_whitespace() {
        let m = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        pos.make(m);
    }
    pos
}

/// The legal moves as coordinate text, sorted.
pub fn legal_texts(pos: &mut Position) -> Vec<String> {
    let mut moves: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| pos.move_text(m))
        .collect();
    moves.sort();
    moves
}

/// Each line added to `base` is refused with an error at `t.txt:LINE:COL` that says `message`.
pub fn assert_positioned_errors(base: &str, cases: &[(&str, &str, &str)]) {
    for (line, at, message) in cases {
        let text = format!("{base}{line}");
        let errors = acedrex::variant::parse_variant("t.txt", &text).unwrap_err();
        let shown: Vec<String> = errors.iter().map(|d| d.to_string()).collect();
        assert!(
            shown.iter().any(|e| e.contains(at) && e.contains(message)),
            "{line}: {shown:#?}"
        );
    }
}

pub fn game(name: &str) -> Arc<Game> {
    let v = acedrex::variant::builtin(name).unwrap_or_else(|| panic!("no built-in variant {name}"));
    Game::new(v)
}

/// A small deterministic generator for random play (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// Plays `plies` random legal moves (fewer if the game runs out of moves).
pub fn random_walk(pos: &mut Position, rng: &mut Rng, plies: usize) {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        pos.make(moves[rng.below(moves.len())]);
    }
}

/// The FEN of the colour-flipped, rank-mirrored position.
pub fn flip_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect::<String>()
    };
    let placement: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f.get(1) == Some(&"w") { "b" } else { "w" };
    let rights = f.get(2).map_or("-".to_string(), |r| {
        if *r == "-" {
            "-".into()
        } else {
            let s = swap(r);
            let mut up: Vec<char> = s.chars().filter(|c| c.is_ascii_uppercase()).collect();
            let mut low: Vec<char> = s.chars().filter(|c| c.is_ascii_lowercase()).collect();
            up.sort_by_key(|&c| if c == 'K' { 0 } else { 1 });
            low.sort_by_key(|&c| if c == 'k' { 0 } else { 1 });
            up.into_iter().chain(low).collect()
        }
    });
    let ranks = placement.len();
    let ep = f.get(3).map_or("-".to_string(), |e| {
        if *e == "-" {
            return "-".into();
        }
        let r: usize = e[1..].parse().expect("rank");
        format!("{}{}", &e[..1], ranks + 1 - r)
    });
    format!(
        "{} {side} {rights} {ep} {} {}",
        placement.join("/"),
        f.get(4).unwrap_or(&"0"),
        f.get(5).unwrap_or(&"1")
    )
}

/// The legal moves as Fairy-Max writes them (no promotion suffix: it promotes by itself), sorted.
pub fn fairymax_moves(pos: &mut Position) -> Vec<String> {
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut t = pos.move_text(m);
            if m.promotion().is_some() {
                t.pop();
            }
            t
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether the tests run under CI (`CI=true`), where every peer is installed and must be used.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// The one rule for tests that need a peer (another engine, a tool, a terminal): when `present` is
/// false, fail under `CI=true` (CI installs every peer, so a missing one is a broken setup) and
/// otherwise print why the test is skipped. The caller returns when this gives false.
#[track_caller]
pub fn need(test: &str, present: bool, what: &str, install: &str) -> bool {
    if present {
        return true;
    }
    let msg = format!("{what} is missing ({install})");
    assert!(!under_ci(), "{test}: {msg}; CI=true needs it");
    eprintln!("SKIPPED {test}: {msg}");
    false
}

/// `need` for a program: present when it runs (`args` should be harmless, such as `--version`).
#[track_caller]
pub fn need_program(test: &str, program: &str, args: &[&str], install: &str) -> bool {
    let runs = std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    need(test, runs, program, install)
}

/// `need` for an installed file (an engine binary, an ini file).
#[track_caller]
pub fn need_file(test: &str, path: &str, install: &str) -> bool {
    need(test, std::path::Path::new(path).exists(), path, install)
}

/// `need` for a peer driven through the Python harness: the peer's binary and `python3`.
#[track_caller]
pub fn need_peer_script(test: &str, peer: &str, install: &str) -> bool {
    need_file(test, peer, install)
        && need_program(
            test,
            "python3",
            &["--version"],
            "apt-get install -y python3",
        )
}

/// The repository's peer harness (tests/peers), for tests that drive a peer through it.
pub fn peer_script(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers")
        .join(name)
}

/// Replays each `moves M... ; legal L...` line of a recorded file (`-` for none) from the start and
/// compares the recorded legal set with `ours` of the position reached. Returns the number of
/// lines read and one message per position that differs.
pub fn recorded_set_differences(
    g: &Arc<Game>,
    data: &str,
    mut ours: impl FnMut(&mut Position) -> std::collections::BTreeSet<String>,
) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut cases = 0;
    for line in data.lines().filter(|l| l.starts_with("moves ")) {
        let (moves, legal) = line["moves ".len()..]
            .split_once(" ; legal ")
            .expect("format: moves ... ; legal ...");
        let mut pos = Position::start(g);
        for m in moves.split_whitespace().filter(|&m| m != "-") {
            let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{moves}: {e}"));
            pos.make(mv);
        }
        let want: std::collections::BTreeSet<String> = legal
            .split_whitespace()
            .filter(|&m| m != "-")
            .map(String::from)
            .collect();
        let have = ours(&mut pos);
        cases += 1;
        if have != want {
            let missing: Vec<_> = want.difference(&have).collect();
            let extra: Vec<_> = have.difference(&want).collect();
            failures.push(format!(
                "after `{moves}`: missing {missing:?}, extra {extra:?}"
            ));
        }
    }
    (cases, failures)
}
