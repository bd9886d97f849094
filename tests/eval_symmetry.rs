//! The evaluation does not care which colour is which: a position turned half a turn with the
//! colours swapped evaluates alike for the side to move, in every shipped variant.

mod common;

use acedrex::eval::EvalTables;
use acedrex::position::Position;
use acedrex::setup::{Placed, Setup};
use common::{Rng, game, random_walk};

/// The position (as FEN) turned half a turn with the colours swapped, and the position itself,
/// both without castling and en-passant rights, which a half turn does not carry over.
fn turned(fen: &str) -> (String, String) {
    let mut s = Setup::parse(fen).expect("the engine's own FEN");
    s.rights.clear();
    s.ep = None;
    let mut t = s.clone();
    t.rows.reverse();
    let swap = |p: &mut Placed| p.side = !p.side;
    for row in &mut t.rows {
        row.squares.reverse();
        row.squares.iter_mut().flatten().for_each(swap);
    }
    t.hands.iter_mut().flatten().for_each(swap);
    t.side = !t.side;
    (s.fen(), t.fen())
}

#[test]
fn turned_positions_evaluate_alike() {
    for variant in acedrex::variant::builtin_names() {
        let g = game(variant);
        let et = EvalTables::new(&g);
        let mut nonzero = 0;
        for seed in 1..40u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut pos = Position::start(&g);
            random_walk(&mut pos, &mut rng, 10 + (seed as usize % 50));
            let (fen, other) = turned(&pos.fen());
            let a = et.evaluate(&Position::from_fen(&g, &fen).expect(&fen));
            let b = et.evaluate(&Position::from_fen(&g, &other).expect(&other));
            assert_eq!(a, b, "{variant}: {fen} and {other}");
            nonzero += usize::from(a != 0);
        }
        assert!(
            nonzero > 20,
            "{variant}: {nonzero} positions evaluated non-zero"
        );
    }
}
