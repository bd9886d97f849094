//! Moves that take a piece on their way (XBetza `c` on a leg before the last; the Chu Shogi Lion):
//! their move sets, igui and the pass, their text, attacks through them, and make/unmake. The
//! Lion's and the Soaring Eagle's sets below are HaChu 0.21's, asked over the xboard protocol in
//! force mode (`setboard`, then `usermove` of each move: accepted, or `Illegal move`).

mod common;
use acedrex::game::Game;
use acedrex::pgn;
use acedrex::position::Position;
use common::{Rng, legal_texts};
use std::sync::Arc;

/// A 12x12 test game: kings, HaChu's Lion and Soaring Eagle, and two pieces that attack only
/// through a capture on their way.
fn game() -> Arc<Game> {
    let text = "variant locusts\nboard 12x12\n\
        piece K king KisO2 royal\n\
        piece N lion KNADcaKcabKmabK value 1000\n\
        piece E eagle RbBfFfAfcafFfcabFfmabF value 900\n\
        piece C checker fcafmF value 200\n\
        piece W whip cafW value 200\n\
        piece P pawn fW value 100\n\
        start 12/12/12/12/12/12/12/12/12/12/12/5K4k1 w - - 0 1\n";
    Game::new(acedrex::variant::parse_variant("locusts.txt", text).unwrap())
}

fn moves_from(pos: &mut Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = legal_texts(pos)
        .into_iter()
        .filter(|m| m.starts_with(from) && !m[from.len()..].starts_with(char::is_numeric))
        .collect();
    v.sort();
    v
}

/// `moves` holds every move of `present` and none of `absent`.
fn assert_set(moves: &[String], present: &[&str], absent: &[&str]) {
    for m in present {
        assert!(moves.iter().any(|x| x == m), "{m} missing from {moves:?}");
    }
    for m in absent {
        assert!(!moves.iter().any(|x| x == m), "{m} in {moves:?}");
    }
}

#[test]
fn the_lion_takes_twice_takes_without_moving_and_passes() {
    let g = game();
    // HaChu: `setboard 12/12/12/12/12/12/12/5pp5/5N6/12/12/5K3k2`.
    let mut pos =
        Position::from_fen(&g, "12/12/12/12/12/12/12/5pp5/5N6/12/12/5K3k2 w - - 0 1").unwrap();
    let lion = moves_from(&mut pos, "f4");
    // HaChu refuses a second leg from an empty square, and a third step.
    assert_set(
        &lion,
        &[
            "f4f5",
            "f4f6",
            "f4d4",
            "f4e4",
            "f4f4",
            "f4f5,f5f4",
            "f4f5,f5g5",
            "f4f5,f5e6",
            "f4f5,f5f6",
        ],
        &["f4e4,e4f4", "f4e5,e5f4", "f4i4"],
    );
    // 24 squares within two, the pass, and for each of the two pawns its eight second steps.
    assert_eq!(lion.len(), 24 + 1 + 2 * 8, "{lion:?}");
}

#[test]
fn the_lion_passes_only_over_an_empty_neighbour() {
    let g = game();
    // HaChu: `a1a1` illegal with a2, b1, b2 own (or b2 an enemy's), legal with b2 empty.
    let boxed = "12/12/12/12/12/12/12/12/12/12/PP10/NP3K3k2 w - - 0 1";
    let with_enemy = "12/12/12/12/12/12/12/12/12/12/Pp10/NP3K3k2 w - - 0 1";
    let open = "12/12/12/12/12/12/12/12/12/12/P11/NP3K3k2 w - - 0 1";
    for (fen, pass) in [(boxed, false), (with_enemy, false), (open, true)] {
        let mut pos = Position::from_fen(&g, fen).unwrap();
        let lion = moves_from(&mut pos, "a1");
        assert_eq!(lion.contains(&"a1a1".to_string()), pass, "{fen}: {lion:?}");
    }
    let mut pos = Position::from_fen(&g, with_enemy).unwrap();
    assert!(moves_from(&mut pos, "a1").contains(&"a1b2,b2a1".to_string()));
}

