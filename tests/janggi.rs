//! The janggi family: palace diagonals (`along`), the cannon that neither hops over nor takes a
//! cannon (`no-jump-over`, `no-capture`), the pass, bikjang and material counting, each as the four
//! Fairy-Stockfish rule sets play them. Positions marked "Fairy-Stockfish" were played through
//! Fairy-Stockfish 11.1 (`go perft 1` lists the same moves; after a game end it lists none, and
//! `go depth 4` reports the result); their perft is in tests/perft/janggi*.epd.

mod common;

use acedrex::game::Game;
use acedrex::rules::Winner;
use acedrex::search::Score;
use acedrex::variant::builtin;
use common::{assert_positioned_errors, game, legal_texts, play, search_depth4, search_fen};
use std::sync::Arc;

const FAMILY: [&str; 4] = [
    "janggi",
    "janggitraditional",
    "janggimodern",
    "janggicasual",
];

fn moves_after(g: &Arc<Game>, fen: &str, played: &str) -> Vec<String> {
    legal_texts(&mut play(g, fen, played))
}

fn end_after(g: &Arc<Game>, fen: &str, played: &str) -> Option<(Winner, &'static str)> {
    play(g, fen, played)
        .game_end()
        .map(|e| (e.winner, e.reason))
}

const START: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
/// The generals face each other on the e-file; White has a soldier more (Fairy-Stockfish).
const FACING: &str = "4k4/9/9/9/9/9/P8/9/4K4/9 w - - 0 1";

#[test]
fn the_pass_is_the_generals_move_to_its_own_square() {
    for v in FAMILY {
        let list = moves_after(&game(v), START, "");
        assert_eq!(list.len(), 32, "{v}: Fairy-Stockfish's 32");
        assert!(list.contains(&"e2e2".to_string()), "{v}: {list:?}");
    }
}

#[test]
fn no_pass_in_check() {
    // Fairy-Stockfish: the general steps away, it does not pass.
    let fen = "4k4/9/9/9/9/4r4/9/9/4K4/9 w - - 0 1";
    for v in FAMILY {
        let list = moves_after(&game(v), fen, "");
        assert_eq!(
            list,
            ["e2d1", "e2d2", "e2d3", "e2f1", "e2f2", "e2f3"],
            "{v}"
        );
    }
}

#[test]
fn two_passes_end_the_game_by_counting_or_drawn() {
    // Equal material: counting gives the game to Black (Han's bonus), else a draw (Fairy-Stockfish).
    let want = [
        ("janggi", Winner::Black),
        ("janggitraditional", Winner::Draw),
        ("janggimodern", Winner::Black),
        ("janggicasual", Winner::Draw),
    ];
    for (v, winner) in want {
        let g = game(v);
        assert_eq!(end_after(&g, START, "e2e2"), None, "{v}");
        assert_eq!(
            end_after(&g, START, "e2e2 e9e9"),
            Some((winner, "both sides passed")),
            "{v}"
        );
        assert!(moves_after(&g, START, "e2e2 e9e9").is_empty(), "{v}");
        // A move between the passes keeps the game going.
        assert_eq!(end_after(&g, START, "e2e2 a7a6 e2e2"), None, "{v}");
    }
}

#[test]
fn facing_generals_must_part_or_pass_under_bikjang() {
    for v in ["janggi", "janggitraditional"] {
        let list = moves_after(&game(v), FACING, "");
        // Fairy-Stockfish: neither the soldier nor the general on its file may leave them facing.
        assert_eq!(
            list,
            ["e2d1", "e2d2", "e2d3", "e2e2", "e2f1", "e2f2", "e2f3"],
            "{v}"
        );
    }
    for v in ["janggimodern", "janggicasual"] {
        let list = moves_after(&game(v), FACING, "");
        assert_eq!(list.len(), 11, "{v}: every move, {list:?}");
    }
}

#[test]
fn a_pass_under_bikjang_ends_the_game() {
    // White's soldier: 2 points against Black's bonus 1 (Fairy-Stockfish: mate for White).
    let want = [
        ("janggi", Some((Winner::White, "bikjang"))),
        ("janggitraditional", Some((Winner::Draw, "bikjang"))),
        ("janggimodern", None),
        ("janggicasual", None),
    ];
    for (v, result) in want {
        assert_eq!(end_after(&game(v), FACING, "e2e2"), result, "{v}");
    }
    // Creating the facing is no end: the other side may still part them.
    let g = game("janggi");
    let fen = "3k5/9/9/9/9/9/P8/9/4K4/9 b - - 0 1";
    assert_eq!(end_after(&g, fen, "d10e10"), None);
    assert!(moves_after(&g, fen, "d10e10").contains(&"e2f2".to_string()));
}

