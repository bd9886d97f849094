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
            "piece P pawn fW promotes G\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\npiece-promotion zone 3 forced flip forced\n",
            "t.txt:7:36",
            "`forced` repeats a `piece-promotion` rule",
        ),
        (
            "piece P pawn fW promotes G\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\npiece-promotion zone 3 optional forced\n",
            "t.txt:7:33",
            "`forced` repeats a `piece-promotion` rule",
        ),
        (
            "piece P pawn fW promotes G\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\npiece-promotion zone 3\ndrop-promoted yes\n",
            "t.txt:8:15",
            "`drop-promoted` in a game without hands",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K[] w - - 0 1\ndrop-promoted yes\n",
            "t.txt:7:15",
            "`drop-promoted yes` but no piece has a promoted form",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K[] w - - 0 1\ndrop-promoted maybe\n",
            "t.txt:7:15",
            "unknown drop-promoted rule `maybe`",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\ndrop-checks forbidden\n",
            "t.txt:7:13",
            "`drop-checks` in a game without hands",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K[] w - - 0 1\ndrop-checks never\n",
            "t.txt:7:13",
            "unknown drop-checks rule `never`",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\nmust-drop yes\n",
            "t.txt:7:11",
            "`must-drop` in a game without hands",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K[] w - - 0 1\nmust-drop perhaps\n",
            "t.txt:7:11",
            "unknown must-drop rule `perhaps`",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K[] w - - 0 1\ndrop-opposite-colours X\n",
            "t.txt:7:23",
            "`X` in the drop-opposite-colours pieces",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K[] w - - 0 1\ndrop-castling z9 G\n",
            "t.txt:7:15",
            "`z9` is not a square",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K[] w - - 0 1\ndrop-castling e12 G\n",
            "t.txt:7:15",
            "`e12` is off the 9x9 board",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\ndrop-castling e1 G\n",
            "t.txt:7:15",
            "`drop-castling` in a game without hands",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K[] w - - 0 1\ndrop-castling e1 X\n",
            "t.txt:7:18",
            "`X` in the drop-castling partners",
        ),
        (
            "piece P pawn fW\nstart 9/9/9/9/9/9/9/9/9[K] w - - 0 1\n",
            "t.txt:6:7",
            "Black has no royal piece (K) in the start position: expected at least one per side, on the board or in hand",
        ),
        (
            "piece P pawn fW\nstart k8/9/9/9/9/9/9/9/8K w - - 0 1\nimmobile never\n",
            "t.txt:7:10",
            "unknown immobile rule `never`",
        ),
    ];
    assert_positioned_errors(base, &cases);
}

/// Kyoto shogi (Fairy-Stockfish 11.1's `go perft 1` lists the same texts): every move of a
/// two-faced piece turns it over, `+` to the promoted face and `-` back, and no move keeps it.
#[test]
fn kyoto_pieces_turn_over_on_every_move() {
    let moves = legal("kyotoshogi", "p+nks+l/5/5/5/+LSK+NP[] w - - 0 1");
    assert_eq!(
        moves,
        [
            "a1a2-", "a1b2-", "b1a2+", "b1b2+", "b1c2+", "c1b2", "c1c2", "c1d2", "d1c2-", "d1d2-",
            "d1e2-", "e1e2+"
        ]
    );
    // The pawn becomes a rook that remembers it was a pawn; its next move makes it a pawn again.
    let mut pos = after(
        "kyotoshogi",
        "p+nks+l/5/5/5/+LSK+NP[] w - - 0 1",
        &["e1e2+"],
    );
    assert_eq!(pos.fen(), "p+nks+l/5/5/4+P/+LSK+N1[] b - - 1 1");
    for text in ["a5a4+", "e2e3-"] {
        let m = pos.parse_move(text).expect(text);
        assert_eq!(pos.move_text(m), text);
        pos.make(m);
        assert_eq!(pos.hash(), pos.fresh_hash(), "after {text}");
    }
    assert_eq!(pos.fen(), "1+nks+l/+p4/4P/5/+LSK+N1[] b - - 3 2");
    // A move written without its suffix is the one the piece must make.
    let pos = after("kyotoshogi", "p+nks+l/5/5/5/+LSK+NP[] w - - 0 1", &["a1a2"]);
    assert!(pos.fen().starts_with("p+nks+l/5/5/L4/"), "{}", pos.fen());
}

