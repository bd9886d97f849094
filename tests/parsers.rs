//! No input panics the remaining parsers: FEN, move text, PGN and fmax.ini import — arbitrary text
//! and mutations of valid inputs, among them inputs with dressed ids (`a'`, `L!`, Dai Shogi's).

mod common;

use acedrex::position::Position;
use common::game;
use proptest::prelude::*;

fn mutate(base: &str, cuts: &[(usize, char)]) -> String {
    let mut s: Vec<char> = base.chars().collect();
    for &(at, c) in cuts {
        if s.is_empty() {
            break;
        }
        let i = at % s.len();
        match c {
            '\u{0}' => {
                s.remove(i);
            }
            c => s.insert(i, c),
        }
    }
    s.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn fen_parser_never_panics(text in "\\PC{0,80}", cuts in proptest::collection::vec((0usize..200, proptest::char::any()), 0..6)) {
        for variant in ["grant-acedrex", "chess", "courier", "dai"] {
            let g = game(variant);
            let _ = Position::from_fen(&g, &text);
            let mutated = mutate(&g.variant.start.fen(), &cuts);
            if let Ok(pos) = Position::from_fen(&g, &mutated) {
                // Whatever loads can be written and read back.
                prop_assert!(Position::from_fen(&g, &pos.fen()).is_ok(), "{}", pos.fen());
            }
        }
    }

    #[test]
    fn move_text_never_panics(text in "[a-p0-9=A-Za-z]{0,8}|\\PC{0,8}") {
        let g = game("grant-acedrex");
        let mut pos = Position::start(&g);
        let before = pos.fen();
        let _ = pos.parse_move(&text);
        prop_assert_eq!(pos.fen(), before);
    }

    #[test]
    fn dressed_id_text_never_panics(text in "[a-o0-9=+@',!A-Za-z]{0,12}", cuts in proptest::collection::vec((0usize..200, prop_oneof![Just('\''), Just('!'), Just('+'), Just('\u{0}'), proptest::char::any()]), 0..6)) {
        let g = game("dai");
        let mut pos = Position::start(&g);
        let before = pos.fen();
        let _ = pos.parse_move(&text);
        let _ = acedrex::pgn::parse_san(&mut pos, &text);
        prop_assert_eq!(pos.fen(), before.clone());
        // A FEN with ids dressed, undressed and cut: whatever loads is written and read back alike.
        if let Ok(p) = Position::from_fen(&g, &mutate(&before, &cuts)) {
            let again = Position::from_fen(&g, &p.fen());
            prop_assert!(again.as_ref().is_ok_and(|a| a.fen() == p.fen()), "{}", p.fen());
        }
    }

    #[test]
    fn pgn_reader_never_panics(text in "\\PC{0,200}", cuts in proptest::collection::vec((0usize..400, proptest::char::any()), 0..6)) {
        let _ = acedrex::pgn::read_games(&text, None);
        let sample = "[Variant \"grande-acedrex\"]\n[Result \"*\"]\n\n1. g1g3 g12g10 2. Lg4 {c} Ll9 (2... a8) *\n";
        let _ = acedrex::pgn::read_games(&mutate(sample, &cuts), None);
    }

    #[test]
    fn fmax_import_never_panics(text in "\\PC{0,200}", cuts in proptest::collection::vec((0usize..2000, proptest::char::any()), 0..8)) {
        let _ = acedrex::fmax::import(&text);
        let sample = "version 4.8(w)\nGame: grande-acedrex # P.CR # shatranj\n12x12=-3\n8 7 9 5 6 10 3 6 5 9 7 8\n8 7 9 5 6 10 4 6 5 9 7 8\np:95 -16,6 -15,5 -17,5\np:95 16,6 15,5 17,5\nk:-1 1,7 16,7 15,7 17,7 -1,7 -16,7 -15,7 -17,7 1,E4 -1,E4\n#\n// end\n";
        let _ = acedrex::fmax::import(&mutate(sample, &cuts));
    }
}

proptest! {
    // Each case walks 24 plies of a 15x15 game and reads back every legal move: a few suffice.
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Along random games of Dai Shogi, every legal move's text and SAN name that move, and the FEN
    /// reads back to the same position.
    #[test]
    fn dai_move_texts_and_fens_read_back(seed in 0u64..1000) {
        let g = game("dai");
        let mut pos = Position::start(&g);
        let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        for _ in 0..24 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            for &m in &legal {
                let text = pos.move_text(m);
                prop_assert_eq!(pos.parse_move(&text).ok(), Some(m), "{}", text);
                let san = acedrex::pgn::san(&mut pos, m);
                prop_assert_eq!(acedrex::pgn::parse_san(&mut pos, &san).ok(), Some(m), "{}", san);
            }
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos.make(legal[(x >> 33) as usize % legal.len()]);
            let fen = pos.fen();
            let back = Position::from_fen(&g, &fen).expect("a written FEN reads");
            prop_assert_eq!(back.fen(), fen);
        }
    }
}
