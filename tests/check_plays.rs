//! What `check` accepts, the engine plays: random variant files (boards up to 16×16, up to 26 piece
//! kinds, random XBetza, start positions up to a packed board, random rules) that validate must
//! compile, play `perft 2` and survive a depth-2 search. Plus the executor's limits one by one:
//! a packed 16×16 board, leaps as long as the board.

mod common;

use acedrex::game::Game;
use acedrex::movegen::perft::perft;
use acedrex::position::{MoveKind, Position};
use acedrex::search::Limits;
use proptest::prelude::*;

const LETTERS: &[u8] = b"ABCDEFGHIJLMNOPQRSTUVWXYZ"; // K is the royal piece

/// Plays what a validated file describes: perft 2 (against a slow make-and-test count) and a
/// depth-2 search that returns a move whenever there is one.
fn plays(text: &str) -> Result<(), TestCaseError> {
    let Ok(variant) = acedrex::variant::parse_variant("random.txt", text) else {
        return Ok(()); // rejected with diagnostics: nothing more to ask
    };
    let game = Game::new(variant);
    let mut pos = Position::start(&game);
    let n = perft(&mut pos, 2);
    let mut slow = 0;
    let mut pseudo = Vec::new();
    pos.pseudo_moves(&mut pseudo);
    for m in pseudo {
        // Castling and royal initial moves have rules of their own (no passing through check).
        let special = m.kind() == MoveKind::Castle || m.is_initial();
        if (special && pos.is_legal(m)) || (!special && pos.leaves_royal_safe(m)) {
            pos.make(m);
            slow += pos.legal_moves().len() as u64;
            pos.unmake();
        }
    }
    prop_assert_eq!(n, slow, "perft 2 of\n{}", text);
    let r = common::search(
        &pos,
        Limits {
            depth: Some(2),
            nodes: Some(20_000),
            ..Limits::default()
        },
    );
    let legal = pos.legal_moves();
    prop_assert_eq!(r.best.is_some(), !legal.is_empty(), "search of\n{}", text);
    if let Some(m) = r.best {
        prop_assert!(
            legal.contains(&m),
            "search returned an illegal move in\n{}",
            text
        );
    }
    Ok(())
}

fn atom() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "W", "F", "D", "N", "A", "H", "C", "Z", "G", "K", "R", "B", "Q", "WW", "FF", "NN",
            "O2",
        ])
        .prop_map(str::to_string),
        (0u8..17, 0u8..17).prop_map(|(a, b)| format!("({a},{b})")),
    ]
}

fn prefix() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "f", "b", "l", "r", "v", "s", "h", "ff", "fs", "m", "c", "i", "n", "j", "p", "g", "e",
            "o", "a", "mc", "y", "",
        ]),
        0..3,
    )
    .prop_map(|v| v.concat())
}

fn betza() -> impl Strategy<Value = String> {
    let part = (prefix(), atom(), prop::option::of(1u8..5)).prop_map(|(p, a, n)| match n {
        Some(n) if a.len() == 1 => format!("{p}{a}{n}"),
        _ => format!("{p}{a}"),
    });
    prop_oneof![
        8 => prop::collection::vec(part, 1..4).prop_map(|v| v.concat()),
        1 => (atom(), atom()).prop_map(|(a, b)| format!("t[{a}{b}]")),
        1 => (prefix(), atom(), prefix(), atom()).prop_map(|(p, a, q, b)| format!("{p}{a}a{q}{b}")),
    ]
}

