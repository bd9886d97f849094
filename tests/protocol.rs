//! The XBoard (CECP) and UCI front ends, driven by scripted sessions.
//!
//! Snapshots hold only deterministic lines: thinking/`info` output is dropped, and where the
//! engine's choice is free (not forced by the position) its move is redacted to `move <engine>` and
//! checked for legality by replaying the game instead. Forced moves (a unique mate or stalemate
//! win) stay in the snapshot.

use acedrex::game::Game;
use acedrex::position::Position;
use acedrex::protocol::{SharedBuf, uci, xboard};
use proptest::prelude::*;
use std::io::{BufReader, Cursor, Read};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a script waits for an answer before it fails instead of blocking the run. A watchdog
/// only: no test here asserts how long anything takes.
const WATCHDOG: Duration = Duration::from_secs(300);

fn xboard_bytes(script: Vec<u8>) -> String {
    let out = SharedBuf::default();
    xboard::run(Cursor::new(script), out.clone()).expect("session runs");
    out.text()
}

fn xboard(script: &str) -> String {
    xboard_bytes(script.as_bytes().to_vec())
}

/// An XBoard session whose script can wait for the engine's moves (`#wait N`, see [`Gated`]).
fn xboard_gated(script: &str) -> String {
    let out = SharedBuf::default();
    xboard::run(gated(script, "move ", &out), out.clone()).expect("session runs");
    out.text()
}

fn uci(script: &str) -> String {
    let out = SharedBuf::default();
    uci::run(gated(script, "bestmove", &out), out.clone()).expect("session runs");
    out.text()
}

fn gated(script: &str, marker: &'static str, out: &SharedBuf) -> BufReader<Gated> {
    BufReader::new(Gated {
        lines: script.lines().map(str::to_string).collect(),
        next: 0,
        out: out.clone(),
        marker,
    })
}

/// Script input that can wait for the engine: a line `#wait N` holds back the rest of the script
/// until the output has N lines starting with the marker (`bestmove`, XBoard's `move `), as a GUI
/// waits for the engine's move before it sends the next command.
struct Gated {
    lines: Vec<String>,
    next: usize,
    out: SharedBuf,
    marker: &'static str,
}

impl Read for Gated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while let Some(line) = self.lines.get(self.next) {
            self.next += 1;
            if let Some(n) = line.strip_prefix("#wait ") {
                let n: usize = n.parse().expect("#wait N");
                let t = Instant::now();
                let seen = |out: &SharedBuf| {
                    let text = out.text();
                    text.lines().filter(|l| l.starts_with(self.marker)).count()
                };
                while seen(&self.out) < n {
                    assert!(
                        t.elapsed() < WATCHDOG,
                        "no {} {n}: {}",
                        self.marker,
                        self.out.text()
                    );
                    std::thread::sleep(Duration::from_millis(2));
                }
                continue;
            }
            // Scripted lines are short: one line per read.
            let bytes = format!("{line}\n").into_bytes();
            assert!(bytes.len() <= buf.len());
            buf[..bytes.len()].copy_from_slice(&bytes);
            return Ok(bytes.len());
        }
        Ok(0)
    }
}

/// Drops XBoard thinking output (`depth score time nodes pv`), keeping result claims.
fn no_thinking(out: &str) -> String {
    let thinking = |l: &str| {
        let w: Vec<&str> = l.split_whitespace().collect();
        w.len() >= 4
            && w[..4].iter().all(|x| {
                x.trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit())
            })
    };
    out.lines()
        .filter(|l| !thinking(l))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Drops UCI `info` lines other than `info string`.
