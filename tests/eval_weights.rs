//! The `eval` key: evaluation parameters as data in the variant file. Without it the evaluation is
//! the one derived from the rules; with it, each token changes exactly the term it names.

mod common;

use acedrex::eval::{EvalTables, TEMPO};
use acedrex::game::Game;
use acedrex::position::Position;
use acedrex::variant::{EVAL_TERMS, EvalWeights, parse_variant};
use common::assert_positioned_errors;
use std::sync::Arc;

/// A small chess-like game, with `extra` appended to the file.
fn small(extra: &str) -> Arc<Game> {
    with_minor('N', "knight", extra)
}

/// The small game with bishops in the knights' places.
fn bishops(extra: &str) -> Arc<Game> {
    with_minor('B', "bishop", extra)
}

/// The small game whose minor piece is `letter` (its Betza too), with `extra` appended.
fn with_minor(letter: char, name: &str, extra: &str) -> Arc<Game> {
    let text = format!(
        "variant t\nboard 8x8\npiece K king K royal\npiece {letter} {name} {letter} value 300\n\
         piece R rook R value 500\npiece P pawn fmWfcF value 100\n\
         start 4k3/pppppppp/8/8/8/8/PPPPPPPP/R{letter}2K1{letter}R w - - 0 1\n\
         promotion P choice {letter}R\n{extra}"
    );
    Game::new(parse_variant("t.txt", &text).unwrap_or_else(|e| panic!("{e:?}")))
}

/// Positions along a fixed pseudo-random game, for comparing evaluations.
fn positions(game: &Arc<Game>, plies: usize) -> Vec<Position> {
    let mut rng = common::Rng(0x9E37_79B9_7F4A_7C15);
    let mut pos = Position::start(game);
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.game_end().is_some() {
            break;
        }
        pos.make(moves[rng.below(moves.len())]);
        out.push(pos.clone());
    }
    out
}

#[test]
fn the_line_parses_into_weights_and_prints_back() {
    let g = small("eval N=310/290 R=480/520 mobility=120 king=0\n");
    let w = &g.variant.eval;
    assert_eq!(w.material, vec![('N', 310, 290), ('R', 480, 520)]);
    assert_eq!(w.term("mobility"), Some(120));
    assert_eq!(w.term("king"), Some(0));
    assert_eq!(w.term("psq"), Some(100));
    assert_eq!(
        w.line().as_deref(),
        Some("eval N=310/290 R=480/520 mobility=120 king=0")
    );
    assert_eq!(small("").variant.eval, EvalWeights::default());
    assert_eq!(EvalWeights::default().line(), None);
}

/// Stating the derived values and 100 % everywhere is the evaluation without the key, exactly.
#[test]
fn the_defaults_written_out_change_nothing() {
    let plain = small("");
    let stated = small(
        "eval N=300/300 R=500/500 P=100/100 psq=100 mobility=100 king=100 promotion=100 threat=100 unsafe=100 passed=100 attack=100\n",
    );
    let (a, b) = (EvalTables::new(&plain), EvalTables::new(&stated));
    let (pa, pb) = (positions(&plain, 120), positions(&stated, 120));
    assert!(pa.len() > 40);
    for (x, y) in pa.iter().zip(&pb) {
        assert_eq!(x.fen(), y.fen());
        assert_eq!(a.evaluate(x), b.evaluate(y), "{}", x.fen());
    }
    // And `with_weights` with the defaults is `new` for a shipped variant without the key.
    let capa = common::game("chess");
    assert_eq!(capa.variant.eval, EvalWeights::default());
    let (n, d) = (
        EvalTables::new(&capa),
        EvalTables::with_weights(&capa, &EvalWeights::default()),
    );
    for p in positions(&capa, 80) {
        assert_eq!(n.evaluate(&p), d.evaluate(&p), "{}", p.fen());
    }
}

