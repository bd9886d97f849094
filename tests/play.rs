//! `acedrex play` as a new user meets it: the library loop with scripted input (always), and the
//! real binary in a terminal through tmux (skipped with a message where tmux or the `play` command is
//! missing; under CI=true either fails).

mod common;

use acedrex::play::{ColorMode, PlayOptions, Seat, run};
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long the terminal harness waits for a screen before it fails instead of blocking the run. A
/// watchdog only: no test here asserts how long anything takes.
const WATCHDOG: Duration = Duration::from_secs(300);

fn session(opts: &PlayOptions, input: &str) -> String {
    let mut out = Vec::new();
    run(opts, false, &mut Cursor::new(input.as_bytes()), &mut out).expect("loop runs");
    String::from_utf8(out).expect("utf-8")
}

fn opts() -> PlayOptions {
    PlayOptions {
        level: 1,
        movetime: None,
        seed: Some(7),
        color: ColorMode::Never,
        hash_mb: 4,
        ..PlayOptions::default()
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("acedrex-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_game_against_the_engine() {
    let dir = temp_dir("loop");
    let pgn = dir.join("game.pgn");
    let input = format!(
        "moves g1\ng1g3\na4a6\nplease\nundo\nlegend\ng1g3\nsave {}\nquit\n",
        pgn.display()
    );
    let text = session(&opts(), &input);
    // The board with coordinates, White at the bottom.
    assert!(
        text.contains("     a  b  c  d  e  f  g  h  i  j  k  l\n"),
        "{text}"
    );
    assert!(
        text.contains(" 12  r  l  u  g  c  a  k  c  g  u  l  r  12"),
        "{text}"
    );
    assert!(
        text.contains("  1  R  L  U  G  C  A  K  C  G  U  L  R  1"),
        "{text}"
    );
    assert!(text.contains("Move 1, White to move."), "{text}");
    assert!(
        text.contains("The king on g1: g1e3 g1f2 g1g2 g1g3 g1h2 g1i3"),
        "{text}"
    );
    // The move, the engine's reply, the last move marked.
    assert!(text.contains("You play Kg3."), "{text}");
    assert!(text.contains("acedrex plays "), "{text}");
    assert!(text.contains("[ ] last move"), "{text}");
    // Wrong input: a clear message, and the game goes on.
    assert!(
        text.contains("Illegal move: `a4a6` is not legal here."),
        "{text}"
    );
    assert!(
        text.contains("Illegal move: `please` is not a move"),
        "{text}"
    );
    assert!(text.contains("Taken back."), "{text}");
    assert!(text.contains("  A  aanca        t[FR]"), "{text}");
    assert_eq!(
        text.matches("You play Kg3.").count(),
        2,
        "the move again after undo: {text}"
    );
    assert!(text.contains("Saved 2 plies to"), "{text}");
    assert!(text.trim_end().ends_with("Bye."), "{text}");
    let saved = std::fs::read_to_string(&pgn).expect("saved PGN");
    assert!(
        saved.contains("[Variant \"grande-acedrex\"]") && saved.contains("1. Kg3 "),
        "{saved}"
    );
    let games = acedrex::pgn::read_games(&saved, None).expect("reads back");
    assert_eq!(games[0].plies.len(), 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn playing_black_the_engine_opens() {
    let text = session(
        &PlayOptions {
            seat: Seat::Black,
            ..opts()
        },
        "flip\nquit\n",
    );
    assert!(text.contains("acedrex plays "), "{text}");
    assert!(text.contains("Your move (Black)>"), "{text}");
    // Black's view first (h-a), then White's after `flip`.
    let black_view = text
        .find("     l  k  j  i  h  g  f  e  d  c  b  a")
        .expect("black view");
    let white_view = text
        .find("     a  b  c  d  e  f  g  h  i  j  k  l")
        .expect("white view");
    assert!(black_view < white_view, "{text}");
}

#[test]
fn dice_turns_restrict_the_piece() {
    let mut o = PlayOptions {
        dice: true,
        ..opts()
    };
    // Find a seed whose first roll is not the pawn's, so that a pawn move must be refused.
    let seed = (0..50)
        .find(|&s| {
            o.seed = Some(s);
            let t = session(&o, "quit\n");
            t.contains("White rolls") && !t.contains("the pawn must move")
        })
        .expect("a seed rolling a piece");
    o.seed = Some(seed);
    let first = session(&o, "hint\nquit\n");
    let hint = first
        .split("Hint: ")
        .nth(1)
        .expect("hint")
        .split_whitespace()
        .next()
        .expect("move")
        .to_string();
    let text = session(&o, &format!("a4a5\nmoves a4\n{hint}\nquit\n"));
    assert!(text.contains(", with dice."), "{text}");
    assert!(text.contains("White rolls "), "{text}");
    assert!(text.contains("and a4a5 moves the pawn."), "{text}");
    assert!(text.contains("(but the die rolled "), "{text}");
    assert!(text.contains("You play "), "{text}");
    assert!(
        text.contains("Black rolls "),
        "the engine rolls too: {text}"
    );
}

#[test]
fn checkmate_is_announced_and_undo_resumes() {
    // White mates with Ra1-a12; Black keeps a pawn so that the bare-king rule does not end it first.
    let fen = "6k5/1R10/12/11p/12/12/12/12/12/12/12/R5K5 w - - 0 1";
    let o = PlayOptions {
        fen: Some(fen.into()),
        ..opts()
    };
    let text = session(&o, "a1a12\nb11b12\nundo\nmoves a1\nquit\n");
    assert!(
        text.contains("Game over: 1-0, White wins (checkmate)."),
        "{text}"
    );
    assert!(
        text.contains("The game is over (1-0, White wins (checkmate))."),
        "{text}"
    );
    assert!(text.contains("Taken back."), "{text}");
    assert!(text.contains("The rook on a1: "), "{text}");
}

#[test]
fn two_players_and_end_of_input() {
    let o = PlayOptions {
        seat: Seat::Both,
        ..opts()
    };
    let text = session(&o, "g1g3\ng12g10\nfen\n");
    assert!(
        text.contains("White plays Kg3.") && text.contains("Black plays Kg10."),
        "{text}"
    );
    assert!(!text.contains("acedrex plays"), "{text}");
    assert!(text.contains("rlugca1cgulr/12/6k5/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/6K5/12/RLUGCA1CGULR w - - 2 2"), "{text}");
}

#[test]
fn colour_follows_the_terminal_and_no_color() {
    assert!(!ColorMode::Never.enabled(true));
    assert!(ColorMode::Always.enabled(false));
    assert!(!ColorMode::Auto.enabled(false), "never colour a pipe");
    let mut out = Vec::new();
    run(&opts(), true, &mut Cursor::new(&b"quit\n"[..]), &mut out).unwrap();
    assert!(String::from_utf8(out).unwrap().contains("\x1b[48;5;"));
}

// ---- the real binary in tmux ---------------------------------------------------------------------

/// A private tmux server (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn start(&self, name: &str, command: &str) {
        // The shell keeps the pane open after the program ends, so its last words stay readable.
        let line = format!("{command}; echo EXITED $?; sleep 60");
        self.cmd(&[
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            "200",
            "-y",
            "60",
            &line,
        ]);
    }

    fn send(&self, name: &str, keys: &str) {
        self.cmd(&["send-keys", "-t", name, "-l", keys]);
        self.cmd(&["send-keys", "-t", name, "Enter"]);
    }

    /// The pane with its scrollback, plain text.
    fn screen(&self, name: &str) -> String {
        self.cmd(&["capture-pane", "-p", "-J", "-S", "-3000", "-t", name])
    }

    fn wait_for(&self, name: &str, what: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen(name);
            if s.contains(what) {
                return s;
            }
            assert!(
                start.elapsed() < WATCHDOG,
                "timed out waiting for {what:?}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.cmd(&["kill-server"]);
    }
}

fn binary_plays(bin: &Path) -> bool {
    Command::new(bin)
        .args(["play", "--help"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn terminal_session_in_tmux() {
    let test = "terminal_session_in_tmux";
    if !common::need_program(test, "tmux", &["-V"], "apt-get install -y tmux") {
        return;
    }
    // ACEDREX_BIN tries another build (say a release binary) in the same terminal session.
    let bin = std::env::var_os("ACEDREX_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_acedrex")),
        PathBuf::from,
    );
    let bin = bin.as_path();
    if !common::need(
        test,
        binary_plays(bin),
        &format!("the `play` command of {}", bin.display()),
        "build a binary with `play`",
    ) {
        return;
    }
    let dir = temp_dir("tmux");
    let pgn = dir.join("t.pgn");
    let tmux = Tmux {
        socket: format!("acedrex-test-{}", std::process::id()),
    };
    let bin = bin.display();

    tmux.start("plain", &format!("unset NO_COLOR; {bin} play --level 1"));
    let s = tmux.wait_for("plain", "Your move (White)>");
    assert!(
        s.contains("acedrex play: grant-acedrex (12x12). You play White against acedrex."),
        "{s}"
    );
    assert!(s.contains("     a  b  c  d  e  f  g  h  i  j  k  l"), "{s}");
    assert!(s.contains("Move 1, White to move."), "{s}");
    // Colour on a terminal: tmux keeps the attributes it was sent.
    let coloured = tmux.cmd(&["capture-pane", "-p", "-e", "-t", "plain"]);
    assert!(
        coloured.contains("\x1b["),
        "the board is coloured on a terminal"
    );

    tmux.send("plain", "g1g3");
    tmux.wait_for("plain", "acedrex plays ");
    tmux.wait_for("plain", "Move 2, White to move; last move");
    tmux.send("plain", "a4a6");
    tmux.wait_for("plain", "Illegal move: `a4a6` is not legal here.");
    tmux.send("plain", "undo");
    tmux.wait_for("plain", "Taken back.");
    tmux.send("plain", "c4c5");
    tmux.wait_for("plain", "You play c5.");
    tmux.send("plain", &format!("save {}", pgn.display()));
    tmux.wait_for("plain", "Saved 2 plies to");
    tmux.send("plain", "quit");
    tmux.wait_for("plain", "EXITED 0");
    let saved = std::fs::read_to_string(&pgn).expect("the game was saved");
    assert!(saved.contains("1. c5 "), "{saved}");

    // A dice game: the roll is shown; the hint respects it and is played. NO_COLOR: no colours, the
    // board as plain text.
    tmux.start("dice", &format!("NO_COLOR=1 {bin} play --dice --level 1"));
    let s = tmux.wait_for("dice", "Your move (White)>");
    assert!(
        s.contains("White rolls ") && s.contains("must move."),
        "{s}"
    );
    assert!(
        s.contains(" 12  r  l  u  g  c  a  k  c  g  u  l  r  12"),
        "{s}"
    );
    let plain = tmux.cmd(&["capture-pane", "-p", "-e", "-t", "dice"]);
    assert!(
        !plain.contains("48;5;"),
        "NO_COLOR leaves the board uncoloured: {plain:?}"
    );
    tmux.send("dice", "hint");
    let s = tmux.wait_for("dice", "Hint: ");
    let hint = s
        .split("Hint: ")
        .nth(1)
        .and_then(|h| h.split_whitespace().next())
        .expect("hint move")
        .to_string();
    tmux.send("dice", &hint);
    tmux.wait_for("dice", "You play ");
    tmux.wait_for("dice", "Black rolls ");
    tmux.send("dice", "quit");
    tmux.wait_for("dice", "EXITED 0");
    std::fs::remove_dir_all(&dir).ok();
}
