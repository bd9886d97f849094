//! Grant Acedrex against Fairy-Max 5.0b: the legal move sets of the start position, targeted
//! sequences (king leap, leap right, promotions) and positions from random play recorded in
//! tests/perft/grant-acedrex-fairymax.txt must be exactly acedrex's. Plus the rules Fairy-Max does
//! not play (stalemate win, bare king) and hash consistency.

mod common;

use acedrex::movegen::perft::perft;
use acedrex::position::Position;
use acedrex::rules::Winner;
use common::{Rng, fairymax_moves, flip_fen, game, random_walk, recorded_set_differences};

#[test]
fn start_position_has_59_moves() {
    let g = game("grant-acedrex");
    let mut pos = Position::start(&g);
    assert_eq!(pos.legal_moves().len(), 59);
    assert_eq!(perft(&mut pos, 1), 59);
}

#[test]
fn legal_move_sets_equal_fairy_max() {
    let g = game("grant-acedrex");
    let data = include_str!("perft/grant-acedrex-fairymax.txt");
    let (cases, failures) =
        recorded_set_differences(&g, data, |pos| fairymax_moves(pos).into_iter().collect());
    assert!(cases > 300, "only {cases} cases read");
    assert!(
        failures.is_empty(),
        "{} of {cases} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn incremental_hash_equals_fresh_hash_and_unmake_restores() {
    for variant in [
        "grant-acedrex",
        "chess",
        "capablanca",
        "makruk",
        "grant-acedrex-cazaux",
    ] {
        let g = game(variant);
        let mut rng = Rng(0x5EED ^ variant.len() as u64);
        for _ in 0..20 {
            let mut pos = Position::start(&g);
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let before = (pos.fen(), pos.hash());
                let m = moves[rng.below(moves.len())];
                pos.make(m);
                assert_eq!(
                    pos.hash(),
                    pos.fresh_hash(),
                    "{variant}: after {}",
                    pos.fen()
                );
                pos.unmake();
                assert_eq!((pos.fen(), pos.hash()), before, "{variant}: unmake");
                pos.make(m);
            }
        }
    }
}

#[test]
fn fen_round_trips_through_random_play() {
    for variant in ["grant-acedrex", "chess", "courier", "capablanca"] {
        let g = game(variant);
        let mut rng = Rng(77);
        for _ in 0..20 {
            let mut pos = Position::start(&g);
            random_walk(&mut pos, &mut rng, 40);
            let again = Position::from_fen(&g, &pos.fen()).expect("own FEN");
            assert_eq!(again.fen(), pos.fen());
            assert_eq!(again.hash(), pos.hash(), "{variant} {}", pos.fen());
        }
    }
}

#[test]
fn fairy_max_setup_fen_is_accepted() {
    let g = game("grant-acedrex");
    let fm = "rlugcakcgulr/8/8/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/8/8/RLUGCAKCGULR w KQkq - 0 1";
    let pos = Position::from_fen(&g, fm).expect("Fairy-Max FEN");
    assert_eq!(pos.fen(), Position::start(&g).fen());
    assert_eq!(pos.hash(), Position::start(&g).hash());
}

#[test]
fn mirrored_positions_have_equal_perft() {
    let g = game("grant-acedrex");
    let mut rng = Rng(99);
    for _ in 0..6 {
        let mut pos = Position::start(&g);
        random_walk(&mut pos, &mut rng, 30);
        let mut flipped = Position::from_fen(&g, &flip_fen(&pos.fen())).expect("flipped");
        assert_eq!(perft(&mut pos, 2), perft(&mut flipped, 2), "{}", pos.fen());
    }
}

fn end(variant: &str, fen: &str) -> Option<(Winner, &'static str)> {
    let g = game(variant);
    let mut pos = Position::from_fen(&g, fen).expect("fen");
    pos.game_end().map(|e| (e.winner, e.reason))
}

#[test]
fn stalemate_wins_for_the_side_that_stalemates() {
    // Black king a12: a11 and b11 covered by the king on a10, b12 by the rook on b1; not in check.
    let fen = "k11/12/K11/12/12/12/12/12/12/12/12/1R10 b - - 0 1";
    assert_eq!(
        end("grant-acedrex", fen),
        Some((Winner::White, "stalemate"))
    );
    // Chess: the same idea is a draw.
    assert_eq!(
        end("chess", "k7/8/K7/8/8/8/8/1R6 b - - 0 1"),
        Some((Winner::Draw, "stalemate"))
    );
}

#[test]
fn bare_king_with_bare_back() {
    // Black has only its king and moves next: it may still bare White (draw) — not over yet.
    assert_eq!(
        end(
            "grant-acedrex",
            "k11/12/12/12/12/12/12/12/12/12/12/6K4R b - - 0 1"
        ),
        None
    );
    // Black was bared and could not bare White back: White wins.
    assert_eq!(
        end(
            "grant-acedrex",
            "k11/12/12/12/12/12/12/12/12/12/12/6K4R w - - 0 1"
        ),
        Some((Winner::White, "bare king"))
    );
    // Against two pieces no reply bares White: lost at once.
    assert_eq!(
        end(
            "grant-acedrex",
            "k11/12/12/12/12/12/12/12/12/12/12/6K3RR b - - 0 1"
        ),
        Some((Winner::White, "bare king"))
    );
    // Both bare after the bare-back: draw.
    assert_eq!(
        end(
            "grant-acedrex",
            "k11/12/12/12/12/12/12/12/12/12/12/6K5 w - - 0 1"
        ),
        Some((Winner::Draw, "bare king, bared back"))
    );
}