#[test]
fn the_soaring_eagle_has_the_lion_power_on_its_forward_diagonals_only() {
    let g = game();
    // HaChu, Soaring Eagle (`+D`) on f4, a black pawn on g5.
    let mut pos =
        Position::from_fen(&g, "12/12/12/12/12/12/12/6p5/5E6/12/12/5K3k2 w - - 0 1").unwrap();
    let eagle = moves_from(&mut pos, "f4");
    assert_set(
        &eagle,
        &[
            "f4g5,g5h6",
            "f4g5,g5f4",
            "f4h6",
            "f4f4",
            "f4d6",
            "f4e5",
            "f4f12",
            "f4c1",
        ],
        &["f4i7", "f4g5,g5h5", "f4e5,e5d6", "f4c7"],
    );
}

#[test]
fn a_piece_attacks_what_it_could_take_on_its_way_and_beyond() {
    let g = game();
    // The checker on e4 takes on f5 only by jumping on to g6, which must be empty.
    let pos = Position::from_fen(&g, "12/12/12/12/12/12/12/5k6/4C7/12/12/5K6 b - - 0 1").unwrap();
    assert!(pos.in_check());
    let blocked = "12/12/12/12/12/12/6P5/5k6/4C7/12/12/5K6 b - - 0 1";
    assert!(!Position::from_fen(&g, blocked).unwrap().in_check());
    // The whip on f5 reaches f7 only over an enemy piece on f6.
    let over_enemy = "12/12/12/12/12/5k6/5p6/5W6/12/12/12/K11 b - - 0 1";
    let over_empty = "12/12/12/12/12/5k6/12/5W6/12/12/12/K11 b - - 0 1";
    let over_own = "12/12/12/12/12/5k6/5C6/5W6/12/12/12/K11 b - - 0 1";
    assert!(Position::from_fen(&g, over_enemy).unwrap().in_check());
    assert!(!Position::from_fen(&g, over_empty).unwrap().in_check());
    assert!(!Position::from_fen(&g, over_own).unwrap().in_check());
    // And that check is real: the whip's only capture of the king goes through f6.
    let mut pos = Position::from_fen(&g, &over_enemy.replace(" b ", " w ")).unwrap();
    assert!(legal_texts(&mut pos).contains(&"f5f6,f6f7".to_string()));
}

/// The same, with pieces that take their own side's pieces on the way (`d`) or go on over an
/// empty square or a capture (`mc`), and a rider that takes and slides on.
/// A move's text and SAN read back to it, and make/unmake restore the position and its hash
/// (checked against a fresh hash after the move); returns the move's text.
fn assert_round_trip(pos: &mut Position, m: acedrex::position::Move) -> String {
    let text = pos.move_text(m);
    assert_eq!(pos.parse_move(&text), Ok(m), "{text} in {}", pos.fen());
    let san = pgn::san(pos, m);
    assert_eq!(pgn::parse_san(pos, &san), Ok(m), "{san} in {}", pos.fen());
    let (fen, hash) = (pos.fen(), pos.hash());
    pos.make(m);
    assert_eq!(pos.hash(), pos.fresh_hash(), "after {text} in {fen}");
    pos.unmake();
    assert_eq!((pos.fen(), pos.hash()), (fen, hash), "{text} undone");
    text
}

fn game_of_kinds() -> Arc<Game> {
    let text = "variant locusts2\nboard 10x10\n\
        piece K king K royal\n\
        piece D devourer dafFcabK value 300\n\
        piece M marauder mcaKmcafR value 700\n\
        piece P pawn fW value 100\n\
        start 10/10/10/10/10/10/10/10/10/4K3k1 w - - 0 1\n";
    Game::new(acedrex::variant::parse_variant("locusts2.txt", text).unwrap())
}

