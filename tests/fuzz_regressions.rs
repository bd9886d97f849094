//! Inputs the fuzz targets (fuzz/, see the README's "Fuzzing") found to crash, hang or exhaust
//! memory; each is kept as a file under tests/fuzz/ and must now be handled.

use acedrex::betza;
use acedrex::legs;
use acedrex::tables::exec;

fn input(path: &str) -> String {
    let full = format!("{}/tests/fuzz/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// 18 legs joined by `a`: the step compiler expands every direction of every leg, and ran out of
/// memory; 8 legs of a knight took a minute. The parser now stops at `betza::MAX_LEGS` with a
/// positioned error.
#[test]
fn betza_too_many_legs_is_an_error_not_an_explosion() {
    let text = input("betza/legs-18.txt");
    let e = betza::parse(&text).expect_err("18 legs are refused");
    assert!(e.message.contains("too many legs"), "{e}");
    assert_eq!(
        e.offset,
        1 + 1 + betza::MAX_LEGS - 1,
        "points at the `a` that would start one leg too many: {e}"
    );
    let e = betza::parse(&input("betza/knight-8-legs.txt")).expect_err("8 legs are refused");
    assert_eq!(e.offset, betza::MAX_LEGS - 1, "{e}");

    let most = format!("W{}D", "fa".repeat(betza::MAX_LEGS - 1));
    let tree = betza::parse(&most).expect("MAX_LEGS legs parse");
    legs::compile(&tree).expect("and compile");

    let bracket = format!("[{}W]", "W-".repeat(betza::MAX_LEGS));
    let e = betza::parse(&bracket).expect_err("too many bracket legs are refused");
    assert!(e.message.contains("too many legs"), "{e}");
}

/// A chain of five sliding legs: (8·side)^legs walks. Listing them all ran out of memory; past a
/// budget the piece's attacks now come from the move generator, and the program still builds.
#[test]
fn betza_chain_of_sliders_compiles_in_bounded_memory() {
    let tree = betza::parse(&input("betza/sliders-5-legs.txt")).expect("parses");
    let paths = legs::compile(&tree).expect("compiles to legs");
    for side in [8, 16] {
        let program = exec::program(&paths, false, side, side);
        assert!(
            program.may_duplicate,
            "an unlisted piece deduplicates its moves"
        );
        let table = exec::attack_table(&paths, false, side, side);
        assert!(table.by_generation && table.instances.is_empty());
    }
}

/// A Muller bracket with the tame modality outside: printed as `ct[W?W]`, which reads as Betza's
/// `t[..]` form and fails. The printer now writes the `t` first (`tc[W?W]`).
#[test]
fn betza_tame_bracket_prints_back_to_the_same_tree() {
    for text in [
        input("betza/tame-before-bracket.txt"),
        "tf[W?W]".into(),
        "tmc[F-R]".into(),
        "tt[FR]".into(),
    ] {
        let tree = betza::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let printed = tree.to_string();
        let again = betza::parse(&printed).unwrap_or_else(|e| panic!("{text} → {printed}: {e}"));
        assert_eq!(again, tree, "{text} → {printed}");
    }
}

// ---- protocol sessions (fuzz/src/session.rs builds them) ----------------------------------------

use acedrex::protocol::{Config, Protocol, SharedBuf};
use std::io;

/// Runs `text` as a whole session and returns the engine's output.
fn session(protocol: Protocol, text: &str) -> String {
    let sink = SharedBuf::default();
    let input = io::Cursor::new(text.as_bytes().to_vec());
    acedrex::protocol::run(protocol, input, sink.clone(), &Config::default())
        .expect("the session ends cleanly");
    sink.text()
}

/// A GUI's hash setting far beyond any machine: `memory 1099511627776` (2^40 MB) asks
/// `Engine::set_hash` for 2^60 bytes, the allocation fails and the process aborts; larger counts
/// overflow the size (`capacity overflow` panic). The protocol now bounds the argument.
#[test]
fn xboard_absurd_memory_is_refused_and_the_engine_answers_ping() {
    let out = session(
        Protocol::Xboard,
        &input("protocol/xboard-memory-2pow40.txt"),
    );
    assert!(out.lines().any(|l| l == "pong 1"), "{out}");
}

/// `go mate N` asks for 2N plies: for N = 2^32 - 1 that overflows (a panic with overflow checks,
/// a wrapped depth without). The protocol now bounds the count.
#[test]
fn uci_go_mate_with_a_huge_count_does_not_overflow() {
    let out = session(Protocol::Uci, &input("protocol/uci-go-mate-huge.txt"));
    assert!(out.lines().any(|l| l == "readyok"), "{out}");
}

/// A ray whose step reaches 300 ranks (`4917,7`): the importer's direction lookup cast the offset
/// to `i8` and found no direction (`expect("oblique")` panicked). Such a ray is now reported.
#[test]
fn fmax_import_of_a_step_beyond_the_board_is_reported() {
    let (_, skipped) = acedrex::fmax::import(&input("fmax/long-step.ini"));
    assert!(
        skipped
            .iter()
            .any(|s| s.contains("a step longer than any board")),
        "{skipped:?}"
    );
    let (_, skipped) = acedrex::fmax::import(
        "Game: tall\n8x8\n4 2 3 5 6 3 2 4\n4 2 3 5 6 3 2 4\np:100 -16,6 -15,5 -17,5\np:100 16,6 15,5 17,5\nn:300 4917,7\nb:300 17,3\nr:500 16,3\nq:900 16,3 17,3\nk:-1 1,7 16,7\n",
    );
    assert_eq!(
        skipped,
        // Black's view of the ray is met first.
        ["tall: piece N (type 3): ray -4917,7: a step longer than any board"]
    );
}

/// A ray with step 0 (`0,7`): the direction lookup found no compass direction for (0,0)
/// (`expect("non-zero")` panicked). Such a ray is now reported.
#[test]
fn fmax_import_of_a_zero_step_is_reported() {
    let (_, skipped) = acedrex::fmax::import(&input("fmax/zero-step.ini"));
    assert!(
        skipped
            .iter()
            .any(|s| s.contains("a step that goes nowhere")),
        "{skipped:?}"
    );
}

/// A halfmove clock beyond what the position keeps (`- 71996`) is held at its largest value, and a
/// move from there overflowed it: the clock now stays at its largest value.
#[test]
fn a_huge_halfmove_clock_does_not_overflow() {
    let text = input("fen/halfmove-71996.txt");
    let game = acedrex::game::Game::new(acedrex::variant::builtin("chess").unwrap());
    let mut pos = acedrex::position::Position::from_fen(&game, &text).expect("loads");
    let moves = pos.legal_moves();
    assert!(!moves.is_empty());
    for m in moves {
        pos.make(m);
        assert!(pos.halfmove_clock() == 0 || pos.halfmove_clock() == u16::MAX);
        pos.unmake();
    }
    pos.make_null();
    assert_eq!(pos.halfmove_clock(), u16::MAX);
    pos.unmake_null();
}