/// With every term at 0 only material and the tempo remain, and the material is the line's.
#[test]
fn terms_at_zero_leave_the_material_of_the_line() {
    let g = small(
        "eval N=400/400 R=450/450 P=90/90 psq=0 mobility=0 king=0 promotion=0 threat=0 shelter=0 structure=0 space=0\n",
    );
    let et = EvalTables::new(&g);
    let worth = |c: char| match c.to_ascii_uppercase() {
        'N' => 400,
        'R' => 450,
        'P' => 90,
        _ => 0,
    };
    let mut distinct = std::collections::BTreeSet::new();
    for pos in positions(&g, 150) {
        let placement = pos.fen();
        let board = placement.split(' ').next().unwrap();
        let white: i32 = board
            .chars()
            .filter(char::is_ascii_uppercase)
            .map(worth)
            .sum();
        let black: i32 = board
            .chars()
            .filter(char::is_ascii_lowercase)
            .map(worth)
            .sum();
        let sign = pos.side_to_move().sign();
        assert_eq!(
            et.evaluate(&pos),
            sign * (white - black) + TEMPO,
            "{placement}"
        );
        distinct.insert(white - black);
    }
    assert!(
        distinct.len() >= 3,
        "the walk should trade material: {distinct:?}"
    );
    // The same positions with the derived terms evaluate otherwise.
    let derived = EvalTables::new(&small(""));
    let differ = positions(&g, 150)
        .iter()
        .filter(|p| derived.evaluate(p) != et.evaluate(p))
        .count();
    assert!(differ > 100, "{differ}");
}

/// Each term scales what it names: doubling mobility moves the evaluation of a position where the
/// pieces are more mobile than usual, halving the king term halves the king's square table.
#[test]
fn each_term_moves_the_evaluation() {
    let pos_of = |g: &Arc<Game>| positions(g, 200);
    for term in EVAL_TERMS {
        // The small game has no colour-bound type for `pair` to count: that term is walked in
        // the small game with its knights made bishops.
        let make = |extra: &str| {
            if *term == "pair" {
                bishops(extra)
            } else {
                small(extra)
            }
        };
        let base = EvalTables::new(&make(""));
        let g = make(&format!("eval {term}=300\n"));
        let et = EvalTables::new(&g);
        let moved = pos_of(&g)
            .iter()
            .filter(|p| et.evaluate(p) != base.evaluate(p))
            .count();
        assert!(moved > 0, "{term}=300 changed no evaluation");
    }
}

#[test]
fn bad_lines_are_refused_with_places() {
    let base = "variant t\nboard 8x8\npiece K king K royal\npiece N knight N\n\
                start 4k3/8/8/8/8/8/8/1N2K3 w - - 0 1\n";
    assert_positioned_errors(
        base,
        &[
            ("eval", "t.txt:6:6", "a value is missing for `eval`"),
            ("eval N=300", "t.txt:6:8", "`300` is not a piece's material"),
            ("eval N=a/3", "t.txt:6:8", "`a/3` is not a piece's material"),
            ("eval N", "t.txt:6:6", "`N` is not an evaluation parameter"),
            (
                "eval speed=100",
                "t.txt:6:6",
                "`speed` is neither a piece letter nor an evaluation term",
            ),
            ("eval psq=x", "t.txt:6:10", "`x` is not a percentage"),
            (
                "eval Q=900/900",
                "t.txt:6:6",
                "`Q` in `eval` is not a declared piece letter",
            ),
            (
                "eval K=100/100",
                "t.txt:6:6",
                "`K` in `eval` is a royal piece",
            ),
            (
                "eval N=300/300 N=310/310",
                "t.txt:6:16",
                "`N` is given twice in `eval`",
            ),
            (
                "eval N=0/300",
                "t.txt:6:6",
                "material 0/300 for `N`: expected 1 to 20000",
            ),
            ("eval N=300/20001", "t.txt:6:6", "expected 1 to 20000"),
            (
                "eval king=50 king=60",
                "t.txt:6:14",
                "`king` is given twice in `eval`",
            ),
            (
                "eval mobility=-1",
                "t.txt:6:6",
                "`mobility=-1`: expected a percentage from 0 to 1000",
            ),
            (
                "eval psq=1001",
                "t.txt:6:6",
                "expected a percentage from 0 to 1000",
            ),
            ("eval psq=100\neval king=100", "t.txt:7:1", "once"),
        ],
    );
}

