//! Shuffled starts and Chess960 castling: fischerandom's and caparandom's start arrangements, their
//! FEN rights, and castling as each front end writes and reads it.

mod common;

use acedrex::position::Position;
use acedrex::protocol::{SharedBuf, uci, xboard};
use acedrex::setup::Setup;
use acedrex::variant::parse_variant;
use common::game;
use std::io::Cursor;

/// The only legal move is White's king-side castling, the king staying on its file: g1 and h1
/// (Fairy-Stockfish 11.1 `go perft 1`: `g1h1` alone).
const ONLY_CASTLING: &str = "k7/8/b7/8/4n3/7p/7P/6KR w H - 0 1";

#[test]
fn fischerandom_starts_are_scharnagls_960() {
    let g = game("fischerandom");
    let v = &g.variant;
    let shuffle = v.shuffle.as_ref().expect("fischerandom shuffles");
    assert_eq!(shuffle.count(), 960);
    let fen = |n| {
        Position::from_setup(&g, &v.start_arrangement(n).unwrap())
            .unwrap()
            .fen()
    };
    assert_eq!(
        fen(518),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
    assert_eq!(fen(518), Position::start(&g).fen());
    assert_eq!(
        fen(0),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    );
    assert_eq!(
        fen(959),
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1"
    );
    assert!(v.start_arrangement(960).is_err());
    let mut seen = std::collections::BTreeSet::new();
    for n in 0..960 {
        let setup = v.start_arrangement(n).unwrap();
        let pos = Position::from_setup(&g, &setup).unwrap();
        let text = pos.fen();
        // The rights name both rooks of each side; the FEN reads back to itself.
        let rank: String = text.split('/').next_back().unwrap()[..8].to_string();
        let rooks: String = rank
            .char_indices()
            .filter(|&(_, c)| c == 'R')
            .map(|(i, _)| (b'A' + i as u8) as char)
            .rev()
            .collect();
        let rights = format!("{rooks}{}", rooks.to_ascii_lowercase());
        assert_eq!(text.split(' ').nth(2), Some(rights.as_str()), "{n}: {text}");
        assert_eq!(Position::from_fen(&g, &text).unwrap().fen(), text);
        assert_eq!(shuffle.number_of(&setup), Some(n));
        assert!(seen.insert(rank), "{n} repeats an arrangement");
    }
}

#[test]
fn caparandom_starts_keep_their_colours() {
    let g = game("caparandom");
    let v = &g.variant;
    assert_eq!(v.shuffle.as_ref().unwrap().count(), 48_000);
    assert_eq!(
        Position::start(&g).fen(),
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w JAja - 0 1"
    );
    for seed in 0..200 {
        let s = v.random_start(seed);
        let rank: Vec<char> = (0..10).map(|f| s.get((f, 0)).unwrap().letter).collect();
        let at = |c| rank.iter().position(|&x| x == c).unwrap();
        let last = |c| rank.iter().rposition(|&x| x == c).unwrap();
        assert_ne!(at('B') % 2, last('B') % 2, "{rank:?}");
        assert_ne!(at('Q') % 2, at('A') % 2, "{rank:?}");
        assert!(at('R') < at('K') && at('K') < last('R'), "{rank:?}");
        for f in 0..10 {
            assert_eq!(s.get((f, 7)).unwrap().letter, rank[f as usize]);
        }
        Position::from_setup(&g, &s).unwrap();
    }
}

#[test]
fn rights_read_as_kqkq_shredder_and_x_fen() {
    let g = game("fischerandom");
    // Rooks on b1 and h1, king g1: K and Q are the outermost rooks, as XBoard means them.
    for fen in [
        "1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1",
        "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
        "1r4kr/8/8/8/8/8/8/1R4KR w KBkb - 0 1",
    ] {
        let mut pos = Position::from_fen(&g, fen).unwrap();
        assert_eq!(pos.fen(), "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", "{fen}");
        let mut castles: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.kind() == acedrex::position::MoveKind::Castle)
            .map(|m| pos.move_text(m))
            .collect();
        castles.sort();
        assert_eq!(castles, ["g1b1", "g1h1"], "{fen}");
    }
    // Castling queen side puts the king on c1 and the rook on d1; the king's landing square names
    // the move too, and the rights of the side that castled are gone.
    let mut pos = Position::from_fen(&g, "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1").unwrap();
    let m = pos.parse_move("g1b1").unwrap();
    assert_eq!(pos.parse_move("g1c1").unwrap(), m);
    pos.make(m);
    assert_eq!(pos.fen(), "1r4kr/8/8/8/8/8/8/2KR3R b hb - 1 1");
    pos.unmake();
    assert_eq!(pos.fen(), "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1");
}

fn uci_session(script: &str) -> String {
    let out = SharedBuf::default();
    uci::run(Cursor::new(script.as_bytes().to_vec()), out.clone()).expect("session runs");
    out.text()
}

fn xboard_session(script: &str) -> String {
    let out = SharedBuf::default();
    xboard::run(Cursor::new(script.as_bytes().to_vec()), out.clone()).expect("session runs");
    out.text()
}