fn no_info(out: &str) -> String {
    out.lines()
        .filter(|l| !l.starts_with("info ") || l.starts_with("info string"))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn game(name: &str) -> Arc<Game> {
    Game::new(acedrex::variant::builtin(name).expect("built-in"))
}

/// Hides what depends on the engine's choices (checked separately by replaying the game).
fn redact_moves(out: &str) -> String {
    out.lines()
        .map(|l| match l {
            _ if l.starts_with("move ") => "move <engine>\n".to_string(),
            _ if l.starts_with("# fen ") => "# fen <replayed>\n".to_string(),
            _ => format!("{l}\n"),
        })
        .collect()
}

#[test]
fn xboard_handshake() {
    insta::assert_snapshot!(xboard(
        "xboard\nprotover 2\naccepted myname\naccepted done\nrejected analyze\n"
    ));
}

#[test]
fn xboard_setup_and_pieces_for_grande_acedrex() {
    // As Fairy-Max: the same pieceToChar table and parent, 12 for empty 12-wide ranks, and `piece`
    // lines for every piece XBoard's slots do not already move right (not P, C = bishop, R).
    let out = xboard(
        "xboard\nprotover 2\nnew\nrandom\nvariant grande-acedrex\nlevel 0 0:15 0.1\npost\nhard\neasy\nping 1\nforce\n",
    );
    insta::assert_snapshot!(out.lines().skip(1).collect::<Vec<_>>().join("\n"));
}

#[test]
fn xboard_known_variants_send_no_setup() {
    let out = xboard(
        "new\nvariant normal\nping 1\nvariant shatranj\nping 2\nvariant capablanca\nfen\nvariant nosuch\nping 3\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn xboard_variant_path_adds_a_user_variant() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/protocol/mini-acedrex.txt"
    );
    let out = xboard(&format!(
        "protover 2\noption VariantPath={path}\nvariant mini-acedrex\nfen\noption VariantPath=/no/such/file\noption Bogus=1\n"
    ));
    insta::assert_snapshot!(out.lines().skip(1).collect::<Vec<_>>().join("\n"));
}

/// Grant Acedrex's pawns and kings where they start, and nothing else.
const PAWNS_ONLY: &str = "6k5/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/6K5 w - - 0 1";

#[test]
fn xboard_short_game_at_fixed_depth() {
    // Engine White at depth 1, from kings and pawns only: the GUI's black moves are pawn steps no
    // two white moves can stop (from the start a white piece could check within two moves).
    let script = format!(
        "xboard\nprotover 2\nnew\nvariant grande-acedrex\nforce\nsetboard {PAWNS_ONLY}\nsd 1\npost\n\
         go\nping 1\nusermove a9a8\nping 2\nusermove l9l8\nping 3\nundo\nundo\nping 4\nfen\n"
    );
    let script = script.as_str();
    let out = xboard(script);
    let moves: Vec<&str> = out.lines().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(moves.len(), 3, "{out}");
    // After undoing the engine's third move and l9l8, the position is two white moves and a9a8 in.
    let fen = out
        .lines()
        .find_map(|l| l.strip_prefix("# fen "))
        .expect("fen line");
    let expected = {
        let g = game("grant-acedrex");
        let mut pos = Position::from_fen(&g, PAWNS_ONLY).unwrap();
        for m in [
            moves[0].strip_prefix("move ").unwrap(),
            "a9a8",
            moves[1].strip_prefix("move ").unwrap(),
        ] {
            let mv = pos.parse_move(m).expect("legal");
            pos.make(mv);
        }
        pos.fen()
    };
    assert_eq!(fen, expected);
    // Thinking output was on: lines of `depth score time nodes pv`.
    assert!(out.lines().any(|l| l.starts_with("1 ")), "{out}");
    insta::assert_snapshot!(
        redact_moves(&no_thinking(&out))
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn xboard_engine_answers_user_moves_until_force() {
    // Engine Black (after `new`): each legal user move gets an answer; replaying gives the same FEN.
    // Kings and pawns only, so that no black move can check and make a white pawn step illegal.
    let script = format!(
        "new\nvariant grande-acedrex\nsetboard {PAWNS_ONLY}\nsd 1\nusermove a4a5\n#wait 1\nping 1\n\
         usermove l4l5\n#wait 2\nping 2\nforce\nusermove b4b5\nfen\n"
    );
    let out = xboard_gated(&script);
    let fen = out
        .lines()
        .find_map(|l| l.strip_prefix("# fen "))
        .expect("fen line");
    let g = game("grant-acedrex");
    let mut pos = Position::from_fen(&g, PAWNS_ONLY).unwrap();
    let mut engine = out.lines().filter_map(|l| l.strip_prefix("move "));
    for m in ["a4a5", "<", "l4l5", "<", "b4b5"] {
        let text = if m == "<" {
            engine.next().expect("engine moved")
        } else {
            m
        };
        let mv = pos.parse_move(text).expect("legal");
        pos.make(mv);
    }
    assert_eq!(fen, pos.fen());
    insta::assert_snapshot!(redact_moves(&out));
}

#[test]
fn xboard_ping_waits_for_the_move_in_progress() {
    let out = no_thinking(&xboard(
        "new\nvariant grande-acedrex\nsd 3\nforce\ngo\nping 7\ntime 1000\nping 8\n",
    ));
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("setup") && !l.starts_with("piece"))
        .collect();
    assert!(
        lines.len() == 3
            && lines[0].starts_with("move ")
            && lines[1] == "pong 7"
            && lines[2] == "pong 8",
        "{out}"
    );
}

/// The most nodes any thinking line reports (XBoard: `depth score time nodes pv`; UCI: `nodes N`).
fn most_nodes_reported(out: &str) -> u64 {
    out.lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w.iter().position(|x| *x == "nodes") {
                Some(i) => w.get(i + 1)?.parse().ok(),
                None if w.len() >= 4 && w[0].bytes().all(|b| b.is_ascii_digit()) => {
                    w[3].parse().ok()
                }
                None => None,
            }
        })
        .max()
        .unwrap_or(0)
}

/// A 60-second search that `?`, `quit`, `stop` or `force` must end at once. Had the command waited
/// for the search, it would have reported iterations far past this many nodes before its move.
const FAR_INTO_A_MINUTE: u64 = 2_000_000;

#[test]
fn xboard_move_now_and_quit_are_prompt() {
    let out = xboard("new\nvariant grande-acedrex\npost\nst 60\nforce\ngo\n?\nping 1\n");
    assert!(
        no_thinking(&out).contains("move ") && out.ends_with("pong 1\n"),
        "{out}"
    );
    assert!(
        most_nodes_reported(&out) < FAR_INTO_A_MINUTE,
        "`?` did not stop the search: {out}"
    );
    // Had `quit` waited for the search, the move would come before the session ended.
    let out = xboard("new\nvariant grande-acedrex\nst 60\nforce\ngo\nquit\nping 1\n");
    assert!(
        !out.contains("pong") && !no_thinking(&out).contains("move "),
        "{out}"
    );
    // `force` abandons the search: no move is sent.
    let out = no_thinking(&xboard(
        "new\nvariant grande-acedrex\nst 60\nforce\ngo\nforce\nping 1\nfen\n",
    ));
    assert!(!out.contains("move "), "{out}");
}