/// The threat term: an enemy piece attacked by a piece worth less is worth a quarter of the
/// difference to the attacker's side, whoever is to move; at `threat=0` nothing.
#[test]
fn a_piece_attacked_by_a_lesser_one_is_a_threat() {
    // The white pawn on d4 attacks the black knight on e5 and the black rook on c5: (300 − 100)
    // and (500 − 100), a quarter of 600. The knight on e5 attacks only the pawn (worth less).
    let threatened = "4k3/8/8/2r1n3/3P4/8/8/4K3 w - - 0 1";
    // The same men with the pawn a file over: it attacks nothing, and nothing else changes
    // that the threat term sees (the knight and rook attack no piece worth more than them).
    let quiet = "4k3/8/8/2r1n3/8/3P4/8/4K3 w - - 0 1";
    let with = EvalTables::new(&small(""));
    let without = EvalTables::new(&small("eval threat=0\n"));
    let g = small("");
    for side in [" w ", " b "] {
        let at = |fen: &str, et: &EvalTables| {
            let fen = fen.replace(" w ", side);
            et.evaluate(&Position::from_fen(&g, &fen).unwrap())
        };
        let sign = if side == " w " { 1 } else { -1 };
        assert_eq!(
            at(threatened, &with) - at(threatened, &without),
            sign * 600 / 4,
            "{side}"
        );
        assert_eq!(at(quiet, &with), at(quiet, &without), "{side}");
    }
}

/// The `attack` term: pieces aiming at the cells next to the enemy royal piece, and the checks it
/// cannot answer by a capture, grow with the square of their sum.
#[test]
fn an_attack_on_the_royal_piece_gains_as_attack_says() {
    // White's phase: 1000 of the start's 1600 with the two rooks, 1300 with the knight too.
    let blend = |mg: f64, eg: f64, phase: f64| (mg * phase + eg * (1600.0 - phase)) / 1600.0;
    let cases = [
        // The rooks on d1 and f1 hit d7, d8, f7 and f8: two attackers, four hits, danger
        // 50·2 + 70·4 = 380. Their checks from d8 and f8 are next to the king: not safe.
        ("4k3/8/8/8/8/8/8/3RKR2 w - - 0 1", blend(35.0, 23.0, 1000.0)),
        // The knight on e4 could check from d6 and f6, which nothing guards: 380 + 300·2 = 980.
        (
            "4k3/8/8/8/4N3/8/8/3RKR2 w - - 0 1",
            blend(234.0, 61.0, 1300.0),
        ),
        // A black pawn on c7 guards d6: one safe check left, 680.
        (
            "4k3/2p5/8/8/4N3/8/8/3RKR2 w - - 0 1",
            blend(112.0, 42.0, 1300.0),
        ),
        // One rook: a lone attacker with no safe check adds nothing.
        ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", 0.0),
    ];
    assert_term_gains("attack", &cases);
}

/// The `unsafe` term: a destination an enemy pawn attacks counts that percent of one for
/// mobility; other destinations are untouched.
#[test]
fn destinations_enemy_pawns_attack_count_as_unsafe_says() {
    // The knight on d4 reaches c6 and e6, which the pawn on d7 attacks; the pawn on a7 attacks
    // only b6, which no piece reaches.
    let contested = "4k3/3p4/8/8/3N4/8/8/4K3 w - - 0 1";
    let clear = "4k3/p7/8/8/3N4/8/8/4K3 w - - 0 1";
    let g = small("");
    let at = |fen: &str, percent: i32| {
        let et = EvalTables::new(&small(&format!("eval unsafe={percent}\n")));
        et.evaluate(&Position::from_fen(&g, fen).unwrap())
    };
    let lost = at(contested, 100) - at(contested, 0);
    assert!(
        lost > 0,
        "two of eight destinations lost gain nothing: {lost}"
    );
    let half = at(contested, 100) - at(contested, 50);
    assert!((lost - 2 * half).abs() <= 2, "{lost} against twice {half}");
    assert_eq!(at(clear, 100), at(clear, 0));
    assert_eq!(
        at(contested, 100),
        EvalTables::new(&g).evaluate(&Position::from_fen(&g, contested).unwrap())
    );
}