/// A whole variant file.
fn variant_file() -> impl Strategy<Value = String> {
    (
        1u8..17,
        1u8..17,
        prop::collection::vec(betza(), 1..8),
        0.0f64..1.0,
        any::<u64>(),
        prop::option::of(1u8..4),
        0usize..4,
        0usize..4,
        rules(),
        hands(),
    )
        .prop_map(
            |(files, ranks, bodies, density, seed, zone, stalemate, bare, rules, hands)| {
                let kinds = bodies.len();
                let mut text = format!("variant random\nboard {files}x{ranks}\n");
                // With an extinction rule the king may be an ordinary piece.
                let king_royal = rules.extinction.is_none() || !rules.second_royal;
                text += if king_royal {
                    "piece K king K royal\n"
                } else {
                    "piece K king K\n"
                };
                for (i, b) in bodies.iter().enumerate() {
                    // A second royal kind (A) where the rules make several royals meaningful.
                    let royal = if i == 0 && rules.second_royal && king_royal {
                        " royal"
                    } else {
                        ""
                    };
                    text += &format!("piece {} p{i} {b}{royal}\n", LETTERS[i] as char);
                }
                // Placement: one king per side, then other pieces by density.
                let mut rng = seed | 1;
                let mut next = |n: usize| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    (rng % n as u64) as usize
                };
                let squares = files as usize * ranks as usize;
                let mut board: Vec<Option<char>> = vec![None; squares];
                if squares >= 2 {
                    board[next(squares / 2 + 1).min(squares - 1)] = Some('K');
                    for s in (0..squares).rev() {
                        if board[s].is_none() {
                            board[s] = Some('k');
                            break;
                        }
                    }
                }
                for cell in board.iter_mut() {
                    if cell.is_none() && (next(1000) as f64) < density * 1000.0 {
                        let l = LETTERS[next(kinds)] as char;
                        *cell = Some(if next(2) == 0 {
                            l
                        } else {
                            l.to_ascii_lowercase()
                        });
                    }
                }
                let rows: Vec<String> = (0..ranks as usize)
                    .rev()
                    .map(|r| {
                        let mut row = String::new();
                        let mut empty = 0;
                        for f in 0..files as usize {
                            match board[r * files as usize + f] {
                                None => empty += 1,
                                Some(c) => {
                                    if empty > 0 {
                                        row += &empty.to_string();
                                        empty = 0;
                                    }
                                    row.push(c);
                                }
                            }
                        }
                        if empty > 0 {
                            row += &empty.to_string();
                        }
                        row
                    })
                    .collect();
                let mut holdings = String::new();
                if let Some(h) = &hands {
                    // Alternately White's and Black's.
                    let letters: String = (0..h.held)
                        .map(|i| {
                            let c = LETTERS[i % kinds] as char;
                            if i % 2 == 0 {
                                c
                            } else {
                                c.to_ascii_lowercase()
                            }
                        })
                        .collect();
                    holdings = format!("[{letters}]");
                }
                text += &format!("start {}{holdings} w Kk - 0 1\n", rows.join("/"));
                if let Some(h) = &hands {
                    if h.to_hand {
                        text += "captures to-hand\n";
                        if h.keep {
                            text += "promoted-captures keep\n";
                        }
                    }
                    if let Some((first, more)) = h.ranks {
                        let first = first.min(ranks);
                        text += &format!("drop-ranks A {first}-{}\n", (first + more).min(ranks));
                    }
                }
                if let Some(z) = zone {
                    let to = &LETTERS[..kinds.min(3)];
                    let to: String = to.iter().map(|&b| b as char).collect();
                    text += &format!("promotion A zone {z} choice {to}\n");
                }
                text += [
                    "",
                    "stalemate stalemated-loses\n",
                    "stalemate draw\n",
                    "stalemate fewer-pieces-wins\n",
                ][stalemate];
                text += [
                    "",
                    "bare-king immediate\n",
                    "bare-king bare-back\n",
                    "bare-king bared-wins\n",
                ][bare];
                text += ["", "royal-loss any\n", "royal-loss last\n"][rules.royal_loss];
                if let Some((n, at_most)) = rules.extinction {
                    let l: String = [b'K', LETTERS[n % kinds]]
                        .iter()
                        .map(|&b| b as char)
                        .collect();
                    let l = if rules.anti.extinct_all {
                        "all".into()
                    } else {
                        l
                    };
                    text += &format!("extinction {l} at-most {at_most}\n");
                    if rules.anti.extinct_wins {
                        text += "extinction-result extinct-wins\n";
                    }
                }
                if rules.anti.must_capture {
                    text += "must-capture yes\n";
                }
                if rules.anti.checkmated_wins {
                    text += "checkmate checkmated-wins\n";
                }
                if let Some((n, first, len)) = rules.anti.initial_ranks {
                    let first = first % ranks + 1;
                    let last = (first + len).min(ranks);
                    text += &format!(
                        "initial-ranks {} {first}-{last}\n",
                        LETTERS[n % kinds] as char
                    );
                }
                if let Some((f, r, reply)) = rules.goal {
                    let sq =
                        |f: u8, r: u8| format!("{}{}", (b'a' + f % files) as char, r % ranks + 1);
                    text += &format!(
                        "goal K{} {}-{}{}\n",
                        LETTERS[0] as char,
                        sq(f, r),
                        sq(f + 1, r),
                        if reply { " reply" } else { "" }
                    );
                }
                if let Some(n) = rules.checks {
                    text += &format!("checks-to-win {n}\n");
                }
                if !rules.giving_check {
                    text += "giving-check forbidden\n";
                }
                text
            },
        )
}