#[test]
fn uci_writes_castling_as_the_king_taking_its_rook() {
    let out = uci_session(&format!(
        "uci\nsetoption name UCI_Variant value fischerandom\nposition fen {ONLY_CASTLING}\ngo depth 1\n"
    ));
    assert!(
        out.contains("option name UCI_Chess960 type check default false"),
        "{out}"
    );
    assert!(out.contains("bestmove g1h1"), "{out}");
    // UCI_Chess960 gives chess its Chess960 castling, as GUIs play Chess960 with chess engines.
    let out = uci_session(&format!(
        "uci\nsetoption name UCI_Chess960 value true\nposition fen {}\ngo depth 1\n",
        ONLY_CASTLING.replace(" H ", " K ")
    ));
    assert!(out.contains("bestmove g1h1"), "{out}");
    let out = uci_session(
        "uci\nsetoption name UCI_Chess960 value true\nposition startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1\ngo perft 1\n",
    );
    assert!(out.contains("Nodes searched: 29"), "{out}");
    let out = uci_session("uci\nsetoption name UCI_Chess960 value maybe\nquit\n");
    assert!(out.contains("UCI_Chess960 must be true or false"), "{out}");
}

#[test]
fn xboard_castles_as_o_o() {
    let out = xboard_session(&format!(
        "xboard\nprotover 2\nvariant fischerandom\nsetboard {ONLY_CASTLING}\nsd 1\ngo\n"
    ));
    assert!(out.contains("move O-O\n"), "{out}");
    // XBoard sends O-O-O: the king goes b1 to c1, the rook a1 to d1, which may then step to e1.
    let out = xboard_session(
        "xboard\nprotover 2\nvariant fischerandom\nsetboard rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1\nforce\n\
         usermove O-O-O\nusermove a7a6\nusermove d1e1\nusermove O-O\nusermove O-O\nquit\n",
    );
    let illegal: Vec<&str> = out.lines().filter(|l| l.starts_with("Illegal")).collect();
    // Black castles king side; White, castled already, may not castle again.
    assert_eq!(illegal, ["Illegal move (not legal here): O-O"], "{out}");
}

#[test]
fn the_command_line_starts_from_an_arrangement() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_acedrex"))
        .args(["show", "--variant", "fischerandom", "--shuffle", "0"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"),
        "{text}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_acedrex"))
        .args(["show", "--variant", "chess", "--shuffle", "3"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no `start-shuffle`"));
}

#[test]
fn bad_shuffles_are_reported() {
    let errors = |body: &str| -> String {
        let text = format!("variant x\ninherit chess\n{body}\n");
        match parse_variant("x.txt", &text) {
            Ok(_) => String::new(),
            Err(d) => d
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        }
    };
    assert!(errors("start-shuffle BQNRK opposite-colours B between K R").is_empty());
    assert!(
        errors("start-shuffle BQZ").contains("`Z` in the start-shuffle is not a declared piece")
    );
    assert!(
        errors("start-shuffle BQN opposite-colours R")
            .contains("expected each rule to name shuffled kinds")
    );
    assert!(errors("start-shuffle BQ opposite-colours Q").contains("odd number of pieces"));
    assert!(errors("start-shuffle BQNRK nearby K R").contains("unexpected `nearby`"));
    assert!(errors("start-shuffle BP").contains("stands nowhere on White's back rank"));
    assert!(
        errors("castling-partner everywhere").contains("unknown castling partner `everywhere`")
    );
    let start = Setup::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBRN w - - 0 1").unwrap();
    let text = format!(
        "variant x\ninherit chess\nstart {}\nstart-shuffle N\n",
        start.fen()
    );
    let d = parse_variant("x.txt", &text).unwrap_err();
    assert!(
        d[0].to_string().contains("back ranks differ on the h file"),
        "{}",
        d[0]
    );
}

#[test]
fn xboard_edit_mode_gives_back_rank_kings_and_rooks_their_rights() {
    let out = xboard_session(
        "xboard\nprotover 2\nvariant fischerandom\nforce\nedit\n#\nKb1\nRa1\nRh1\nc\nKg8\nRf8\n.\nfen\n",
    );
    assert!(out.contains("5rk1/8/8/8/8/8/8/RK5R w HAf - 0 1"), "{out}");
}

#[test]
fn san_names_castling_by_the_rooks_side() {
    let g = game("fischerandom");
    let mut pos = Position::from_fen(&g, "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1").unwrap();
    for (text, san) in [("g1h1", "O-O"), ("g1b1", "O-O-O")] {
        let m = pos.parse_move(text).unwrap();
        assert_eq!(acedrex::pgn::san(&mut pos, m), san);
        assert_eq!(acedrex::pgn::parse_san(&mut pos, san).unwrap(), m);
    }
}

#[test]
fn selfplay_games_start_from_shuffled_arrangements() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_acedrex"))
        .args(["selfplay", "2", "--variant", "fischerandom", "--depth", "1"])
        .output()
        .unwrap();
    let pgn = String::from_utf8_lossy(&out.stdout);
    let fens: Vec<&str> = pgn
        .lines()
        .filter_map(|l| l.strip_prefix("[FEN \""))
        .collect();
    assert_eq!(fens.len(), 2, "{pgn}");
    assert_ne!(fens[0], fens[1]);
    let g = game("fischerandom");
    for f in fens {
        let setup = Setup::parse(f.trim_end_matches("\"]")).unwrap();
        assert!(
            g.variant
                .shuffle
                .as_ref()
                .unwrap()
                .number_of(&setup)
                .is_some(),
            "{f}"
        );
    }
}