/// The `passed` term: a pawn no enemy pawn stands ahead of, on its file or the next ones, gains
/// a share of its promotion prospects; at `passed=0` nothing, and pawns that block each other
/// are not passed.
#[test]
fn passed_pawns_gain_as_passed_says() {
    let g = small("");
    let at = |fen: &str, percent: i32| {
        let et = EvalTables::new(&small(&format!("eval passed={percent}\n")));
        et.evaluate(&Position::from_fen(&g, fen).unwrap())
    };
    let passed = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1";
    let blocked = "4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1";
    let gain = at(passed, 100) - at(passed, 0);
    assert!(gain > 0, "{gain}");
    assert!((at(passed, 200) - at(passed, 0) - 2 * gain).abs() <= 2);
    assert_eq!(at(blocked, 100), at(blocked, 0));
}

/// What a term at 100 % adds to the evaluation of each (White-to-move FEN, White's gain) case,
/// with either side to move, within a centipawn of the gain, and twice that at 200 %.
fn assert_term_gains(term: &str, cases: &[(&str, f64)]) {
    assert_term_gains_in(small, term, cases);
}

/// [`assert_term_gains`] in the game `make` builds with the text it is given appended.
fn assert_term_gains_in(make: impl Fn(&str) -> Arc<Game>, term: &str, cases: &[(&str, f64)]) {
    let g = make("");
    for side in [" w ", " b "] {
        let sign = if side == " w " { 1.0 } else { -1.0 };
        let at = |fen: &str, percent: i32| {
            let et = EvalTables::new(&make(&format!("eval {term}={percent}\n")));
            let fen = fen.replace(" w ", side);
            f64::from(et.evaluate(&Position::from_fen(&g, &fen).unwrap()))
        };
        for &(fen, want) in cases {
            let gained = at(fen, 100) - at(fen, 0);
            assert!(
                (gained - sign * want).abs() <= 1.0,
                "{term} {fen} {side}: gained {gained}, want {}",
                sign * want
            );
            let doubled = at(fen, 200) - at(fen, 0);
            assert!((doubled - 2.0 * gained).abs() <= 2.0, "{term} {fen} {side}");
        }
    }
}

/// The `shelter` term, in the middlegame: on three files around the royal piece (off the edge),
/// Stockfish's shelter value of the own pawn nearest the own edge and its storm value of the
/// enemy's, by the file's distance from the edge and the pawn's relative rank, halved; a storm
/// pawn just before an own pawn is blocked (82 on the third rank, else nothing).
#[test]
fn pawns_before_the_royal_piece_shelter_it_as_shelter_says() {
    // White's phase: the two rooks, 1000 of the start's 1600; the endgame gets nothing.
    let mg = |v: f64| v * 1000.0 / 1600.0;
    // Stockfish's tables (halved) by file: d and e are 3 from the edge, f is 2, g 1 and h 0.
    let cases = [
        // White: pawns on the second rank, shelter −13 −13 +75, no storm (+15 +15 +6): 85/2 = 42.
        // Black: no pawn, −39 −39 −10, and White's pawns on its seventh rank, a storm of
        // −29 −29 −14: −16/2 = −8. White gains 50.
        ("4k3/8/8/8/8/8/3PPP2/3RKR2 w - - 0 1", mg(50.0)),
        // The same pawns on the fourth rank: −52 −52 −2 +36 = −70, −35 for White; Black −88
        // and a storm from its fifth rank, 11 11 −2: −108, −54. White gains 19.
        ("4k3/8/8/8/3PPP2/8/8/3RKR2 w - - 0 1", mg(19.0)),
        // Black pawns on White's third rank, each blocked by a white pawn just before it: 82
        // each, White 49 − 246 = −197, −98. Black's own pawns on its sixth rank, −67 −67 +3,
        // blocked by White's on its seventh (no storm): −131, −65. White loses 33.
        ("4k3/8/8/8/8/3ppp2/3PPP2/3RKR2 w - - 0 1", mg(-33.0)),
        // The royal piece in the corner: the files f, g and h count. White: −10 +61 +81 and
        // no storm (+6 −46 −85): 7, 3. Black: −10 −43 −6, a storm from its seventh rank on g and
        // h (20 and 50) and none on f (−6): −123, −61. White gains 64.
        ("7k/8/8/8/8/8/6PP/3R1R1K w - - 0 1", mg(64.0)),
    ];
    assert_term_gains("shelter", &cases);
}

