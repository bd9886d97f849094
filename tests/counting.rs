//! The makruk family's counting (`honour-count`) against Fairy-Stockfish 11.1: the walks in
//! tests/data/counting-fsf.txt (tests/oracle/fsf_counting.py) give, ply by ply, the FEN before and
//! after each move as Fairy-Stockfish writes it (limit and count in the e.p. and halfmove fields)
//! and its verdict on the position after the move. acedrex reads the FEN back unchanged, writes the
//! same FEN after the move, and ends the game where Fairy-Stockfish does: drawn at the limit, won
//! by a mate (or karouk's check) even on the ply that reaches it, and not before.

mod common;

use acedrex::position::Position;
use acedrex::rules::Winner;
use acedrex::search::Score;
use common::{game, search_fen};

const DATA: &str = include_str!("data/counting-fsf.txt");

#[test]
fn counting_follows_fairy_stockfish_ply_by_ply() {
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    let mut lines = 0;
    for line in DATA
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split(';').collect();
        let [variant, before, mv, after, verdict] = f[..] else {
            panic!("bad line {line}");
        };
        let g = game(variant);
        let mut pos = Position::from_fen(&g, before).unwrap_or_else(|e| panic!("{before}: {e}"));
        assert_eq!(pos.fen(), before, "{variant}: the FEN reads back");
        let m = pos
            .parse_move(mv)
            .unwrap_or_else(|e| panic!("{variant} {before}: {mv}: {e}"));
        let mover = pos.side_to_move();
        pos.make(m);
        assert_eq!(pos.fen(), after, "{variant} {before} {mv}");
        let end = pos.game_end();
        let won = match mover {
            acedrex::position::Side::White => Winner::White,
            acedrex::position::Side::Black => Winner::Black,
        };
        match verdict {
            "draw" => assert_eq!(
                end.map(|e| (e.winner, e.reason)),
                Some((Winner::Draw, "counting limit")),
                "{variant} {before} {mv}"
            ),
            "mate" => assert_eq!(end.map(|e| e.winner), Some(won), "{variant} {before} {mv}"),
            "play" => assert_eq!(end, None, "{variant} {before} {mv}"),
            "even" => {}
            _ => panic!("verdict {verdict}"),
        }
        *seen.entry(verdict).or_default() += 1;
        lines += 1;
    }
    assert!(lines > 150, "{lines} plies");
    for v in ["draw", "mate", "play"] {
        assert!(seen.get(v).is_some_and(|&n| n >= 3), "{v}: {seen:?}");
    }
}

#[test]
fn the_count_is_undone_with_the_move() {
    let g = game("makruk");
    // Board's honour running; the capture bares Black: the pieces' honour starts at 2 × 3 pieces.
    let fen = "4k3/8/8/8/8/8/3s4/R3K3 w - 128 100 1";
    let mut pos = Position::from_fen(&g, fen).unwrap();
    let m = pos.parse_move("e1d2").unwrap();
    pos.make(m);
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/3K4/R7 b - 32 6 1");
    assert_eq!(pos.honour_count(), Some((6, 32)));
    pos.unmake();
    assert_eq!(pos.fen(), fen);
    assert_eq!(pos.honour_count(), Some((100, 128)));
}

#[test]
fn the_search_scores_the_count_as_a_draw() {
    // Fairy-Stockfish (makruk, `go depth 4`): a rook up with the count one ply from its limit scores
    // 0 (its only mate is not in one); with the count restarted it is winning.
    let g = game("makruk");
    let (at_limit, _) = search_fen(&g, "4k3/8/8/8/8/8/3K4/R7 w - 32 31 1");
    assert_eq!(at_limit, Score::Cp(0));
    let (fresh, _) = search_fen(&g, "4k3/8/8/8/8/8/3K4/R7 w - 32 6 1");
    assert!(matches!(fresh, Score::Cp(n) if n > 300), "{fresh:?}");
    // Mate on the ply that reaches the limit still wins (Fairy-Stockfish: `mate 1`, a1a8).
    let (mate, best) = search_fen(&g, "7k/8/6K1/8/8/8/8/R7 w - 32 31 1");
    assert_eq!((mate, best.as_str()), (Score::Mate(1), "a1a8"));
}

#[test]
fn a_count_needs_the_rule() {
    let g = game("chess");
    let Err(err) = Position::from_fen(&g, "4k3/8/8/8/8/8/8/R3K3 w - 32 6 1") else {
        panic!("a counting limit in chess");
    };
    assert!(err.to_string().contains("honour-count"), "{err}");
}