#[test]
fn a_pass_under_bikjang_is_allowed_in_check() {
    // The elephant on c7 checks e10 while the generals face each other (Fairy-Stockfish).
    let fen = "3k5/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1";
    let g = game("janggi");
    assert_eq!(
        moves_after(&g, fen, "c1e4 d10e10 e4c7"),
        ["e10d10", "e10e10", "e10f10"]
    );
    let casual = game("janggicasual");
    assert_eq!(
        moves_after(&casual, fen, "c1e4 d10e10 e4c7"),
        ["e10d10", "e10e9", "e10f10"]
    );
}

#[test]
fn the_move_count_ends_by_counting() {
    // White has a chariot more; 99 plies without a capture, then one more.
    let fen = "3k5/9/9/9/9/9/9/9/4K4/R8 w - - 99 80";
    let want = [
        ("janggi", Some((Winner::White, "move count"))),
        ("janggitraditional", Some((Winner::Draw, "move count"))),
        ("janggimodern", None),
        ("janggicasual", Some((Winner::Draw, "move count"))),
    ];
    for (v, result) in want {
        assert_eq!(end_after(&game(v), fen, "a1a2"), result, "{v}");
    }
    // Modern rules count at 200 plies.
    let fen = "3k5/9/9/9/9/9/9/9/4K4/R8 w - - 199 130";
    assert_eq!(
        end_after(&game("janggimodern"), fen, "a1a2"),
        Some((Winner::White, "move count"))
    );
    let fen = "3k5/9/9/9/9/9/P8/9/4K4/9 w - - 99 80";
    assert_eq!(
        end_after(&game("janggi"), fen, "a4b4"),
        Some((Winner::White, "move count"))
    );
    let fen = "3k5/9/9/9/9/9/9/9/4K4/4A4 w - - 99 80";
    assert_eq!(
        end_after(&game("janggi"), fen, "e1d1"),
        Some((Winner::White, "move count")),
        "a guard is 3 points"
    );
    let fen = "3k5/9/9/9/9/9/9/9/4K4/9 w - - 99 80";
    assert_eq!(
        end_after(&game("janggi"), fen, "e2e1"),
        Some((Winner::Black, "move count"))
    );
}