#[test]
fn xboard_undo_remove_setboard_in_force_mode() {
    let out = xboard(
        "new\nvariant grande-acedrex\nforce\n\
         setboard rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w Gg 0 1\nfen\n\
         usermove g1i3\nusermove g12g10\nfen\nundo\nfen\nremove\nremove\nfen\nundo\n\
         setboard 12/12 w - - 0 1\nsetboard nonsense\nsetboard k11/12/1PK9/12/12/12/12/4p7/4P7/12/12/12 b KQkq - 0 1\nfen\n\
         variant normal\nsetboard r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1\nfen\nusermove e1c1\nfen\n",
    );
    insta::assert_snapshot!(out);
}

/// HaChu sends its pass as XBoard's null move `@@@@`: it is the position's pass, and where nothing
/// can pass it is an illegal move, not an unknown command.
#[test]
fn xboard_null_move_is_the_pass() {
    let out = xboard(
        "new\nvariant lion\nforce\nusermove b2b3\nusermove b7b6\nfen\nusermove @@@@\nfen\n\
         usermove @@@@\nfen\nnew\nvariant lion\nforce\nusermove @@@@\n@@@@\n",
    );
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("# fen") || l.starts_with("Illegal") || l.starts_with("Error"))
        .collect();
    assert_eq!(
        lines,
        [
            "# fen rlbqkbnr/p1pppppp/1p6/8/8/1P6/P1PPPPPP/RLBQKBNR w KQkq - 0 2",
            "# fen rlbqkbnr/p1pppppp/1p6/8/8/1P6/P1PPPPPP/RLBQKBNR b KQkq - 1 2",
            "# fen rlbqkbnr/p1pppppp/1p6/8/8/1P6/P1PPPPPP/RLBQKBNR w KQkq - 2 3",
            "Illegal move (not legal here): @@@@",
            "Illegal move (not legal here): @@@@",
        ],
        "{out}"
    );
}