/// Hands: captures to hand or not, promoted pieces kept or demoted, drop ranks, pieces held at the
/// start.
#[derive(Debug, Clone)]
struct Hands {
    to_hand: bool,
    keep: bool,
    ranks: Option<(u8, u8)>,
    held: usize,
}

fn hands() -> impl Strategy<Value = Option<Hands>> {
    prop::option::weighted(
        0.3,
        (
            any::<bool>(),
            any::<bool>(),
            prop::option::of((1u8..4, 0u8..4)),
            0usize..5,
        )
            .prop_map(|(to_hand, keep, ranks, held)| Hands {
                to_hand,
                keep,
                ranks,
                held,
            }),
    )
}

/// The rule kinds that decide how a game ends, drawn at random.
#[derive(Debug, Clone)]
struct Rules {
    second_royal: bool,
    royal_loss: usize,
    /// (kind index, at-most)
    extinction: Option<(usize, u8)>,
    goal: Option<(u8, u8, bool)>,
    checks: Option<u8>,
    giving_check: bool,
    anti: Anti,
}

/// The anti-chess family's keys and rank-based initial moves, drawn at random.
#[derive(Debug, Clone)]
struct Anti {
    must_capture: bool,
    checkmated_wins: bool,
    extinct_all: bool,
    extinct_wins: bool,
    /// (kind index, first rank from 0, band length)
    initial_ranks: Option<(usize, u8, u8)>,
}

fn anti() -> impl Strategy<Value = Anti> {
    (
        prop::bool::weighted(0.3),
        prop::bool::weighted(0.2),
        prop::bool::weighted(0.4),
        prop::bool::weighted(0.4),
        prop::option::weighted(0.3, (0usize..8, 0u8..16, 0u8..3)),
    )
        .prop_map(
            |(must_capture, checkmated_wins, extinct_all, extinct_wins, initial_ranks)| Anti {
                must_capture,
                checkmated_wins,
                extinct_all,
                extinct_wins,
                initial_ranks,
            },
        )
}

