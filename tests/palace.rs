//! Regions and the xiangqi family: confinement to a region, moves that change inside one, the
//! facing-royals (flying general) rule, and xiangqi's stalemate loss. Positions marked
//! "Fairy-Stockfish" were played through Fairy-Stockfish 11.1 (`go perft 1` lists no move where the
//! game has ended; `go depth 4` reports `score mate 1`); their perft is in tests/perft/xiangqi.epd.

mod common;

use acedrex::game::Game;
use acedrex::position::Position;
use acedrex::rules::Winner;
use acedrex::search::Score;
use acedrex::variant::parse_variant;
use common::{game, legal_texts, search_fen};
use std::sync::Arc;

fn end(g: &Arc<Game>, fen: &str) -> Option<(Winner, &'static str)> {
    let mut pos = Position::from_fen(g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    pos.game_end().map(|e| (e.winner, e.reason))
}

fn moves(g: &Arc<Game>, fen: &str) -> Vec<String> {
    legal_texts(&mut common::play(g, fen, ""))
}

/// Xiangqi with the generals allowed to face each other: what the rule takes away.
fn xiangqi_open() -> Arc<Game> {
    let text = "variant xiangqi-open\ninherit xiangqi\nfacing-royals allowed\n";
    Game::new(parse_variant("xiangqi-open.txt", text).expect("valid"))
}

#[test]
fn the_generals_may_not_face_each_other() {
    let g = game("xiangqi");
    // Fairy-Stockfish: the general may not step onto the open d-file of Black's general.
    let fen = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(moves(&g, fen), ["e1e2", "e1f1"]);
    assert_eq!(moves(&xiangqi_open(), fen), ["e1d1", "e1e2", "e1f1"]);
    // Fairy-Stockfish: the cannon shields its general from the rook and may only move along the file;
    // the general may not step onto the e-file.
    let fen = "4k4/9/9/3r5/9/9/9/3C5/9/3K5 w - - 0 1";
    assert_eq!(moves(&g, fen), ["d1d2", "d3d2", "d3d4", "d3d5", "d3d6"]);
}

#[test]
fn a_general_can_be_mated_by_the_facing_rule() {
    let g = game("xiangqi");
    // Fairy-Stockfish: checked by the rook on the e-file, Black's general cannot go to f10 (rook on
    // the f-file) nor d10 (it would face White's general): mate. Without the rule d10 escapes.
    let fen = "4k4/9/9/4R4/9/9/9/9/5R3/3K5 b - - 0 1";
    assert_eq!(end(&g, fen), Some((Winner::White, "checkmate")));
    assert_eq!(end(&xiangqi_open(), fen), None);
    // Fairy-Stockfish: mate 1 by a7e7.
    let fen = "4k4/9/9/R8/9/9/9/9/5R3/3K5 w - - 0 1";
    assert_eq!(search_fen(&g, fen), (Score::Mate(1), "a7e7".to_string()));
}

#[test]
fn a_stalemated_side_loses() {
    let g = game("xiangqi");
    // Fairy-Stockfish: Black's general has no move and is not in check: Black loses.
    let fen = "3k5/4P4/9/9/9/9/9/9/9/5K3 b - - 0 1";
    assert_eq!(end(&g, fen), Some((Winner::White, "stalemate")));
    // The rook covers d9 and White's general e10 from e1.
    let fen = "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1";
    assert_eq!(end(&g, fen), Some((Winner::White, "stalemate")));
    assert_eq!(end(&xiangqi_open(), fen), None);
    // Fairy-Stockfish: with White to move any waiting move stalemates Black, scored as mate 1.
    let fen = "3k5/4P4/9/9/9/9/9/9/9/5K3 w - - 0 1";
    assert_eq!(search_fen(&g, fen).0, Score::Mate(1));
    // Minixiangqi, too.
    let g = game("minixiangqi");
    let fen = "2k4/R6/7/7/7/7/3K3 b - - 0 1";
    assert_eq!(end(&g, fen), Some((Winner::White, "stalemate")));
}

#[test]
fn regions_confine_pieces_and_change_their_moves() {
    let g = game("xiangqi");
    // Fairy-Stockfish: the elephant on c5 may not cross the river to a7 or e7.
    let fen = "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1";
    assert_eq!(moves(&g, fen), ["c5a3", "c5e3", "e1e2", "e1f1"]);
    // A soldier across the river steps sideways too; on its own side only forward.
    let fen = "3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(moves(&g, fen), ["e1e2", "e1f1", "e6d6", "e6e7", "e6f6"]);
    let fen = "3k5/9/9/9/9/4P4/9/9/9/4K4 w - - 0 1";
    assert_eq!(moves(&g, fen), ["e1e2", "e1f1", "e5e6"]);
    // Black's regions are White's mirrored: its soldier on e5 has crossed, its elephant on c6 stays.
    let fen = "3k5/9/9/9/2b6/4p4/9/9/9/4K4 b - - 0 1";
    assert_eq!(
        moves(&g, fen),
        ["c6a8", "c6e8", "d10d9", "d10e10", "e5d5", "e5e4", "e5f5"]
    );
    // The advisor stays in the palace: from d1 only e2.
    let fen = "3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1";
    assert_eq!(moves(&g, fen), ["d1e2", "e1e2", "e1f1"]);
}

#[test]
fn region_attacks_follow_the_region() {
    let g = game("xiangqi");
    // Black's general on d8 is checked by the soldier on d7 (across the river, forward)...
    let mut pos = Position::from_fen(&g, "9/9/3k5/3P5/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(pos.in_check());
    // ...and by one beside it on e8 only because it has crossed.
    pos = Position::from_fen(&g, "9/9/3kP4/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(pos.in_check());
}

#[test]
fn region_lines_are_validated_with_their_place() {
    let text = "variant x\nboard 9x10\nregion palace d1-f3 z9\npiece K general W royal confine castle\n\
                piece P soldier fW in palace f(W\nfacing-royals never\n\
                start 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\n";
    let diags = parse_variant("x.txt", text).expect_err("invalid");
    let shown: Vec<String> = diags
        .iter()
        .map(|d| format!("{}:{}: {}", d.line, d.col, d.message))
        .collect();
    let has = |line: usize, col: usize, what: &str| {
        assert!(
            diags
                .iter()
                .any(|d| d.line == line && d.col == col && d.message.contains(what)),
            "no {line}:{col} `{what}` in {shown:#?}"
        );
    };
    has(6, 15, "unknown facing-royals rule `never`");
    has(3, 21, "`z9` is not a region square");
    has(4, 33, "no region `castle`");
    has(5, 31, "bad Betza for piece P (soldier) in its region");
    let text = "variant x\nboard 9x10\nregion a a1 j1\nregion a b1\n";
    let diags = parse_variant("x.txt", text).expect_err("invalid");
    assert!(
        diags
            .iter()
            .any(|d| d.line == 3 && d.col == 13 && d.message.contains("leaves the 9x10 board")),
        "{diags:#?}"
    );
    assert!(
        diags
            .iter()
            .any(|d| d.line == 4 && d.col == 8 && d.message.contains("declared twice")),
        "{diags:#?}"
    );
}

#[test]
fn xboard_counts_the_ranks_of_a_ten_rank_board_from_zero() {
    use acedrex::protocol::{SharedBuf, xboard};
    // XBoard's b2e2 is the cannon's b3e3 here, its b7e7 Black's b8e8; b2e2 read as written would
    // name an empty square.
    let script =
        "xboard\nprotover 2\nvariant xiangqi\nforce\nusermove b2e2\nusermove b7e7\nping 1\n";
    let out = SharedBuf::default();
    xboard::run(
        std::io::Cursor::new(script.as_bytes().to_vec()),
        out.clone(),
    )
    .expect("runs");
    let text = out.text();
    assert!(text.contains("pong 1"), "{text}");
    assert!(!text.contains("Illegal"), "{text}");
    let script = "xboard\nprotover 2\nvariant xiangqi\nforce\nusermove b3e3\nping 1\n";
    let out = SharedBuf::default();
    xboard::run(
        std::io::Cursor::new(script.as_bytes().to_vec()),
        out.clone(),
    )
    .expect("runs");
    assert!(out.text().contains("Illegal move"), "{}", out.text());
}

#[test]
fn fairy_max_export_refuses_regions() {
    let text =
        "variant homebound\ninherit chess\nregion home a1-h2\npiece K king K royal confine home\n";
    let v = parse_variant("homebound.txt", text).expect("valid");
    let e = acedrex::fmax::export::export(&[v]).expect_err("refused");
    assert!(e.to_string().contains("region"), "{e}");
    let text = "variant facing\ninherit chess\nfacing-royals forbidden\n";
    let v = parse_variant("facing.txt", text).expect("valid");
    let e = acedrex::fmax::export::export(&[v]).expect_err("refused");
    assert!(e.to_string().contains("facing-royals"), "{e}");
}