#[test]
fn xboard_edit_mode() {
    let out = xboard(
        "new\nvariant grande-acedrex\nforce\nedit\n#\nKg1\nPa4\nRl1\nc\nKg12\nPa9\nxa9\nZz99\nQa1\n.\nfen\n\
         edit\n#\nKa1\n.\nfen\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn xboard_claims_after_the_opponents_move() {
    // The engine plays Black (`playother` with White to move) and claims when the user's move ends
    // the game: stalemate (the stalemated side loses in Grant Acedrex) and checkmate.
    let out = xboard(
        "new\nvariant grande-acedrex\nforce\nsetboard k11/12/1PK9/12/12/12/12/4p7/4P7/12/12/12 w - - 0 1\nplayother\n\
         usermove c10c11\nforce\n\
         setboard k11/12/1K10/12/12/12/12/4p7/4P7/12/12/7R4 w - - 0 1\nplayother\nusermove h1h12\nforce\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn xboard_claims_bare_king_and_bared_back() {
    // White captures Black's last man in force mode (Black gets one move to bare back); then the
    // engine plays White and claims after Black's reply.
    let out = xboard(
        "new\nvariant grande-acedrex\nforce\nsetboard 5k6/1p10/P11/12/12/12/12/12/12/12/12/1R9K w - - 0 1\n\
         usermove b1b11\nplayother\nusermove f12g12\nforce\n\
         setboard k11/1p10/12/12/12/12/12/12/12/12/12/1R9K w - - 0 1\nusermove b1b11\nplayother\nusermove a12b11\nforce\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn xboard_claims_repetition_in_chess() {
    let out = xboard(
        "new\nvariant normal\nforce\nusermove g1f3\nusermove g8f6\nusermove f3g1\nusermove f6g8\nusermove g1f3\n\
         usermove g8f6\nusermove f3g1\nplayother\nusermove f6g8\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn xboard_claims_after_its_own_move() {
    // Forced wins: the only mate in one (h1h12), and the only stalemating move (c10c11, a win);
    // then `go` in a finished game claims instead of moving.
    let out = no_thinking(&xboard_gated(
        "new\nvariant grande-acedrex\nsd 2\nforce\nsetboard k11/12/1K10/12/12/12/12/4p7/4P7/12/12/7R4 w - - 0 1\ngo\n#wait 1\nping 1\nforce\n\
         setboard k11/12/1PK9/12/12/12/12/4p7/4P7/12/12/12 w - - 0 1\ngo\n#wait 2\nping 2\nforce\n\
         setboard k11/2K9/1P10/12/12/12/12/4p7/4P7/12/12/12 b - - 0 1\ngo\nping 3\n",
    ));
    insta::assert_snapshot!(out);
}

#[test]
fn xboard_rejects_bad_input_and_keeps_running() {
    let out = xboard(
        "new\nvariant grande-acedrex\nforce\nusermove e4e6\nusermove z1z2\nusermove\ne4e6\na11a12\nfoo\n\
         level 40\nlevel x y z\nst -1\nsd zero\ntime abc\nmemory 0\ncores -2\nvariant\nundo\nremove\n\
         usermove a4a5q\n\u{1}\u{7f}\nEXIT\nfen\nping 9\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn xboard_promotion_letters() {
    // Grant Acedrex promotes by file: the suffix may be the forced piece, absent, or a letter no piece
    // has (XBoard's default `q`); another piece of the variant is illegal.
    let out = xboard(
        "new\nvariant grande-acedrex\nforce\nsetboard 6k5/P11/12/12/12/12/12/12/12/12/12/6K5 w - - 0 1\n\
         usermove a11a12l\nusermove a11a12q\nfen\nundo\nusermove a11a12r\nfen\nundo\nusermove a11a12\nfen\n\
         variant normal\nsetboard 4k3/P7/8/8/8/8/8/4K3 w - - 0 1\nusermove a7a8\nusermove a7a8n\nfen\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn xboard_analyze_mode() {
    let out = no_thinking(&xboard(
        "new\nvariant grande-acedrex\npost\nforce\nanalyze\nping 1\nusermove a4a5\nping 2\nundo\nusermove l4l5\n.\nexit\nfen\nping 3\n",
    ));
    insta::assert_snapshot!(out);
}

/// Lines the GUI could send, some illegal in context; each followed by `fen` so that every state
/// is compared.
fn valid_line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "e2e4", "e7e5", "g1f3", "b8c6", "a4a5", "a9a8", "c1d3", "g12i10", "g1g3", "e1g1",
            "l4l5", "f1e2", "d7d5", "a11a12r", "h4h5",
        ])
        .prop_map(|m| format!("usermove {m}")),
        Just("undo".to_string()),
        Just("remove".to_string()),
        Just("new\nforce".to_string()),
        prop::sample::select(vec![
            "grande-acedrex",
            "normal",
            "shatranj",
            "capablanca",
            "grant-acedrex-cazaux"
        ])
        .prop_map(|v| format!("variant {v}")),
        prop::sample::select(vec![
            "rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w Gg 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "k11/12/1PK9/12/12/12/12/4p7/4P7/12/12/12 w - - 0 1",
        ])
        .prop_map(|f| format!("setboard {f}")),
    ]
}

/// Lines no command starts like: an upper-case letter, a digit, punctuation or non-ASCII first,
/// or a command with an argument that cannot be valid.
fn garbage_line() -> impl Strategy<Value = Vec<u8>> {
    let first = prop::sample::select(
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#$%&*+,/:;<=>@^_`{|}~\x80\xc3\xff".to_vec(),
    );
    let rest = prop::collection::vec(any::<u8>().prop_filter("one line", |b| *b != b'\n'), 0..40);
    prop_oneof![
        (first, rest).prop_map(|(f, mut r)| {
            r.insert(0, f);
            r
        }),
        (
            prop::sample::select(vec![
                "usermove", "setboard", "variant", "level", "st", "sd", "time", "memory", "cores",
                "option"
            ]),
            "[0-9]{3,6}x"
        )
            .prop_map(|(c, junk)| format!("{c} {junk}").into_bytes()),
        "[a-p][0-9]{2}[a-p]x[0-9]".prop_map(String::into_bytes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Garbage interleaved with commands: no panic, one complaint per garbage line, and the state
    /// after every valid command is what it is without the garbage.
    #[test]
    fn xboard_garbage_changes_nothing(ops in prop::collection::vec(
        prop_oneof![3 => valid_line().prop_map(Ok), 2 => garbage_line().prop_map(Err)], 1..30)) {
        let mut with = b"xboard\nprotover 2\nforce\n".to_vec();
        let mut without = with.clone();
        let mut garbage = 0;
        for op in &ops {
            match op {
                Ok(line) => {
                    for s in [&mut with, &mut without] {
                        s.extend_from_slice(line.as_bytes());
                        s.extend_from_slice(b"\nfen\n");
                    }
                }
                Err(bytes) => {
                    garbage += 1;
                    with.extend_from_slice(bytes);
                    with.push(b'\n');
                }
            }
        }
        let (a, b) = (xboard_bytes(with), xboard_bytes(without));
        let fens = |s: &str| s.lines().filter(|l| l.starts_with("# fen")).map(str::to_string).collect::<Vec<_>>();
        prop_assert_eq!(fens(&a), fens(&b));
        let complaints = |s: &str| s.lines().filter(|l| l.starts_with("Error (") || l.starts_with("Illegal move")
            || l.starts_with("tellusererror")).count();
        prop_assert_eq!(complaints(&a), complaints(&b) + garbage, "{}", a);
    }
}

/// Any command word with random arguments, FEN-like and move-like junk, raw bytes. Leaves out
/// what would start a long search (`go`, `new` clearing `sd`, `analyze`, `playother`, ...).
fn any_xboard_line() -> impl Strategy<Value = Vec<u8>> {
    let words = vec![
        "xboard", "protover", "accepted", "rejected", "variant", "force", "usermove", "undo",
        "remove", "setboard", "edit", "level", "st", "sd", "time", "otim", "post", "nopost",
        "exit", "ping", "result", "easy", "hard", "memory", "cores", "option", "random",
        "computer", "?", "name", "rating", "ics", "hint", "bk", ".", "#", "c", "fen", "draw",
    ];
    let arg = prop::collection::vec(any::<u8>().prop_filter("one line", |b| *b != b'\n'), 0..30);
    prop_oneof![
        (prop::sample::select(words), arg).prop_map(|(w, a)| [w.as_bytes(), b" ", &a].concat()),
        "setboard [rnbqkpRNBQKPlugcaLUGCA0-9/ wbKQkqGg-]{0,80}".prop_map(String::into_bytes),
        "(usermove )?[a-p][0-9]{1,2}[a-p][0-9]{1,2}[a-z=]?".prop_map(String::into_bytes),
        "variant (grande-acedrex|normal|capablanca|shatranj|courier|makruk|grant-acedrex-murray)"
            .prop_map(String::into_bytes),
        "[KQRBNPLUGCAxkz][a-p][0-9]{1,2}".prop_map(String::into_bytes),
        prop::collection::vec(any::<u8>().prop_filter("one line", |b| *b != b'\n'), 0..60),
    ]
}

fn any_uci_line() -> impl Strategy<Value = Vec<u8>> {
    let words = vec![
        "uci",
        "isready",
        "ucinewgame",
        "setoption",
        "position",
        "stop",
        "ponderhit",
        "debug",
        "fen",
        "eval",
    ];
    let arg = prop::collection::vec(any::<u8>().prop_filter("one line", |b| *b != b'\n'), 0..30);
    prop_oneof![
        (prop::sample::select(words), arg).prop_map(|(w, a)| [w.as_bytes(), b" ", &a].concat()),
        "position (startpos|fen [rnbqkpRNBQKP0-9/ wbKQkqAH-]{0,70})( moves( [a-h][1-8][a-h][1-8][qrbn]?){0,6})?"
            .prop_map(String::into_bytes),
        "setoption name (UCI_Variant|Hash|Threads|VariantPath|Nonsense) value [a-z0-9-]{0,12}".prop_map(String::into_bytes),
        "go perft [0-2]".prop_map(String::into_bytes),
        prop::collection::vec(any::<u8>().prop_filter("one line", |b| *b != b'\n'), 0..60),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// No input line makes either front end panic (a panic aborts the release binary).
    #[test]
    fn no_line_panics(xb in prop::collection::vec(any_xboard_line(), 0..40),
                      uc in prop::collection::vec(any_uci_line(), 0..30)) {
        let mut script = b"xboard\nprotover 2\nnew\nsd 1\nst 1\n".to_vec();
        for l in &xb {
            script.extend_from_slice(l);
            script.push(b'\n');
        }
        // `.` ends an edit left open (and is a no-op otherwise).
        script.extend_from_slice(b".\nping 99\n");
        prop_assert!(xboard_bytes(script).contains("pong 99"));
        let mut script = b"uci\n".to_vec();
        for l in &uc {
            script.extend_from_slice(l);
            script.push(b'\n');
        }
        script.extend_from_slice(b"isready\n");
        let out = SharedBuf::default();
        uci::run(Cursor::new(script), out.clone()).expect("session runs");
        prop_assert!(out.text().contains("readyok"));
    }
}

#[test]
fn uci_handshake() {
    insta::assert_snapshot!(uci("uci\nisready\n"));
}

#[test]
fn uci_search_from_start_and_fen() {
    let out = uci(
        "uci\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 3\n#wait 1\nisready\n\
         position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\ngo nodes 2000\n#wait 2\nisready\n\
         setoption name UCI_Variant value grant-acedrex\nposition startpos moves g1i3\ngo movetime 200\n#wait 3\nisready\n\
         position startpos\ngo wtime 3000 btime 3000 winc 100 binc 100 movestogo 20\n#wait 4\n",
    );
    let best: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best.len(), 4, "{out}");
    let legal = |variant: &str, fen: Option<&str>, moves: &[&str], m: &str| {
        let g = game(variant);
        let mut pos = fen.map_or_else(
            || Position::start(&g),
            |f| Position::from_fen(&g, f).unwrap(),
        );
        for t in moves {
            let mv = pos.parse_move(t).unwrap();
            pos.make(mv);
        }
        pos.parse_move(m.split(' ').next().unwrap()).is_ok()
    };
    assert!(legal("chess", None, &["e2e4", "e7e5"], best[0]), "{out}");
    assert!(legal(
        "chess",
        Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        &[],
        best[1]
    ));
    assert!(legal("grant-acedrex", None, &["g1i3"], best[2]), "{out}");
    assert!(legal("grant-acedrex", None, &[], best[3]), "{out}");
    let info = out
        .lines()
        .find(|l| l.starts_with("info depth 3 "))
        .expect("depth 3 info");
    for key in [
        " seldepth ",
        " score ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(key), "{info}");
    }
    let shape: String = no_info(&out)
        .lines()
        .map(|l| {
            if l.starts_with("bestmove") {
                "bestmove <engine>\n".into()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    insta::assert_snapshot!(shape);
}

#[test]
fn uci_stop_ends_the_search_at_once() {
    let out = uci("position startpos\ngo movetime 60000\nisready\nstop\nisready\n");
    assert!(
        most_nodes_reported(&out) < FAR_INTO_A_MINUTE,
        "`stop` did not end the search: {out}"
    );
    let shown = no_info(&out);
    let lines: Vec<&str> = shown
        .lines()
        .map(|l| {
            if l.starts_with("bestmove") {
                "bestmove"
            } else {
                l
            }
        })
        .collect();
    // `isready` is answered at once, so the second `readyok` may come before or after `bestmove`.
    assert_eq!(lines[0], "readyok", "{out}");
    assert_eq!(
        lines.iter().filter(|l| **l == "bestmove").count(),
        1,
        "{out}"
    );
    assert_eq!(lines.len(), 3, "{out}");
}

#[test]
fn uci_perft_divides_like_fairy_stockfish() {
    let out = uci(
        "position startpos moves e2e4\ngo perft 2\nsetoption name UCI_Variant value grande-acedrex\nposition startpos\ngo perft 1\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn uci_bad_input_is_reported_and_ignored() {
    let out = uci(
        "position startpos moves e2e4\nfen\nposition startpos moves e2e4 e7e9\nposition fen nonsense\nposition sideways\n\
         fen\nsetoption name UCI_Variant value nosuch\nsetoption name Hash value 0\nsetoption name Threads value x\n\
         setoption name Bogus value 1\nsetoption\nfoo bar\ngo depth x perft\ngo perft\n\u{80}\nfen\nisready\n",
    );
    insta::assert_snapshot!(out);
}

/// `eval` prints the static evaluation of the current position term by term, as info strings,
/// and the session goes on.
#[test]
fn uci_eval_traces_the_position() {
    let out = uci(
        "setoption name UCI_Variant value capablanca\nposition startpos moves e2e4\neval\nisready\n",
    );
    insta::assert_snapshot!(out);
}

#[test]
fn uci_variant_path_and_ponder() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/protocol/mini-acedrex.txt"
    );
    let out = uci(&format!(
        "setoption name VariantPath value {path}\nsetoption name UCI_Variant value mini-acedrex\nposition startpos\nfen\n\
         go ponder depth 2\nisready\nponderhit\n#wait 1\nisready\n"
    ));
    let out = no_info(&out);
    assert!(
        out.lines().filter(|l| l.starts_with("bestmove")).count() == 1,
        "{out}"
    );
    insta::assert_snapshot!(
        out.lines()
            .map(|l| if l.starts_with("bestmove") {
                "bestmove <engine>"
            } else {
                l
            })
            .collect::<Vec<_>>()
            .join("\n")
    );
}

// ---- Wild numbers, garbage, urgent commands, end of input -------------------------------------

/// Runs the `acedrex` binary on a script (`#wait N` as in [`Gated`]): what it printed, and
/// whether it exited with status 0.
fn binary(protocol: &str, script: &str, marker: &str) -> (String, bool) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_acedrex"))
        .arg(protocol)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("acedrex starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let seen = SharedBuf::default();
    let reader = {
        let mut seen = seen.clone();
        std::thread::spawn(move || std::io::copy(&mut stdout, &mut seen))
    };
    for line in script.lines() {
        if let Some(n) = line.strip_prefix("#wait ") {
            let n: usize = n.parse().expect("#wait N");
            let t = Instant::now();
            while seen
                .text()
                .lines()
                .filter(|l| l.starts_with(marker))
                .count()
                < n
            {
                assert!(t.elapsed() < WATCHDOG, "no {marker} {n}: {}", seen.text());
                std::thread::sleep(Duration::from_millis(2));
            }
            continue;
        }
        // The engine may have quit already: a closed pipe is its business.
        let _ = writeln!(stdin, "{line}");
    }
    drop(stdin);
    let status = child.wait().expect("acedrex ends");
    reader.join().expect("reader").expect("output read");
    (seen.text(), status.success())
}

/// Hides what depends on the machine: whether a 64 GB table could be had.
fn no_memory_note(out: &str) -> String {
    out.lines()
        .filter(|l| !l.contains("not available"))
        .map(|l| format!("{l}\n"))
        .collect()
}

const XBOARD_WILD: &str = "xboard\nprotover 2\nmemory 99999999999\nmemory 0\nmemory -5\nmemory 12abc\nmemory 64\n\
    cores 99999999999999999999999999\ncores 0\ncores 1\nsd 99999999999\nsd -1\nsd 0\n\
    st 1e400\nst NaN\nst 0\nst 99999999999999999999\n\
    level 99999999999 99999999999:99 1e300\nlevel 40 -5 0\nlevel 40 5:99999999999999999999999 0\nlevel 0 2 0.5\n\
    time 99999999999999999999999999\notim -99999999999999999999999\ntime 12.5\ntime\notim 99999999999\n\
    foo 99999999999999999999\nusermove 99999999999\nsetboard 99999999999/8 w\nvariant 99999999999\n\
    \u{1}\u{7f}\nping \u{7}1\nping 1\n\
    new\nvariant normal\nsd 2\nusermove e2e4\n#wait 1\nping 2\nquit\n";

#[test]
fn xboard_wild_numbers_are_bounded_and_the_engine_plays_on() {
    // Each number out of range is refused (`Error (bad argument)`) or clamped with a `#` note;
    // `memory 99999999999` no longer aborts. Then the engine still plays and answers `ping`.
    let out = xboard_gated(XBOARD_WILD);
    assert!(out.ends_with("pong 2\n"), "{out}");
    insta::assert_snapshot!(redact_moves(&no_memory_note(&no_thinking(&out))));
    let (bin, ok) = binary("xboard", XBOARD_WILD, "move ");
    assert!(ok, "exit status: {bin}");
    assert!(bin.ends_with("pong 2\n"), "{bin}");
}

const UCI_WILD: &str = "uci\nsetoption name Hash value 99999999999\nsetoption name Hash value -1\n\
    setoption name Hash value 0\nsetoption name Hash value 1e9\nsetoption name Hash value 8\n\
    setoption name Threads value 99999999999999999999999\nsetoption name Threads value 0\nsetoption name Threads value 1\n\
    setoption name MultiPV value 99999999999\nsetoption name UCI_Variant value 99999999999\n\
    position startpos moves 99999999999\nposition fen 99999999999/8/8/8/8/8/8/8 w - - 0 1\n\
    go depth 99999999999 nodes 99999999999999999999999 movetime 99999999999999999999\nisready\nstop\n#wait 1\n\
    go wtime 99999999999999999999 btime -99999999999 winc 99999999999999999999 binc -5 movestogo 99999999999 depth 1\n#wait 2\n\
    go mate 99999999999 movestogo -3 wtime x\nstop\n#wait 3\n\
    go perft 99999999999\nisready\nstop\nisready\ngo perft 0\ngo perft -1\ngo perft 2\ngo depth 1\n#wait 4\n\
    \u{80}\u{1}\nisready\nquit\n";

#[test]
fn uci_wild_numbers_are_bounded_and_the_engine_plays_on() {
    let out = uci(UCI_WILD);
    assert!(out.ends_with("readyok\n"), "{out}");
    let best = |l: &str| {
        if l.starts_with("bestmove") {
            "bestmove <engine>".to_string()
        } else {
            l.to_string()
        }
    };
    let shown: Vec<String> = no_memory_note(&no_info(&out)).lines().map(best).collect();
    insta::assert_snapshot!(shown.join("\n"));
    let (bin, ok) = binary("uci", UCI_WILD, "bestmove");
    assert!(ok, "exit status: {bin}");
    assert!(bin.ends_with("readyok\n"), "{bin}");
}

/// XBoard output without the variant's `setup`/`piece` lines and thinking.
fn session_lines(out: &str) -> Vec<String> {
    no_thinking(out)
        .lines()
        .filter(|l| !l.starts_with("setup") && !l.starts_with("piece"))
        .map(str::to_string)
        .collect()
}

const LONG_SEARCH: &str = "new\nvariant grande-acedrex\nst 100000\nforce\ngo\n";
const GRANDE_START: &str =
    "# fen rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w Kk - 0 1";

#[test]
fn xboard_force_and_new_act_at_once_behind_queued_lines() {
    // `ping 1` waits for the move in progress; `force` behind it abandons the search at once (no
    // move), then the queue runs in order.
    let out = xboard(&format!("{LONG_SEARCH}ping 1\nforce\nping 2\nfen\n"));
    assert_eq!(
        session_lines(&out),
        ["pong 1", "pong 2", GRANDE_START],
        "{out}"
    );
    let out = xboard(&format!("{LONG_SEARCH}ping 1\nnew\nping 2\nfen\n"));
    assert_eq!(
        session_lines(&out),
        [
            "pong 1",
            "pong 2",
            "# fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ],
        "{out}"
    );
    // A search that a queued `go` starts is abandoned for the `force` queued behind it.
    let out = xboard(&format!("{LONG_SEARCH}ping 1\ngo\nforce\nping 2\nfen\n"));
    assert_eq!(
        session_lines(&out),
        ["pong 1", "pong 2", GRANDE_START],
        "{out}"
    );
}

#[test]
fn xboard_move_now_and_quit_act_at_once_behind_queued_lines() {
    let out = session_lines(&xboard(&format!("{LONG_SEARCH}ping 1\n?\nping 2\n")));
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(out[0].starts_with("move "), "{out:?}");
    assert_eq!(out[1..], ["pong 1", "pong 2"]);
    let script = format!("{LONG_SEARCH}ping 1\nquit\nping 2\n");
    let out = session_lines(&xboard(&script));
    assert!(out.is_empty(), "{out:?}");
    let (bin, ok) = binary("xboard", &script, "move ");
    assert!(
        ok && !bin.contains("pong") && !bin.contains("move "),
        "{bin}"
    );
}

#[test]
fn uci_stop_and_quit_act_at_once_behind_queued_lines() {
    // Lines behind a `go perft` wait for it, `stop` and `quit` do not.
    let out = uci("go perft 30\nisready\nposition startpos moves e2e4\nstop\nfen\nisready\n");
    assert_eq!(
        out,
        "info string perft stopped\nreadyok\n\
         info string fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\nreadyok\n"
    );
    let script = "go perft 30\nisready\nquit\nisready\n";
    assert_eq!(uci(script), "");
    let (bin, ok) = binary("uci", script, "bestmove");
    assert!(ok && bin.is_empty(), "{bin}");
}

#[test]
fn a_session_ends_when_its_input_ends_mid_search() {
    // Nobody is left to stop these searches: each is answered within the grace time.
    let out = session_lines(&xboard(LONG_SEARCH));
    assert!(out.len() == 1 && out[0].starts_with("move "), "{out:?}");
    let out = no_info(&uci("go depth 96\n"));
    assert!(out.starts_with("bestmove "), "{out}");
    let out = no_info(&uci("go infinite\n"));
    assert!(out.starts_with("bestmove "), "{out}");
}

#[test]
fn xboard_and_fairy_max_show_the_same_pieces() {
    // The `setup` line of `acedrex xboard` and the `Game:` line of `acedrex fmax` carry one
    // piece-to-char table, so XBoard draws the same pictures whichever engine defines a variant.
    let mut compared = 0;
    for name in acedrex::variant::builtin_names() {
        let v = acedrex::variant::builtin(name).expect("built-in");
        let table = acedrex::protocol::piece_to_char::PieceToChar::of(&v).table;
        // A variant XBoard knows gets `piece` lines only.
        let lines = xboard::setup_lines(&v);
        if let Some(setup) = lines.first().filter(|l| l.starts_with("setup ")) {
            let sent = setup
                .strip_prefix("setup (")
                .and_then(|s| s.split_once(')'))
                .map(|(t, _)| t);
            assert_eq!(sent, Some(table.as_str()), "{name}");
            compared += 1;
        }
        // Variants Fairy-Max cannot play have no block to compare.
        let Ok((ini, _)) = acedrex::fmax::export(std::slice::from_ref(&v)) else {
            continue;
        };
        let game = ini
            .lines()
            .find(|l| l.split(' ').nth(1) == Some(v.xboard_name.as_str()))
            .unwrap_or_else(|| panic!("{name}: no Game: line"));
        // XBoard knows `normal` itself: its block sends no table.
        if let Some(exported) = game.split(" # ").nth(1) {
            assert_eq!(exported, table, "{name}");
            compared += 1;
        }
    }
    assert!(compared >= 8, "{compared}");
}

/// Crazyhouse over XBoard: drops in both directions, holdings in `setboard`, and bughouse's
/// `holding` command, whose bad forms get errors while the session goes on.
#[test]
fn xboard_drops_and_holdings() {
    let out = xboard(
        "new\nvariant crazyhouse\nforce\n\
         setboard rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1\nfen\n\
         usermove P@d6\nfen\nusermove p@e2\nusermove P@e3\nP@d3\nfen\n\
         holding [QN] [p]\nfen\nholding [K] []\nholding QN\nvariant normal\nholding [Q] []\nfen\n",
    );
    insta::assert_snapshot!(out);
}

/// The engine drops when a drop is the only way out of check.
#[test]
fn xboard_engine_drops_to_block_a_check() {
    let out = xboard_gated(
        "new\nvariant crazyhouse\nforce\n\
         setboard 4k3/8/8/8/8/8/3PPP2/r3KB2[N] w - - 0 1\nsd 2\ngo\n#wait 1\n",
    );
    let mv = out
        .lines()
        .find_map(|l| l.strip_prefix("move "))
        .expect("a move");
    assert!(["N@b1", "N@c1", "N@d1"].contains(&mv), "{out}");
}

/// UCI drops as Fairy-Stockfish writes them, in `position` and in `bestmove`.
#[test]
fn uci_drops() {
    let out = uci("uci\nsetoption name UCI_Variant value crazyhouse\n\
         position fen 4k3/8/8/8/8/8/3PPP2/r3KB2[N] w - - 0 1\ngo depth 2\n#wait 1\n\
         position fen rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1 moves P@d6 p@e3\n\
         go depth 1\n#wait 2\nposition startpos moves P@e4\nquit\n");
    assert!(
        ["bestmove N@b1", "bestmove N@c1", "bestmove N@d1"]
            .iter()
            .any(|b| out.contains(b)),
        "{out}"
    );
    assert_eq!(out.matches("bestmove").count(), 2, "{out}");
    assert!(
        out.contains("info string error position command: `P@e4` is not legal here"),
        "the illegal drop is reported: {out}"
    );
}

#[test]
fn usi_speaks_shogi_coordinates_and_sfen() {
    let out = uci("usi\nisready\nusinewgame\n\
         position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e 5a4b 4e3d\ngo perft 1\nisready\n\
         position sfen lnsg1g1nl/1r3k1s1/pppppp1pp/6B2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w Pb 8\n\
         go depth 2\n#wait 1\nposition sfen 8k/9/9/9/9/9/9/9/K8 b - 1 moves 9i9h 1a1b\n\
         fen\nposition startpos moves 7g7f 7g7f\nquit\n");
    assert!(out.contains("usiok") && out.contains("readyok"), "{out}");
    // After the seven moves Black (gote) may drop its bishop, e.g. on 5e; Fairy-Stockfish counts
    // 75 moves here.
    assert!(
        out.contains("B*5e: 1") && out.contains("Nodes searched: 75"),
        "{out}"
    );
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove: {out}"));
    let best = best.split_whitespace().next().unwrap_or("");
    let b = best.as_bytes();
    assert!(
        (b.len() >= 4 && b[0].is_ascii_digit() && b[1].is_ascii_lowercase()) || best.contains('*'),
        "a USI move: {best}"
    );
    assert!(
        out.contains("info string fen 9/8k/9/9/9/9/9/K8/9[] w - - 2 2"),
        "{out}"
    );
    assert!(
        out.contains("info string error position command: `7g7f` is not legal here"),
        "{out}"
    );
}

/// A Lion Dog's move that takes two on its way comes and goes as its three legs, as HaChu writes
/// it (`f4f5,f5f6,f6f7`); more legs than a move can have is an illegal move, not a dead engine.
#[test]
fn xboard_three_leg_moves_of_the_lion_dog() {
    let fen = "6k6/13/13/13/13/13/5p7/5p7/5p7/5W!7/13/13/6K6 w - - 0 1";
    let out = xboard(&format!(
        "new\nvariant macadamia-shogi\nforce\nsetboard {fen}\nusermove f4f5,f5f6,f6f7,f7f8\n\
         usermove f4f5,f5f6,f6f7\nfen\n"
    ));
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("# fen") || l.starts_with("Illegal") || l.starts_with("Error"))
        .collect();
    assert_eq!(
        lines,
        [
            "Illegal move (not legal here): f4f5,f5f6,f6f7,f7f8",
            "# fen 6k6/13/13/13/13/13/5W!7/13/13/13/13/13/6K6 b - - 0 1",
        ],
        "{out}"
    );
}