fn rules() -> impl Strategy<Value = Rules> {
    (
        any::<bool>(),
        0usize..3,
        prop::option::weighted(0.3, (0usize..8, 0u8..2)),
        prop::option::weighted(0.3, (0u8..16, 0u8..16, any::<bool>())),
        prop::option::weighted(0.3, 1u8..4),
        prop::bool::weighted(0.8),
        anti(),
    )
        .prop_map(
            |(second_royal, royal_loss, extinction, goal, checks, giving_check, anti)| Rules {
                second_royal,
                royal_loss,
                extinction,
                goal,
                checks,
                giving_check,
                anti,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]

    #[test]
    fn random_variant_files_that_check_accepts_play(text in variant_file()) {
        plays(&text)?;
    }
}

fn file(board: &str, pieces: &str, start: &str) -> String {
    format!(
        "variant limits\nboard {board}\npiece K king K royal\n{pieces}start {start} w - - 0 1\n"
    )
}

#[test]
fn a_packed_sixteen_by_sixteen_board_plays() {
    // 256 pieces: each side fills eight ranks; the kings sit in the middle of their halves.
    let mut rows = Vec::new();
    for r in 0..16 {
        let l = if r < 8 { 'n' } else { 'N' };
        let mut row: String = std::iter::repeat_n(l, 16).collect();
        if r == 3 {
            row.replace_range(7..8, "k");
        }
        if r == 12 {
            row.replace_range(7..8, "K");
        }
        rows.push(row);
    }
    let text = file("16x16", "piece N knight N\n", &rows.join("/"));
    let game = Game::new(acedrex::variant::parse_variant("packed.txt", &text).expect("valid"));
    let mut pos = Position::start(&game);
    assert_eq!(pos.pieces(acedrex::position::Side::White).len(), 128);
    assert_eq!(pos.pieces(acedrex::position::Side::Black).len(), 128);
    // Every legal move is a capture by a white knight of ranks 7–8 into ranks 9–10 (the kings, on
    // ranks 4 and 13, are out of reach): count the knight steps that land there.
    let mut expected = 0;
    for f in 0..16i32 {
        for r in 0..8i32 {
            for (dx, dy) in [
                (1, 2),
                (2, 1),
                (-1, 2),
                (-2, 1),
                (1, -2),
                (2, -1),
                (-1, -2),
                (-2, -1),
            ] {
                let (tf, tr) = (f + dx, r + dy);
                if (0..16).contains(&tf) && (8..16).contains(&tr) {
                    expected += 1;
                }
            }
        }
    }
    let moves = pos.legal_moves();
    assert!(moves.iter().all(|&m| m.is_capture()));
    assert_eq!(moves.len(), expected);
    plays(&text).unwrap();
}

#[test]
fn leaps_as_long_as_the_board_play() {
    // (15,1) from a1 reaches p2 and b16 on 16×16, and nothing else.
    let text = file(
        "16x16",
        "piece L long (15,1)\n",
        "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/L14K",
    );
    let game = Game::new(acedrex::variant::parse_variant("long.txt", &text).expect("valid"));
    let mut pos = Position::start(&game);
    let mut from_a1: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| pos.move_text(m))
        .filter(|t| t.starts_with("a1"))
        .collect();
    from_a1.sort();
    assert_eq!(from_a1, ["a1b16", "a1p2"]);
    plays(&text).unwrap();
    // (9,0) on 12×12, the case `check` used to accept and `moves` refuse.
    let text = file(
        "12x12",
        "piece L long (9,0)\n",
        "11k/12/12/12/12/12/12/12/12/12/12/L10K",
    );
    plays(&text).unwrap();
}

#[test]
fn a_leap_longer_than_the_board_is_a_positioned_error() {
    let text = file("8x8", "piece L long (9,0)\n", "7k/8/8/8/8/8/8/L6K");
    let errors = acedrex::variant::parse_variant("long.txt", &text).unwrap_err();
    let shown: Vec<String> = errors.iter().map(|d| d.to_string()).collect();
    assert!(
        shown
            .iter()
            .any(|e| e.contains("long.txt:4:14") && e.contains("(9,0)")),
        "{shown:#?}"
    );
}

#[test]
fn chained_riders_too_many_to_list_play() {
    // Past the walk budget the executor falls back to generation for attacks: still exact.
    let text = file(
        "8x8",
        "piece W chain WpaaaaQ\npiece R rook R\n",
        "4k3/2r1w3/8/3R4/8/1W2r3/8/4K3",
    );
    plays(&text).unwrap();
}