#[test]
fn locust_moves_read_back_and_unmake_exactly() {
    let lions =
        "n1e1w1c1n1e1/pppppppppppp/12/12/12/5k6/12/12/5K6/12/PPPPPPPPPPPP/N1E1W1C1N1E1 w - - 0 1";
    let kinds = "d1m1d1m1d1/pppppppppp/10/4k5/10/10/4K5/10/PPPPPPPPPP/D1M1D1M1D1 w - - 0 1";
    let (mut locusts, mut own_takes) = (0, 0);
    for (g, start) in [(game(), lions), (game_of_kinds(), kinds)] {
        for seed in 1..=6u64 {
            let mut pos = Position::from_fen(&g, start).unwrap();
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in &moves {
                    let text = assert_round_trip(&mut pos, m);
                    locusts += usize::from(text.contains(','));
                }
                // The check test reads attack tables; the generator walks the paths: they agree
                // on whether the side not to move could take the king, landing or on its way.
                let king = pos.royal_square(pos.side_to_move());
                pos.make_null();
                let mut replies = Vec::new();
                pos.pseudo_moves(&mut replies);
                let takes = replies
                    .iter()
                    .any(|r| r.to == king || r.locust_at() == Some(king));
                pos.unmake_null();
                assert_eq!(pos.in_check(), takes, "in {}", pos.fen());
                own_takes += usize::from(moves.iter().any(|&m| {
                    m.locust_at()
                        .is_some_and(|c| pos.at(c).is(pos.side_to_move()))
                }));
                pos.make(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(locusts > 100, "the walks met only {locusts} locust moves");
    assert!(
        own_takes > 10,
        "only {own_takes} positions offered a `d` capture on the way"
    );
}

/// A 12x12 game with HaChu's Lion Dog (macadamia-shogi's `W!`, here `W`): up to three steps in a
/// line, taking up to two pieces on its way and perhaps a third at the end, hopping over pieces
/// (`p` on a non-final leg), or coming back.
fn lion_dog_game() -> Arc<Game> {
    let text = "variant lion-dogs\nboard 12x12\n\
        piece K king K royal\n\
        piece W lion-dog KADcavKmcpafmcpavK value 1200\n\
        piece P pawn fW value 100\n\
        start 12/12/12/12/12/12/12/12/12/12/12/5K4k1 w - - 0 1\n";
    Game::new(acedrex::variant::parse_variant("lion-dogs.txt", text).unwrap())
}

/// The Lion Dog's moves from `from` whose first square is `first` (one direction's).
fn dog_moves(pos: &mut Position, from: &str, first: &str) -> Vec<String> {
    let along = |m: &String| {
        let rest = &m[from.len()..];
        rest.starts_with(first) && !rest[first.len()..].starts_with(char::is_numeric)
    };
    moves_from(pos, from).into_iter().filter(along).collect()
}

#[test]
fn the_lion_dog_takes_two_on_its_way_and_hops_over_pieces() {
    let g = lion_dog_game();
    // Two black pawns ahead on f5 and f6, f7 empty.
    let mut pos =
        Position::from_fen(&g, "12/12/12/12/12/12/5p6/5p6/5W6/12/12/K10k w - - 0 1").unwrap();
    let ahead: Vec<String> = moves_from(&mut pos, "f4")
        .into_iter()
        .filter(|m| {
            m.split(',')
                .all(|leg| leg.starts_with('f') && leg[2..].starts_with('f'))
        })
        .collect();
    // One each: take f5; take f6 by a leap; leap to f7 over both; take f5 and stop on f6 taking
    // it; take f5 and come back (igui); take both on the way to f7; take f6 from afar and come
    // back to take f5; take f5 and hop f6 to f7; hop f5, take f6 and go on to f7.
    let mut want = vec![
        "f4f5",
        "f4f6",
        "f4f7",
        "f4f5,f5f6",
        "f4f5,f5f4",
        "f4f5,f5f6,f6f7",
        "f4f6,f6f5",
        "f4f5,f5f7",
        "f4f6,f6f7",
        // Back from f5 or f6 along the file.
        "f4f3",
        "f4f2",
        "f4f1",
    ];
    want.sort();
    assert_eq!(ahead, want);
    // Taking both on the way and the third on the end: three pieces in one move.
    let mut pos =
        Position::from_fen(&g, "12/12/12/12/12/5p6/5p6/5p6/5W6/12/12/K10k w - - 0 1").unwrap();
    let before = pos.fen();
    let m = pos.parse_move("f4f5,f5f6,f6f7").unwrap();
    assert_eq!(m.locusts().count(), 2);
    assert_eq!(pos.victims(m).count(), 3);
    pos.make(m);
    assert_eq!(
        pos.fen().split(' ').next(),
        Some("12/12/12/12/12/5W6/12/12/12/12/12/K10k")
    );
    assert_eq!(pos.hash(), pos.fresh_hash());
    pos.unmake();
    assert_eq!(pos.fen(), before);
    // The SAN names every square: the piece, its squares taken on the way, its landing.
    assert_eq!(pgn::san(&mut pos, m), "Wf4xf5xf6xf7");
    assert_eq!(pgn::parse_san(&mut pos, "Wf4xf5xf6xf7"), Ok(m));
}

#[test]
fn the_lion_dog_hops_its_own_pieces_but_takes_only_enemies() {
    let g = lion_dog_game();
    // An own pawn on f5, an enemy on f6: hop f5, take f6, end on f7 or come back... onto the own
    // pawn, which it cannot.
    let mut pos =
        Position::from_fen(&g, "12/12/12/12/12/12/5p6/5P6/5W6/12/12/K10k w - - 0 1").unwrap();
    let mut got = dog_moves(&mut pos, "f4", "f6");
    got.retain(|m| {
        m.split(',')
            .all(|leg| leg.starts_with('f') && leg[2..].starts_with('f'))
    });
    assert_eq!(got, vec!["f4f6", "f4f6,f6f7"]);
    assert!(!legal_texts(&mut pos).contains(&"f4f5,f5f6".to_string()));
    assert!(legal_texts(&mut pos).contains(&"f4f7".to_string()));
}

#[test]
fn lion_dog_moves_read_back_and_unmake_exactly_and_attack_through_two() {
    let g = lion_dog_game();
    let start =
        "w1w1w1w1w1w1/pppppppppppp/12/12/12/5k6/12/12/5K6/12/PPPPPPPPPPPP/W1W1W1W1W1W1 w - - 0 1";
    let (mut doubles, mut triples) = (0, 0);
    for seed in 1..=6u64 {
        let mut pos = Position::from_fen(&g, start).unwrap();
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut seen = std::collections::HashSet::new();
            for &m in &moves {
                let text = assert_round_trip(&mut pos, m);
                assert!(seen.insert(text.clone()), "{text} twice in {}", pos.fen());
                if m.locust2_at().is_some() {
                    doubles += 1;
                    triples += usize::from(m.captured().is_piece());
                }
            }
            // Attack tables and the generator agree on whether the king could be taken,
            // landing or on the way.
            let king = pos.royal_square(pos.side_to_move());
            pos.make_null();
            let mut replies = Vec::new();
            pos.pseudo_moves(&mut replies);
            let takes = replies
                .iter()
                .any(|r| r.to == king || r.locusts().any(|c| c == king));
            pos.unmake_null();
            assert_eq!(pos.in_check(), takes, "in {}", pos.fen());
            pos.make(moves[rng.below(moves.len())]);
        }
    }
    assert!(
        doubles > 20,
        "the walks met only {doubles} moves taking two on the way"
    );
    assert!(triples > 0, "the walks met no move taking three");
}