/// Kyoto shogi's drops: either face up, on any empty square; a flipped piece taken goes to hand
/// as its plain face.
#[test]
fn kyoto_drops_go_down_either_face_up() {
    let moves = legal("kyotoshogi", "2k2/5/5/5/2K2[Pp] w - - 0 1");
    for text in ["P@a5", "+P@a5", "P@c3", "+P@c3"] {
        assert!(moves.contains(&text.to_string()), "{text}: {moves:?}");
    }
    assert_eq!(moves.iter().filter(|m| m.contains('@')).count(), 2 * 23);
    let mut pos = after("kyotoshogi", "2k2/5/5/5/2K2[Pp] w - - 0 1", &["+P@c3"]);
    assert_eq!(pos.fen(), "2k2/5/2+P2/5/2K2[p] b - - 1 1");
    assert_eq!(pos.hash(), pos.fresh_hash());
    // The rook that was a pawn gives check along the file; taking it puts a pawn in hand.
    assert!(pos.in_check());
    let pos2 = after("kyotoshogi", "2k2/2+P2/5/5/2K2[] b - - 0 1", &["c5c4"]);
    assert_eq!(pos2.fen(), "5/2k2/5/5/2K2[p] w - - 0 2");
    pos.unmake();
    assert_eq!(pos.fen(), "2k2/5/5/5/2K2[Pp] w - - 0 1");
    assert_eq!(pos.hash(), pos.fresh_hash());
}

/// Micro shogi: pieces turn over only when they capture, and then must.
#[test]
fn micro_pieces_turn_over_only_by_capturing() {
    let moves = legal("micro", "kb+r+l/p3/4/3P/+L+RBK[] w - - 0 1");
    assert!(
        moves.iter().all(|m| !m.ends_with('+') && !m.ends_with('-')),
        "{moves:?}"
    );
    // The pawn takes the gold that was a bishop: it becomes a knight, and a bishop goes to hand.
    let moves = legal("micro", "1k2/1+b2/1P2/4/2K1[] w - - 0 1");
    assert!(moves.contains(&"b3b4+".to_string()), "{moves:?}");
    assert!(!moves.contains(&"b3b4".to_string()), "{moves:?}");
    let pos = after("micro", "1k2/1+b2/1P2/4/2K1[] w - - 0 1", &["b3b4+"]);
    assert_eq!(pos.fen(), "1k2/1+P2/4/4/2K1[B] b - - 0 1");
    // The knight that was a pawn turns back when it takes, and only then (Fairy-Stockfish's list).
    let moves = legal("micro", "k3/3b/4/2+P1/1K2[] w - - 0 1");
    assert_eq!(moves, ["b1a2", "b1c1", "c2b4", "c2d4-"]);
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
    // Kyoto shogi adds demotions (`5e4e-`) and drops as the promoted face (`+P*3c`).
    for (variant, text) in [
        ("shogi", include_str!("perft/shogi.epd")),
        ("kyotoshogi", include_str!("perft/kyotoshogi.epd")),
    ] {
        let g = game(variant);
        let (files, ranks) = (g.variant.files, g.variant.ranks);
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
                let own =
                    usi::to_acedrex(&usi::move_text(&pos, m), files, ranks).expect("reads back");
                assert_eq!(own, pos.move_text(m), "{fen}");
                let read = pos.parse_move(&own).expect("its own text");
                assert_eq!(read, m, "{variant} {fen} {own}");
            }
        }
    }
}