/// The `space` term, in the middlegame while three quarters of the pieces other than pawns
/// remain: on the central files (c to f), the own half but the back rank (ranks 2 to 4), each
/// cell no own pawn stands on and no enemy pawn attacks, twice where an own pawn stands one to
/// three cells ahead and no enemy piece attacks it, times (men − 1)² / 32 and by 15² over (the
/// start's men a side − 1)²: this board's start has 13 men a side at most, so times 225 / 144.
#[test]
fn safe_central_cells_behind_the_pawns_gain_as_space_says() {
    let mg = |v: f64, phase: f64| v * phase / 1600.0;
    let cases = [
        // White's pawns on c4, d4 and e3 leave 9 of the 12 cells, 5 of them behind a pawn
        // (c2, c3, d2, d3, e2): 14 · 6² / 32 · 225 / 144 = 24. Black's lone king weighs 0.
        ("4k3/8/8/8/2PP4/4P3/8/RN2K2R w - - 0 1", mg(24.0, 1300.0)),
        // A black knight on e5 attacks d3: 13 · 36 / 32 · 225 / 144 = 22. Black's 12 cells, less
        // c5, d5 and e5 that White's pawns attack, weigh (2 − 1)²: nothing.
        ("4k3/8/8/4n3/2PP4/4P3/8/RN2K2R w - - 0 1", mg(22.0, 1600.0)),
        // A black pawn on d5 attacks e4: 13 cells count, 22.
        ("4k3/8/8/3p4/2PP4/4P3/8/RN2K2R w - - 0 1", mg(22.0, 1300.0)),
        // Without the knight, 1000 of 1600 is under three quarters: no space term.
        ("4k3/8/8/8/2PP4/4P3/8/R3K2R w - - 0 1", 0.0),
    ];
    assert_term_gains("space", &cases);
}

/// The `pair` term: 45 in the middlegame and 60 in the endgame for each type whose every move
/// keeps to one colour (a bishop, and not a knight) that a side has on both colours.
#[test]
fn colour_bound_pieces_on_both_colours_gain_as_pair_says() {
    let game = |extra: &str| {
        let text = format!(
            "variant t\nboard 8x8\npiece K king K royal\npiece B bishop B value 300\n\
             piece N knight N value 300\nstart 1nb1kbn1/8/8/8/8/8/8/1NB1KBN1 w - - 0 1\n{extra}"
        );
        Game::new(parse_variant("t.txt", &text).unwrap_or_else(|e| panic!("{e:?}")))
    };
    // The start's eight minor pieces are the phase's 2400.
    let blend = |phase: f64| (45.0 * phase + 60.0 * (2400.0 - phase)) / 2400.0;
    let cases = [
        // Bishops on c1 and f1, the two colours.
        ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", blend(600.0)),
        // On c1 and e3, one colour: no pair.
        ("4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1", 0.0),
        // Both sides have the pair.
        ("2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1", 0.0),
        // Black's lone bishop makes no pair; White's pair still counts.
        ("2b1k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", blend(900.0)),
        // Knights on b1 and g1 stand on both colours, but a knight changes colour every move.
        ("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1", 0.0),
    ];
    assert_term_gains_in(game, "pair", &cases);
}