#[test]
fn palace_diagonals() {
    let g = game("janggi");
    // The cannon on d1 hops the guard on e2 along the diagonal and takes the horse on f3.
    let list = moves_after(&g, "3k5/9/9/9/9/9/9/5n3/4A4/3CK4 w - - 0 1", "");
    assert!(list.contains(&"d1f3".to_string()), "{list:?}");
    // The guard on e2 steps to the palace corners, the general on e1 (no diagonal there) does not.
    let list = moves_after(&g, "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "");
    assert!(list.contains(&"e2d3".to_string()) && list.contains(&"e2f3".to_string()));
    assert!(!list.contains(&"e1d2".to_string()) && !list.contains(&"e1f2".to_string()));
    // The chariot slides d1-e2-f3 and no further.
    let list = moves_after(&g, "5k3/9/9/9/9/9/9/9/9/3RK4 w - - 0 1", "");
    assert!(list.contains(&"d1e2".to_string()) && list.contains(&"d1f3".to_string()));
    assert!(!list.contains(&"d1g4".to_string()), "{list:?}");
    // A soldier in the enemy palace steps diagonally forward along the lines only.
    let list = moves_after(&g, "3k5/9/3P5/9/9/9/9/9/9/5K3 w - - 0 1", "");
    assert_eq!(
        list.iter().filter(|m| m.starts_with("d8")).count(),
        4,
        "{list:?}"
    );
    assert!(list.contains(&"d8e9".to_string()));
}

#[test]
fn the_cannon_neither_hops_over_nor_takes_a_cannon() {
    let g = game("janggi");
    // Over an enemy cannon on the diagonal: no move to f3.
    let list = moves_after(&g, "3k5/9/9/9/9/9/9/5n3/4c4/3C1K3 w - - 0 1", "");
    assert!(!list.contains(&"d1f3".to_string()), "{list:?}");
    // The soldier screens the e-file, but the cannon on e5 may not be taken.
    let list = moves_after(&g, "3k5/9/9/9/9/4c4/9/9/4P4/4CK3 w - - 0 1", "");
    assert!(list.contains(&"e1e4".to_string()), "{list:?}");
    assert!(!list.contains(&"e1e5".to_string()), "{list:?}");
    // Nor does a cannon give check over a cannon: Black's general is not in check.
    let pos = play(&g, "4k4/9/9/9/9/9/4c4/9/9/3KC4 b - - 0 1", "");
    assert!(!pos.in_check());
    let pos = play(&g, "4k4/9/9/9/9/9/4r4/9/9/3KC4 b - - 0 1", "");
    assert!(pos.in_check(), "over a chariot it does");
}

#[test]
fn search_sees_the_counting_pass() {
    // After White's pass, Black's pass ends the game won for Black (Fairy-Stockfish: mate 1, e9e9).
    let g = game("janggi");
    let fen = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 1 1";
    let pos = play(&g, START, "e2e2");
    assert_eq!(pos.fen(), fen);
    assert_eq!(search_depth4(&pos), (Score::Mate(1), "e9e9".to_string()));
    // From the FEN alone no pass was made: the same pass does not end the game.
    assert_ne!(search_fen(&g, fen).0, Score::Mate(1));
}

#[test]
fn the_rules_are_validated_with_places() {
    let base = "variant t\nboard 8x8\nstart 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n";
    assert_positioned_errors(
        base,
        &[
            (
                "piece K king W royal along nowhere F\n",
                "t.txt:4:28",
                "no region `nowhere`",
            ),
            (
                "piece K king W royal no-capture Z\n",
                "t.txt:4:33",
                "`Z` in the no-capture",
            ),
            (
                "piece K king W royal no-jump-over Z\n",
                "t.txt:4:35",
                "`Z` in the no-jump-over",
            ),
            (
                "piece K king W royal\ncounting Z=3\n",
                "t.txt:5:10",
                "`Z` in the counting",
            ),
            (
                "piece K king W royal\ncounting K=3 K=4\n",
                "t.txt:5:14",
                "counted twice",
            ),
            (
                "piece K king W royal\ncounting K=x\n",
                "t.txt:5:10",
                "not a piece's points",
            ),
            (
                "piece K king W\npass yes\n",
                "t.txt:5:6",
                "`pass yes` without a royal",
            ),
            (
                "piece K king W royal\npass maybe\n",
                "t.txt:5:6",
                "unknown pass rule `maybe`",
            ),
            (
                "inherit janggi\npiece A guard W in palace F along palace-lines F\n",
                "t.txt:5:35",
                "`along` with `in`",
            ),
        ],
    );
}

#[test]
fn the_pass_round_trips_in_san_and_coordinates() {
    let g = game("janggi");
    let mut pos = play(&g, START, "");
    let pass = pos.parse_move("e2e2").expect("the pass");
    assert_eq!(pass.kind(), acedrex::position::MoveKind::Pass);
    let san = acedrex::pgn::san(&mut pos, pass);
    assert_eq!(san, "Ke2");
    assert_eq!(acedrex::pgn::parse_san(&mut pos, &san).expect("san"), pass);
    let before = pos.fen();
    pos.make(pass);
    assert_ne!(pos.fen(), before, "the side to move changed");
    pos.unmake();
    assert_eq!(pos.fen(), before);
    assert_eq!(pos.hash(), pos.fresh_hash());
}

#[test]
fn the_files_say_what_fairy_stockfish_plays() {
    let j = builtin("janggi").expect("janggi");
    assert!(j.end.pass && j.end.bikjang);
    let c = j.end.counting.as_ref().expect("counting");
    assert_eq!(
        (c.points.as_slice(), c.bonus),
        (
            &[('R', 13), ('C', 7), ('N', 5), ('B', 3), ('A', 3), ('P', 2)][..],
            1
        )
    );
    let letters =
        |l: &[(char, Vec<char>)]| l.iter().map(|(p, k)| (*p, k.clone())).collect::<Vec<_>>();
    assert_eq!(letters(&j.regions.no_jump_over), [('C', vec!['C'])]);
    assert_eq!(letters(&j.regions.no_capture), [('C', vec!['C'])]);
    let along: Vec<(char, &str)> = j
        .regions
        .along
        .iter()
        .map(|m| (m.letter, m.betza_text.as_str()))
        .collect();
    assert_eq!(
        along,
        [('K', "F"), ('A', "F"), ('R', "B"), ('C', "pB"), ('P', "fF")]
    );
    let t = builtin("janggitraditional").expect("traditional");
    assert!(t.end.bikjang && t.end.counting.is_none());
    let m = builtin("janggimodern").expect("modern");
    assert!(!m.end.bikjang && m.end.counting.is_some());
    assert_eq!((m.end.repetition, m.end.move_count), (Some(4), Some(200)));
    let c = builtin("janggicasual").expect("casual");
    assert!(c.end.pass && !c.end.bikjang && c.end.counting.is_none());
}

#[test]
fn search_keeps_to_the_bikjang_rule() {
    let g = game("janggi");
    // In check from the elephant while the generals face each other: Black's pass ends the game,
    // won by counting (a chariot against an elephant). Fairy-Stockfish: mate 1, e10e10.
    let pos = play(
        &g,
        "3k5/9/9/9/9/9/9/9/r8/2B1K4 w - - 0 1",
        "c1e4 d10e10 e4c7",
    );
    assert_eq!(search_depth4(&pos), (Score::Mate(1), "e10e10".to_string()));
    // Facing with less material: White must part the generals (a pass would lose by counting);
    // the search's move is one of the legal ones (Fairy-Stockfish: e2f1).
    let fen = "4k4/9/9/9/9/p8/9/9/4K4/9 w - - 0 1";
    let (_, best) = search_fen(&g, fen);
    assert!(
        ["e2d1", "e2d2", "e2d3", "e2f1", "e2f2", "e2f3"].contains(&best.as_str()),
        "{best}"
    );
}
