//! Promoted forms and shogi's drop rules: `promotes` with `piece-promotion`, `immobile forbidden`,
//! `drop-one-per-file`, `drop-no-mate`, FEN `+P`, the `+`/`=` move suffixes, and the goal of
//! dobutsu. Positions checked against Fairy-Stockfish 11.1 where it plays the game.

mod common;

use acedrex::position::Position;
use acedrex::rules::Winner;
use common::{assert_positioned_errors, game, legal_texts, play, search_fen};

fn legal(variant: &str, fen: &str) -> Vec<String> {
    legal_texts(&mut play(&game(variant), fen, ""))
}

fn after(variant: &str, fen: &str, moves: &[&str]) -> Position {
    play(&game(variant), fen, &moves.join(" "))
}

#[test]
fn no_second_pawn_is_dropped_on_a_file() {
    let moves = legal("shogi", "4k4/9/9/9/9/9/4P4/9/4K4[P] w - - 0 1");
    assert!(moves.iter().all(|m| !m.starts_with("P@e")), "{moves:?}");
    assert!(moves.contains(&"P@d5".to_string()));
    // A promoted pawn is no pawn: the file is free again.
    let moves = legal("shogi", "4k4/9/9/9/9/9/4+P4/9/4K4[P] w - - 0 1");
    assert!(moves.contains(&"P@e5".to_string()), "{moves:?}");
}

#[test]
fn no_piece_is_left_where_it_could_never_move() {
    let moves = legal("shogi", "4k4/P8/9/9/9/9/9/9/4K4[NLP] w - - 0 1");
    assert!(moves.contains(&"a8a9+".to_string()));
    assert!(!moves.contains(&"a8a9".to_string()));
    for m in &moves {
        let rank = m.trim_start_matches(|c: char| c != '@').get(2..);
        match (m.as_bytes()[0], rank) {
            (b'N', Some(r)) => assert!(r != "8" && r != "9", "{m}"),
            (b'L' | b'P', Some(r)) => assert!(r != "9", "{m}"),
            _ => {}
        }
    }
    assert!(moves.contains(&"N@a7".to_string()) && moves.contains(&"L@b8".to_string()));
}

#[test]
fn a_move_out_of_the_zone_may_promote_or_not() {
    let moves = legal("shogi", "4k4/9/2S6/9/9/9/9/9/4K4[] w - - 0 1");
    for m in ["c7b6", "c7b6+", "c7c8", "c7c8+", "c7d6+"] {
        assert!(moves.contains(&m.to_string()), "{m}: {moves:?}");
    }
    // The plain text is the move that does not promote; `=` says so explicitly.
    let pos = after("shogi", "4k4/9/2S6/9/9/9/9/9/4K4[] w - - 0 1", &["c7b6"]);
    assert!(pos.fen().starts_with("4k4/9/9/1S7/"), "{}", pos.fen());
    let pos = after("shogi", "4k4/9/2S6/9/9/9/9/9/4K4[] w - - 0 1", &["c7b6="]);
    assert!(pos.fen().starts_with("4k4/9/9/1S7/"), "{}", pos.fen());
    let pos = after("shogi", "4k4/9/2S6/9/9/9/9/9/4K4[] w - - 0 1", &["c7b6+"]);
    assert!(pos.fen().starts_with("4k4/9/9/1+S7/"), "{}", pos.fen());
}

#[test]
fn a_promoted_piece_goes_to_hand_as_what_it_was() {
    let pos = after("shogi", "4k4/9/9/9/9/9/4+p4/4G4/4K4[] w - - 0 1", &["e2e3"]);
    assert_eq!(pos.fen(), "4k4/9/9/9/9/9/4G4/9/4K4[P] b - - 0 1");
    // A promoted piece does not promote again, and keeps its `+` as it moves.
    let moves = legal("shogi", "4k4/9/9/9/9/9/9/9/+R3K4[] w - - 0 1");
    assert!(moves.iter().all(|m| !m.ends_with('+')), "{moves:?}");
    let pos = after("shogi", "4k4/9/9/9/9/9/9/9/+R3K4[] w - - 0 1", &["a1a8"]);
    assert!(pos.fen().starts_with("4k4/+R8/"), "{}", pos.fen());
}

#[test]
fn compulsory_promotion_leaves_only_the_promoting_move() {
    // Euroshogi: the knight on c6 stands in the zone; every move of it must promote.
    let moves = legal("euroshogi", "3k4/8/2N5/8/8/8/8/3K4[] w - - 0 1");
    let knight: Vec<&String> = moves.iter().filter(|m| m.starts_with("c6")).collect();
    assert_eq!(knight, ["c6b6+", "c6b8+", "c6d6+", "c6d8+"]);
}