/// The `structure` term: a pawn with no pawn of its side on the files next to it costs 12 in the
/// middlegame and 18 in the endgame, each pawn more than one on a file 10 and 28.
#[test]
fn isolated_and_doubled_pawns_cost_as_structure_says() {
    // With only royal pieces and pawns the phase is the endgame; with White's two rooks, 1000
    // of the start's 1600 is middlegame.
    let blend = |mg: f64, eg: f64, phase: f64| (mg * phase + eg * (1600.0 - phase)) / 1600.0;
    let cases = [
        // One isolated pawn.
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", blend(-12.0, -18.0, 0.0)),
        // Two on one file: both isolated, one doubled.
        ("4k3/8/8/8/8/P7/P7/4K3 w - - 0 1", blend(-34.0, -64.0, 0.0)),
        // Neighbours: no weakness.
        ("4k3/8/8/8/8/8/PP6/4K3 w - - 0 1", 0.0),
        // Black's isolated pawn is White's gain; White's pair is sound.
        ("4k3/p7/8/8/8/8/PP6/4K3 w - - 0 1", blend(12.0, 18.0, 0.0)),
        // Doubled but not isolated, in the middlegame.
        (
            "4k3/8/8/8/8/1P6/PP6/3RKR2 w - - 0 1",
            blend(-10.0, -28.0, 1000.0),
        ),
        // The board's last file has no file after it: the h-pawn is isolated.
        (
            "4k3/8/8/8/8/8/P6P/3RKR2 w - - 0 1",
            blend(-24.0, -36.0, 1000.0),
        ),
    ];
    assert_term_gains("structure", &cases);
}

/// The trace is the evaluation: its rows, blended by its phase, are its total for White, and its
/// score for the side to move is what the search's evaluation returns, in positions along random
/// games of several variants (with and without royal pieces, pawns that promote, the bare-king
/// rule).
#[test]
fn the_trace_adds_up_to_the_evaluation() {
    for name in [
        "chess",
        "capablanca",
        "shatranj",
        "grant-acedrex",
        "chu",
        "antichess",
    ] {
        let g = common::game(name);
        let et = EvalTables::new(&g);
        let mut nonzero = std::collections::BTreeSet::new();
        for pos in positions(&g, 160) {
            let t = et.trace(&pos);
            assert_eq!(t.side_to_move, et.evaluate(&pos), "{name} {}", pos.fen());
            let (phase, total) = (t.phase as i64, t.phase_total as i64);
            assert!((0..=total).contains(&phase), "{name} {}", pos.fen());
            let blend = |pick: fn(&acedrex::eval::TraceRow) -> (i32, i32)| {
                let (mg, eg) = t
                    .rows
                    .iter()
                    .map(pick)
                    .fold((0i64, 0i64), |(a, b), (m, e)| (a + m as i64, b + e as i64));
                ((mg * phase + eg * (total - phase)) / total) as i32
            };
            let white = blend(|r| r.white) - blend(|r| r.black) + t.bare_king;
            assert_eq!(white, t.white, "{name} {}", pos.fen());
            for r in &t.rows {
                if r.white != (0, 0) || r.black != (0, 0) {
                    nonzero.insert(r.name);
                }
            }
        }
        for term in ["material", "mobility"] {
            assert!(nonzero.contains(term), "{name}: {term} never moved");
        }
    }
}

/// A term set to 0 in the `eval` line is a row of zeros in the trace, where the derived
/// evaluation gives it values.
#[test]
fn a_term_at_zero_is_a_row_of_zeros() {
    let g = common::game("capablanca");
    let walk = positions(&g, 120);
    let row = |et: &EvalTables, term: &str| {
        walk.iter()
            .map(|p| {
                let t = et.trace(p);
                let r = t.rows.iter().find(|r| r.name == term).unwrap();
                (r.white, r.black)
            })
            .filter(|&(w, b)| w != (0, 0) || b != (0, 0))
            .count()
    };
    let derived = EvalTables::with_weights(&g, &EvalWeights::default());
    for term in ["king", "mobility", "shelter", "structure"] {
        assert!(row(&derived, term) > 0, "{term} is never used");
        let mut weights = EvalWeights::default();
        let i = EVAL_TERMS.iter().position(|&t| t == term).unwrap();
        weights.terms[i] = 0;
        assert_eq!(
            row(&EvalTables::with_weights(&g, &weights), term),
            0,
            "{term}=0"
        );
    }
}