#[test]
fn check_by_a_bent_aanca_path() {
    // The aanca on e10 steps to f11 and slides outward to f12.
    let g = game("grant-acedrex");
    let mut pos =
        Position::from_fen(&g, "5k6/12/4A7/12/12/12/12/12/12/12/12/K11 b - - 0 1").expect("fen");
    assert!(pos.in_check(), "aanca e10 attacks f12 via f11");
    let _ = pos.legal_moves();
}

#[test]
fn promotion_by_arrival_file_and_suffix_rules() {
    let g = game("grant-acedrex");
    let mut pos =
        Position::from_fen(&g, "k11/2P9/12/12/12/12/12/12/12/12/12/11K w - - 0 1").expect("fen");
    let m = pos
        .parse_move("c11c12")
        .expect("forced promotion without suffix");
    assert_eq!(pos.move_text(m), "c11c12u");
    assert!(pos.parse_move("c11c12u").is_ok());
    assert!(
        pos.parse_move("c11c12a").is_err(),
        "a wrong suffix is illegal"
    );
}

#[test]
fn promotion_on_every_file_for_both_colours() {
    let g = game("grant-acedrex");
    let table = "RLUGCAACGULR";
    for (f, want) in table.chars().enumerate() {
        let file = (b'a' + f as u8) as char;
        let kings = if f < 6 { 11 } else { 0 }; // away from the promotion square
        let empty = "12";
        let mut ranks = vec![empty.to_string(); 12];
        ranks[0] = rank(kings, 'k'); // rank 12
        ranks[1] = rank(f, 'P'); // rank 11
        ranks[11] = rank(kings, 'K'); // rank 1
        let mut pos =
            Position::from_fen(&g, &format!("{} w - - 0 1", ranks.join("/"))).expect("fen");
        let m = pos
            .parse_move(&format!("{file}11{file}12"))
            .expect("push to the last rank");
        assert_eq!(
            pos.move_text(m),
            format!("{file}11{file}12{}", want.to_ascii_lowercase())
        );
        let mut ranks = vec![empty.to_string(); 12];
        ranks[0] = rank(kings, 'k');
        ranks[10] = rank(f, 'p'); // rank 2
        ranks[11] = rank(kings, 'K');
        let mut pos =
            Position::from_fen(&g, &format!("{} b - - 0 1", ranks.join("/"))).expect("fen");
        let m = pos
            .parse_move(&format!("{file}2{file}1"))
            .expect("push to the first rank");
        assert_eq!(
            pos.move_text(m),
            format!("{file}2{file}1{}", want.to_ascii_lowercase())
        );
    }
    // Capture-promotions take the file they land on: e11xf12 and g11xf12 become aancas, g11xh12 a
    // crocodile.
    let mut pos = Position::from_fen(&g, "k4r1r4/4P1P5/12/12/12/12/12/12/12/12/12/11K w - - 0 1")
        .expect("fen");
    for (mv, text) in [
        ("e11f12", "e11f12a"),
        ("g11h12", "g11h12c"),
        ("g11f12", "g11f12a"),
    ] {
        let m = pos.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        assert_eq!(pos.move_text(m), text);
    }
}

/// One rank of 12 squares with `piece` on file `at` (0 = a).
fn rank(at: usize, piece: char) -> String {
    let mut s = String::new();
    if at > 0 {
        s += &at.to_string();
    }
    s.push(piece);
    if at < 11 {
        s += &(11 - at).to_string();
    }
    s
}

#[test]
fn pinned_aanca_and_unicorn_cannot_leave_the_line() {
    let g = game("grant-acedrex");
    // Aanca g3 between the white king g1 and a black rook g12: every aanca move leaves the g-file.
    let pinned = "6r5/12/12/12/12/12/12/12/12/6A5/12/6K4k w - - 0 1";
    let free = "12/12/12/12/12/12/12/12/12/6A5/12/6K4k w - - 0 1";
    let from_g3 = |fen: &str| {
        let mut pos = Position::from_fen(&g, fen).expect("fen");
        pos.legal_moves()
            .iter()
            .filter(|m| pos.move_text(**m).starts_with("g3"))
            .count()
    };
    assert_eq!(from_g3(pinned), 0);
    assert!(from_g3(free) > 20);
    // Unicorn d4 on the diagonal between the king a1 and a black crocodile (bishop) h8.
    let pinned = "11k/12/12/12/7c4/12/12/12/3U8/12/12/K11 w - - 0 1";
    let mut pos = Position::from_fen(&g, pinned).expect("fen");
    assert!(
        pos.legal_moves()
            .iter()
            .all(|m| pos.move_text(*m).starts_with('a')),
        "only king moves"
    );
}