#[test]
fn a_mate_by_a_pawn_drop_loses_for_the_dropper() {
    // Fairy-Stockfish makes the drop and scores the mate as won by the mated side.
    let fen = "kn7/9/1G7/9/9/9/9/9/8K[P] w - - 0 1";
    let mut pos = after("shogi", fen, &["P@a8"]);
    let end = pos.game_end().expect("the game is over");
    assert_eq!(
        (end.winner, end.reason),
        (Winner::Black, "checkmate by a forbidden drop")
    );
    // A pawn that steps to give the same mate wins.
    let mut pos = after("shogi", "kn7/9/PG7/9/9/9/9/9/8K[] w - - 0 1", &["a7a8"]);
    let end = pos.game_end().expect("the game is over");
    assert_eq!((end.winner, end.reason), (Winner::White, "checkmate"));
    // The engine does not drop the pawn to mate.
    let (_, best) = search_fen(&game("shogi"), fen);
    assert_ne!(best, "P@a8");
}

#[test]
fn a_lion_on_the_far_rank_wins() {
    let mut pos = after("dobutsu", "2l/L2/3/3[] w - - 0 1", &["a3a4"]);
    let end = pos.game_end().expect("the game is over");
    assert_eq!((end.winner, end.reason), (Winner::White, "goal reached"));
    let mut pos = after(
        "dobutsu",
        "3/l2/3/2L[] b - - 0 1",
        &["a3a2", "c1c2", "a2a1"],
    );
    let end = pos.game_end().expect("the game is over");
    assert_eq!((end.winner, end.reason), (Winner::Black, "goal reached"));
}

#[test]
fn promotion_keys_are_checked_with_positions() {
    let base = "variant t\nboard 9x9\npiece K king K royal\npiece G gold WfF\n";
    let cases = [
        (
            "piece P pawn fW promotes G\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\n",
            "t.txt:5:26",
            "`promotes` without a `piece-promotion` line",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\npiece-promotion zone 3\n",
            "t.txt:7:22",
            "no piece has a promoted form",
        ),
        (
            "piece P pawn fW promotes Q\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\npiece-promotion zone 3\n",
            "t.txt:5:26",
            "promotes to `Q`, which is not a declared piece",
        ),
        (
            "piece P pawn fW promotes P\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\npiece-promotion zone 3\n",
            "t.txt:5:26",
            "promotes to itself",
        ),
        (
            "piece P pawn fW promotes G\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\npiece-promotion zone 10\n",
            "t.txt:7:22",
            "a promotion zone of 10 ranks: expected 1 to 9",
        ),
        (
            "piece P pawn fW promotes G\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\npiece-promotion area 3\n",
            "t.txt:7:17",
            "unexpected `area` in `piece-promotion`",
        ),
        (
            "piece P pawn fW promotes G\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\npiece-promotion zone 3 sometimes\n",
            "t.txt:7:24",
            "unknown piece-promotion rule `sometimes`",
        ),
        (
            "piece P pawn fW promotes G\nstart k8/9/9/9/9/9/9/9/+G7K w - - 0 1\npiece-promotion zone 3\n",
            "t.txt:6:24",
            "`+G` in the start position: G does not promote",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\ndrop-one-per-file P\n",
            "t.txt:7:19",
            "`drop-one-per-file` in a game without hands",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K[] w - - 0 1\ndrop-no-mate X\n",
            "t.txt:7:14",
            "`X` in the drop-no-mate pieces",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\nimmobile never\n",
            "t.txt:7:10",
            "unknown immobile rule `never`",
        ),
    ];
    assert_positioned_errors(base, &cases);
}

#[test]
fn fen_promoted_forms_round_trip() {
    let fen = "lnsgk2nl/1r4sb1/p1ppp+Pppp/9/1p7/9/PPPPP1PPP/1B3S1R1/LNSGKG1NL[Gp] w - - 0 9";
    let g = game("shogi");
    let pos = Position::from_fen(&g, fen).expect("fen");
    assert_eq!(pos.fen(), fen);
    let Err(err) = Position::from_fen(&g, "4k4/9/9/9/9/9/9/9/+K3K4[] w - - 0 1") else {
        panic!("a promoted king was accepted");
    };
    assert!(
        err.to_string()
            .contains("`+K` in the FEN: K does not promote"),
        "{err}"
    );
}

#[test]
fn usi_text_round_trips_on_the_reference_positions() {
    use acedrex::protocol::usi;
    let g = game("shogi");
    let text = include_str!("perft/shogi.epd");
    let fens: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(" ;").next().unwrap_or(l))
        .collect();
    assert!(fens.len() > 10);
    for fen in fens {
        let mut pos = Position::from_fen(&g, fen).expect("fen");
        let back = usi::sfen_to_fen(&usi::sfen(&pos)).expect("sfen reads");
        let again = Position::from_fen(&g, &back).expect("sfen's fen");
        // SFEN has no halfmove clock: compare all else.
        let strip = |f: String| {
            let v: Vec<String> = f.split(' ').map(str::to_string).collect();
            format!("{} {} {}", v[0], v[1], v[5])
        };
        assert_eq!(strip(again.fen()), strip(pos.fen()), "{fen}");
        for m in pos.legal_moves() {
            let own = usi::to_acedrex(&usi::move_text(&pos, m), 9, 9).expect("reads back");
            assert_eq!(own, pos.move_text(m), "{fen}");
        }
    }
}
