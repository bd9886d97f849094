//! Games HaChu plays, against HaChu 0.21 (Debian package hachu): the legal move sets along seeded
//! random games recorded in tests/perft/NAME-hachu.txt must be exactly acedrex's, and a fresh walk
//! is checked live. Both come from tests/peers/hachu_legal.py, which asks HaChu over the xboard
//! protocol (see its header for how, and for what it leaves out: HaChu plays the king-capture form,
//! so its moves that leave the king attacked are dropped there). A missing peer skips with a
//! message, and fails under CI=true.

mod common;

use acedrex::position::Position;
use common::{game, legal_texts, need_peer_script, peer_script, recorded_set_differences};

const HACHU: &str = "/usr/games/hachu";

/// A one-leg move of a `lion-trade` kind onto one two squares away: hachu_legal.py leaves these
/// out of HaChu's sets (HaChu's verdict on them depends on memory it never set), so they are left
/// out here too; the rule itself is checked below on positions HaChu answers consistently.
fn lion_leap(pos: &Position, m: acedrex::position::Move) -> bool {
    let Some(t) = &pos.game().tables.lion_trade else {
        return false;
    };
    let lion = |c: u16| pos.at(c).is_piece() && t[pos.at(c).kind().index()].0;
    let (dx, dy) = acedrex::geometry::delta(m.from, m.to);
    m.locust_at().is_none() && lion(m.from) && lion(m.to) && dx.abs().max(dy.abs()) == 2
}

/// A move HaChu's move parser cannot read, so hachu_legal.py never offers it: more than two legs
/// (a Lion Dog taking two on its way, `f5f6,f6f7,f7f8`), or two legs not each one king step (the
/// Lion Dog taking its second square from afar and coming back, `f5f7,f7f6`). HaChu's parser
/// refuses them ("this rejects Lion Dog 2+1 and 2-1 moves"); its own moves of these forms it
/// writes as their legs, which acedrex reads. They are checked in tests/locust.rs instead.
fn beyond_hachus_parser(text: &str) -> bool {
    let legs: Vec<&str> = text.split(',').collect();
    legs.len() > 2
        || legs.len() == 2
            && legs.iter().any(|leg| {
                let sq: Vec<(i32, i32)> = split_squares(leg);
                sq.len() == 2 && ((sq[0].0 - sq[1].0).abs() > 1 || (sq[0].1 - sq[1].1).abs() > 1)
            })
}

/// The squares of one leg's text (`f5g6`) as (file, rank).
fn split_squares(leg: &str) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    let b = leg.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_lowercase() {
        let f = (b[i] - b'a') as i32;
        let mut j = i + 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let Ok(r) = leg[i + 1..j].parse::<i32>() else {
            break;
        };
        out.push((f, r));
        i = j;
    }
    out
}

/// Compares `moves ... ; legal ...` lines with acedrex's legal sets; returns the lines read.
fn compare(variant: &str, data: &str) -> usize {
    let g = game(variant);
    let (cases, failures) = recorded_set_differences(&g, data, |pos| {
        pos.legal_moves()
            .into_iter()
            .filter(|&m| !lion_leap(pos, m))
            .map(|m| pos.move_text(m))
            .filter(|t| !beyond_hachus_parser(t))
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{variant}: {} of {cases} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    cases
}

#[test]
fn mighty_lion_legal_sets_equal_hachu() {
    let data = include_str!("perft/lion-hachu.txt");
    let cases = compare("lion", data);
    assert!(cases > 300, "only {cases} positions read");
    // The walks exercise what the Lion adds: moves that take on the way, igui and the pass.
    for form in [",", "igui", "pass"] {
        let seen = data.lines().any(|l| {
            let legal = l.split(" ; legal ").nth(1).unwrap_or("");
            legal.split_whitespace().any(|m| match form {
                "igui" => m.len() == 9 && m[..2] == m[7..9],
                "pass" => m.len() == 4 && m[..2] == m[2..],
                _ => m.contains(form),
            })
        });
        assert!(seen, "the recorded walks hold no {form:?} move");
    }
}

/// One fresh seeded walk of `plies` through `variant`, HaChu's sets against acedrex's.
fn fresh_walk(test: &str, variant: &str, default_seed: &str, plies: &str, extra: &[&str]) {
    if !need_peer_script(test, HACHU, "apt-get install -y hachu") {
        return;
    }
    let seed = std::env::var("ACEDREX_SEED").unwrap_or_else(|_| default_seed.into());
    let out = std::process::Command::new("python3")
        .arg(peer_script("hachu_legal.py"))
        .args([
            "--variant",
            variant,
            "--games",
            "1",
            "--plies",
            plies,
            "--seed",
            &seed,
        ])
        .args(extra)
        .args([
            "--engine",
            HACHU,
            "--acedrex",
            env!("CARGO_BIN_EXE_acedrex"),
        ])
        .output()
        .expect("start python3");
    assert!(
        out.status.success(),
        "hachu_legal.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cases = compare(variant, &String::from_utf8_lossy(&out.stdout));
    assert!(cases > 10, "only {cases} positions walked");
}

#[test]
fn mighty_lion_legal_sets_equal_hachu_on_a_fresh_walk() {
    fresh_walk(
        "mighty_lion_legal_sets_equal_hachu_on_a_fresh_walk",
        "lion",
        "11",
        "24",
        &[],
    );
}

/// Recorded walks whose legal sets hold a move that takes on its way (`f5g6,g6h7`) and a
/// promotion (`+`): the walks reached what the large shogis add to chess.
fn assert_walks_offer_lion_moves_and_promotions(data: &str) {
    for form in [",", "+"] {
        let seen = data.lines().any(|l| {
            let legal = l.split(" ; legal ").nth(1).unwrap_or("");
            legal.split_whitespace().any(|m| m.contains(form))
        });
        assert!(seen, "the recorded walks hold no {form:?} move");
    }
}

/// The options hachu_legal.py needs for Chu Shogi: the 12x12 board, promotions offered with `+`,
/// and the Lion ids (a Lion, a promoted kirin).
const CHU: &[&str] = &[
    "--files",
    "12",
    "--ranks",
    "12",
    "--promote",
    "+",
    "--lions",
    "N,+O",
];

#[test]
fn chu_shogi_legal_sets_equal_hachu() {
    let data = include_str!("perft/chu-hachu.txt");
    let cases = compare("chu", data);
    assert!(cases > 200, "only {cases} positions read");
    // The walks reach what Chu adds: Lion moves that take on the way, and promotions.
    assert_walks_offer_lion_moves_and_promotions(data);
}

#[test]
fn chu_shogi_legal_sets_equal_hachu_on_a_fresh_walk() {
    fresh_walk(
        "chu_shogi_legal_sets_equal_hachu_on_a_fresh_walk",
        "chu",
        "5",
        "30",
        CHU,
    );
}

/// The options hachu_legal.py needs for Wa Shogi: the 11x11 board, promotions offered with `+`, and
/// the king's exposure also judged by HaChu's `lift` lists (HaChu's wa-shogi takes the treacherous
/// fox after the king in its piece list for a crown prince and does not claim that king's capture).
const WA: &[&str] = &[
    "--files",
    "11",
    "--ranks",
    "11",
    "--promote",
    "+",
    "--royal-by-lift",
];

#[test]
fn wa_shogi_legal_sets_equal_hachu() {
    let data = include_str!("perft/wa-shogi-hachu.txt");
    let cases = compare("wa-shogi", data);
    assert!(cases > 200, "only {cases} positions read");
    // The walks play promotions and go on with the promoted pieces.
    let promotions: std::collections::BTreeSet<&str> = data
        .lines()
        .filter_map(|l| l.strip_prefix("moves ")?.split(" ; legal ").next())
        .flat_map(|moves| moves.split_whitespace())
        .filter(|m| m.ends_with('+'))
        .collect();
    assert!(
        promotions.len() >= 3,
        "only {promotions:?} promoted along the walks"
    );
}

#[test]
fn wa_shogi_legal_sets_equal_hachu_on_a_fresh_walk() {
    fresh_walk(
        "wa_shogi_legal_sets_equal_hachu_on_a_fresh_walk",
        "wa-shogi",
        "3",
        "24",
        WA,
    );
}

/// Wa Shogi forbids repeating a position too: HaChu answers `h10h9` here "Illegal move {Repeats
/// earlier position}" (the rabbit and the fox stepped back and the rabbit returned).
#[test]
fn wa_shogi_forbids_a_move_that_repeats_a_position() {
    let g = game("wa-shogi");
    let mut pos = Position::start(&g);
    for m in ["h3h2", "h9h10", "h2h3"] {
        let mv = pos.parse_move(m).unwrap();
        pos.make(mv);
    }
    let legal = legal_texts(&mut pos);
    assert!(!legal.contains(&"h10h9".to_string()), "{legal:?}");
    // The fox's other moves stay (HaChu accepts `h10f8` here).
    assert!(legal.contains(&"h10f8".to_string()), "{legal:?}");
    // Without the rule the same move is legal.
    let text =
        include_str!("../variants/wa-shogi.txt").replace("repetition forbidden", "repetition 3");
    let v = acedrex::variant::parse_variant("wa-shogi.txt", &text).unwrap();
    let mut pos = Position::start(&acedrex::game::Game::new(v));
    for m in ["h3h2", "h9h10", "h2h3"] {
        let mv = pos.parse_move(m).unwrap();
        pos.make(mv);
    }
    assert!(legal_texts(&mut pos).contains(&"h10h9".to_string()));
}

/// Wa Shogi's promotion (`piece-promotion zone 3 optional on-entry`), each verdict HaChu's
/// (`usermove` after the same moves): White's a-pawn walks up while Black's fox steps to and fro.
#[test]
fn wa_shogi_promotes_on_entering_or_capturing_and_never_must() {
    const WALK: &str = "a3a4 h9h10 a4a5 h10h9 a5a6 h9h10 a6a7 h10h9 a7a8 h9h10";
    let g = game("wa-shogi");
    let legal_after = |moves: &str| {
        let mut pos = Position::start(&g);
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            pos.make(mv);
        }
        legal_texts(&mut pos)
    };
    // Taking the pawn on a9, entering the zone: either.
    let m = legal_after(WALK);
    assert!(
        m.contains(&"a8a9".into()) && m.contains(&"a8a9+".into()),
        "{m:?}"
    );
    // Then a step inside the zone, no capture: no promotion.
    let m = legal_after(&format!("{WALK} a8a9 h10h9"));
    assert!(
        m.contains(&"a9a10".into()) && !m.contains(&"a9a10+".into()),
        "{m:?}"
    );
    // Taking the horse on the last rank: either, though the pawn could never move again.
    let m = legal_after(&format!("{WALK} a8a9 h10h9 a9a10 h9h10"));
    assert!(
        m.contains(&"a10a11".into()) && m.contains(&"a10a11+".into()),
        "{m:?}"
    );
}

/// The options hachu_legal.py needs for Dai Shogi: the 15x15 board, promotions offered with `+`,
/// two-leg moves offered to the pieces with Lion power only (the Lion, a promoted kirin, the
/// Soaring Eagle and the Horned Falcon), and destinations on the lines or two steps away (no Dai
/// piece goes further off a line). Dai has no Lion-trading rules in HaChu.
const DAI: &[&str] = &[
    "--files",
    "15",
    "--ranks",
    "15",
    "--promote",
    "+",
    "--two-leg",
    "L!,+O,+D,+H",
    "--reach",
    "2",
];

#[test]
fn dai_shogi_legal_sets_equal_hachu() {
    let data = include_str!("perft/dai-hachu.txt");
    let cases = compare("dai", data);
    assert!(cases > 200, "only {cases} positions read");
    assert_walks_offer_lion_moves_and_promotions(data);
}

/// Dai's start is HaChu's own array (`daiArray` in HaChu 0.21's source, in its binary's strings),
/// written with the same dressed ids, and every id reads back to its kind.
#[test]
fn dai_start_is_hachus_array_with_its_ids() {
    let g = game("dai");
    let pos = Position::start(&g);
    let hachu = "lnuicsgkgsciunl/a1c'1f1tet1f1c'1a/1x'1a'1wxl!ow1a'1x'1/rf'mvbhdqdhbvmf'r/\
                 ppppppppppppppp/4p'5p'4/15/15/15/4P'5P'4/PPPPPPPPPPPPPPP/\
                 RF'MVBHDQDHBVMF'R/1X'1A'1WOL!XW1A'1X'1/A1C'1F1TET1F1C'1A/LNUICSGKGSCIUNL";
    assert_eq!(pos.fen().split(' ').next(), Some(hachu));
    for (id, name) in [
        ("L!", "lion"),
        ("P'", "go-between"),
        ("A'", "angry-boar"),
        ("X'", "violent-ox"),
    ] {
        let (c, _) = acedrex::piece::id::read_all(id).unwrap();
        let i = g.variant.piece_index(c).unwrap_or_else(|| panic!("{id}"));
        assert_eq!(g.variant.pieces[i].name, name);
    }
    // 65 pieces a side.
    let placement = pos.fen();
    let pieces = |upper: bool| {
        placement
            .split(' ')
            .next()
            .unwrap()
            .chars()
            .filter(|c| c.is_ascii_alphabetic() && c.is_ascii_uppercase() == upper)
            .count()
    };
    assert_eq!((pieces(true), pieces(false)), (65, 65));
}

#[test]
fn dai_shogi_legal_sets_equal_hachu_on_a_fresh_walk() {
    fresh_walk(
        "dai_shogi_legal_sets_equal_hachu_on_a_fresh_walk",
        "dai",
        "5",
        "30",
        DAI,
    );
}

/// Chu Shogi's promotion (`piece-promotion zone 4 optional on-entry`), each verdict HaChu's
/// (`setboard` with the placement, then `usermove` per move; for the pawn that went on without
/// promoting, the game was played up to it).
#[test]
fn chu_promotes_on_entering_the_zone_or_capturing_in_it() {
    let g = game("chu");
    let legal = |fen: &str| legal_texts(&mut Position::from_fen(&g, fen).unwrap());
    let check = |fen: &str, yes: &[&str], no: &[&str]| {
        let m = legal(fen);
        for y in yes {
            assert!(m.contains(&y.to_string()), "{fen}: {y} missing from {m:?}");
        }
        for n in no {
            assert!(!m.contains(&n.to_string()), "{fen}: {n} in {m:?}");
        }
    };
    // Pawns: entering the zone may promote; inside it, not even onto the last rank, where an
    // unpromoted pawn may stay.
    check(
        "k11/4P7/12/12/4P7/12/12/12/12/12/12/K11 w - - 0 1",
        &["e8e9", "e8e9+", "e11e12"],
        &["e11e12+"],
    );
    check(
        "k11/12/4P7/12/12/4P7/12/12/12/12/12/K11 w - - 0 1",
        &["e10e11", "e7e8"],
        &["e10e11+", "e7e8+"],
    );
    // A lance from outside the zone may promote anywhere in it; one inside may not.
    check(
        "k11/4L7/12/12/12/12/12/12/12/12/12/K5L5 w - - 0 1",
        &["g1g12", "g1g12+", "g1g9+", "e11e12"],
        &["g1g8+", "e11e12+"],
    );
    // A capture inside the zone may promote; a step out of it, or a capture outside, may not.
    check(
        "k11/12/4p7/4G7/12/12/2g9/1G10/12/12/12/K11 w - - 0 1",
        &["e9e10", "e9e10+", "e9e8", "b5c6"],
        &["e9e8+", "b5c6+"],
    );
    // A capture from the zone to outside it may promote.
    check(
        "k11/12/12/4G7/4p7/12/12/12/12/12/12/K11 w - - 0 1",
        &["e9e8", "e9e8+"],
        &[],
    );
}

/// Chu's kinds that exist only promoted are named `+L`, in FEN, SAN and on the board, as XBoard
/// writes them.
#[test]
fn chu_writes_promoted_only_kinds_as_xboard_does() {
    let g = game("chu");
    // White's dragon king on e7 takes into the zone and promotes to the Soaring Eagle (HaChu
    // accepts `e7e9+` here).
    let fen = "k11/12/12/4p7/12/4D7/12/12/12/12/12/K11 w - - 0 1";
    let mut pos = Position::from_fen(&g, fen).unwrap();
    let m = pos.parse_move("e7e9+").unwrap();
    assert_eq!(acedrex::pgn::san(&mut pos, m), "Dxe9=+D");
    pos.make(m);
    assert_eq!(
        pos.fen(),
        "k11/12/12/4+D7/12/12/12/12/12/12/12/K11 b - - 0 1"
    );
    // The same piece set up from FEN, and its SAN, read back.
    let fen = "k11/12/12/5p6/4+D7/12/12/12/12/12/12/K11 w - - 0 1";
    let mut pos = Position::from_fen(&g, fen).unwrap();
    assert_eq!(pos.fen(), fen);
    let m = pos.parse_move("e8e10").unwrap();
    assert_eq!(acedrex::pgn::san(&mut pos, m), "+De10");
    assert_eq!(acedrex::pgn::parse_san(&mut pos, "+De10"), Ok(m));
    let m = pos.parse_move("e8f9,f9g10").unwrap();
    let text = acedrex::pgn::san(&mut pos, m);
    assert_eq!(text, "+De8xf9-g10");
    assert_eq!(acedrex::pgn::parse_san(&mut pos, &text), Ok(m));
    assert!(
        acedrex::play::board::render(&pos, Default::default()).contains("+D"),
        "{}",
        acedrex::play::board::render(&pos, Default::default())
    );
}

#[test]
fn promoted_only_ids_errors_name_line_and_column() {
    let base = "variant t\nboard 8x8\npiece K king K royal\npiece P pawn fW promotes +P\n\
                start 4k3/8/8/8/8/8/P7/4K3 w - - 0 1\npiece-promotion zone 2\n";
    common::assert_positioned_errors(
        base,
        &[
            (
                "piece +Q queen Q\n",
                "t.txt:7:7",
                "piece +Q is the promoted form of Q",
            ),
            (
                "piece +pq queen Q\n",
                "t.txt:7:7",
                "`+pq` is not a piece id",
            ),
            (
                "piece +P tokin WfF\nlion-trade +\n",
                "t.txt:8:12",
                "`+` at the end of the lion-trade pieces",
            ),
        ],
    );
    // Without the `+P` kind, P's promoted form is missing.
    let text = base.to_string();
    let errors = acedrex::variant::parse_variant("t.txt", &text).unwrap_err();
    assert!(
        errors.iter().any(|e| e
            .to_string()
            .contains("promotes to `+P`, which is not a declared piece")),
        "{errors:?}"
    );
}

/// The Lion-trading rules (`lion-trade L over P`), on positions HaChu was asked about: each move's
/// verdict is HaChu's (`setboard`, then `usermove`).
#[test]
fn a_lion_takes_a_protected_lion_only_from_next_to_it_or_over_more_than_a_pawn() {
    let g = game("lion");
    let legal = |fen: &str| legal_texts(&mut Position::from_fen(&g, fen).unwrap());
    // Protected by the queen: not by the leap, but from the next square.
    let m = legal("4k3/8/1q1l4/8/3L4/8/8/4K3 w - - 0 1");
    assert!(
        !m.contains(&"d4d6".into()) && m.contains(&"d4d5".into()),
        "{m:?}"
    );
    // Unprotected: the leap takes it.
    assert!(legal("4k3/8/3l4/8/3L4/8/8/4K3 w - - 0 1").contains(&"d4d6".into()));
    // Over a pawn it may not; over a knight it may.
    let over_pawn = legal("4k3/4p3/3l4/3p4/3L4/8/8/4K3 w - - 0 1");
    assert!(!over_pawn.contains(&"d4d5,d5d6".into()), "{over_pawn:?}");
    let over_knight = legal("4k3/4p3/3l4/3n4/3L4/8/8/4K3 w - - 0 1");
    assert!(over_knight.contains(&"d4d5,d5d6".into()), "{over_knight:?}");
}

#[test]
fn no_counterstrike_after_a_lion_is_taken_by_another_piece() {
    let g = game("lion");
    let start = "4k3/8/8/8/1l6/8/3BL3/6nK w - - 0 1";
    let after = |first: &str| {
        let mut pos = Position::from_fen(&g, start).unwrap();
        let m = pos.parse_move(first).unwrap();
        pos.make(m);
        pos
    };
    // HaChu: after d2b4 the knight may not take the Lion on e2; after d2c3 it may.
    let mut pos = after("d2b4");
    let replies = legal_texts(&mut pos);
    assert!(!replies.contains(&"g1e2".into()) && replies.contains(&"g1f3".into()));
    assert!(legal_texts(&mut after("d2c3")).contains(&"g1e2".into()));
    // The restriction is part of the position: the same placement reached otherwise differs.
    let restricted = after("d2b4");
    assert_eq!(restricted.hash(), restricted.fresh_hash());
    assert!(restricted.counterstrike_pending());
}

#[test]
fn lion_trade_errors_name_line_and_column() {
    let base = "variant t\nboard 8x8\npiece K king K royal\npiece L lion KNAD\npiece P pawn fW\n\
                start 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n";
    common::assert_positioned_errors(
        base,
        &[
            (
                "lion-trade X\n",
                "t.txt:7:12",
                "`X` in the lion-trade pieces",
            ),
            (
                "lion-trade L under P\n",
                "t.txt:7:14",
                "`under` after the lion-trade kinds: expected `over LETTERS`",
            ),
            (
                "lion-trade L over Q\n",
                "t.txt:7:19",
                "`Q` in the lion-trade `over` pieces",
            ),
        ],
    );
}

/// `repetition forbidden`: HaChu answers `g8g10` here "Illegal move {Repeats earlier position}"
/// (the Lions went out and the White one came back, so Black's return would repeat the start).
#[test]
fn chu_forbids_a_move_that_repeats_a_position() {
    let g = game("chu");
    let mut pos = Position::start(&g);
    for m in ["f3f5", "g10g8", "f5f3"] {
        let mv = pos.parse_move(m).unwrap();
        pos.make(mv);
    }
    let legal = legal_texts(&mut pos);
    assert!(!legal.contains(&"g8g10".to_string()), "{legal:?}");
    assert!(legal.contains(&"g8g7".to_string()), "{legal:?}");
    // Without the rule the same move is legal (a draw only at the third occurrence).
    let text = include_str!("../variants/chu.txt").replace("repetition forbidden", "repetition 3");
    let v = acedrex::variant::parse_variant("chu.txt", &text).unwrap();
    let mut pos = Position::start(&acedrex::game::Game::new(v));
    for m in ["f3f5", "g10g8", "f5f3"] {
        let mv = pos.parse_move(m).unwrap();
        pos.make(mv);
    }
    assert!(legal_texts(&mut pos).contains(&"g8g10".to_string()));
}

/// Passing by stepping out and back leaves the same position whichever piece does it: HaChu
/// lists one pass, the Soaring Eagle's where it and the Lion both can (the position of a game
/// against HaChu in which HaChu answered the Lion's `e9e9` "Illegal move" and accepted `f6f6`;
/// every pass acedrex offered along two such games, 350 positions, HaChu accepted).
#[test]
fn chu_has_one_pass_written_from_the_least_valuable_piece() {
    let g = game("chu");
    let fen = "1v2g1k1s3/3r1tetg3/10v1/2s1N3p2l/1pp5i1f1/3+r1+B1n2p1/5+D6/4P7/1P5E1+VF1/12/\
               1FS1TO1T1S2/2C1GK1G1C2 w - - 0 120";
    let moves = legal_texts(&mut Position::from_fen(&g, fen).unwrap());
    let passes: Vec<&String> = moves
        .iter()
        .filter(|m| !m.contains(',') && m[..m.len() / 2] == m[m.len() / 2..])
        .collect();
    assert_eq!(passes, ["f6f6"], "{moves:?}");
    // Only the pass is merged: the Lion keeps its other moves (HaChu accepts e9e8 here).
    assert!(moves.contains(&"e9e8".to_string()), "{moves:?}");
}

/// The crown prince (`+E`, the promoted drunk elephant) is a second royal piece, as HaChu plays
/// it (`royal-loss last`): while a side has both king and prince, neither is in check; with one of
/// them left, that one is. After these moves (White's elephant promoted on h9, its king walked to
/// i6), HaChu, set to move after `i6j6`, takes the king with `j7j6` and claims nothing; with the
/// same moves but `h8h9` unpromoted, it takes it and claims "0-1 {king capture}".
#[test]
fn chu_crown_prince_is_a_second_royal_as_hachu_plays_it() {
    const MOVES: &str = "f3f5 a9a8 g3f3 a8a7 g2g3 l9l8 g1g2 l8l7 g3e5 b9b8 g2g3 b8b7 g4g5 k9k8 \
                         g3g4 k8k7 g4h5 c9c8 h5h6 c8c7 h6h7 j9j8 h7h8 j8j7 h8h9+ a7a6 f1g2 b7b6 \
                         g2g3 c7c6 g3g4 a6a5 g4h5 b6b5 h5i6 c6c5";
    let g = game("chu");
    let play = |moves: &str| {
        let mut pos = Position::start(&g);
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            pos.make(mv);
        }
        pos
    };
    let mut with_prince = play(MOVES);
    assert!(!with_prince.in_check());
    let legal = legal_texts(&mut with_prince);
    assert!(legal.contains(&"i6j6".to_string()), "{legal:?}");
    // Black takes the king: the prince is now White's only royal, and its being attacked by the
    // Lion on g10 is check.
    let mv = with_prince.parse_move("i6j6").unwrap();
    with_prince.make(mv);
    let mv = with_prince.parse_move("j7j6").unwrap();
    with_prince.make(mv);
    assert!(with_prince.in_check());
    // Without the prince the king may not step into the pawn's attack.
    let mut without = play(&MOVES.replace("h8h9+", "h8h9"));
    let legal = legal_texts(&mut without);
    assert!(!legal.contains(&"i6j6".to_string()), "{legal:?}");
    assert!(legal.contains(&"i6j5".to_string()), "{legal:?}");
}

/// The options hachu_legal.py needs for Macadamia Shogi: the 13x13 board, promotions offered with
/// `+`, two-leg moves for the pieces with Lion power (the Lion, the Lion Dog and their promoted
/// forms), destinations within two king steps or on a queen line (every piece's reach).
const MACADAMIA: &[&str] = &[
    "--files",
    "13",
    "--ranks",
    "13",
    "--promote",
    "+",
    "--two-leg",
    "L!,W!,+L!,+I',+J'",
    "--reach",
    "2",
];

#[test]
fn macadamia_shogi_legal_sets_equal_hachu() {
    let data = include_str!("perft/macadamia-shogi-hachu.txt");
    let cases = compare("macadamia-shogi", data);
    assert!(cases > 200, "only {cases} positions read");
    assert_walks_offer_lion_moves_and_promotions(data);
    // The walks reach the Lion Dog's moves that take on the way: a two-leg move of a piece that
    // started on the Lion Dog's square or went there.
    let g = game("macadamia-shogi");
    let mut taken_on_the_way = 0;
    for line in data.lines().filter(|l| l.starts_with("moves ")) {
        let (moves, _) = line["moves ".len()..].split_once(" ; legal ").unwrap();
        let mut pos = Position::start(&g);
        for m in moves.split_whitespace().filter(|&m| m != "-") {
            let mv = pos.parse_move(m).unwrap();
            pos.make(mv);
        }
        taken_on_the_way += pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.locust_at().is_some() && g.id(pos.at(m.from).kind()) == "W!")
            .count();
    }
    assert!(
        taken_on_the_way > 0,
        "the walks offer no Lion Dog move that takes on its way"
    );
}

#[test]
fn macadamia_shogi_legal_sets_equal_hachu_on_a_fresh_walk() {
    fresh_walk(
        "macadamia_shogi_legal_sets_equal_hachu_on_a_fresh_walk",
        "macadamia-shogi",
        "5",
        "30",
        MACADAMIA,
    );
}

/// The options hachu_legal.py needs for Werewolf Chess: pawns offered the rook suffix on the last
/// rank, and a capture of the werewolf recorded with its suffix, as HaChu writes it.
const WEREWOLF: &[&str] = &[
    "--pawn-suffix",
    "r",
    "--contagion",
    "W",
    "--contagion-not-by",
    "K",
];

#[test]
fn werewolf_legal_sets_equal_hachu() {
    let data = include_str!("perft/werewolf-hachu.txt");
    let cases = compare("werewolf", data);
    assert!(cases > 300, "only {cases} positions read");
    // The walks reach what the game adds: they play werewolf moves that take on the way and
    // captures that make the taker a werewolf, and offer pawns' promotions to a rook.
    let played: Vec<&str> = data
        .lines()
        .filter_map(|l| l.strip_prefix("moves ")?.split(" ; legal ").next())
        .flat_map(|moves| moves.split_whitespace())
        .collect();
    for (what, seen) in [
        ("a take on the way", played.iter().any(|m| m.contains(','))),
        (
            "a werewolf's taker",
            played.iter().any(|m| m.ends_with('w')),
        ),
    ] {
        assert!(seen, "the recorded walks play no {what}");
    }
    let offered = data
        .lines()
        .filter_map(|l| l.split(" ; legal ").nth(1))
        .flat_map(|legal| legal.split_whitespace())
        .any(|m| m.len() == 5 && m.ends_with('r'));
    assert!(offered, "the recorded walks offer no promotion");
}

#[test]
fn werewolf_legal_sets_equal_hachu_on_a_fresh_walk() {
    fresh_walk(
        "werewolf_legal_sets_equal_hachu_on_a_fresh_walk",
        "werewolf",
        "7",
        "40",
        WEREWOLF,
    );
}

/// `contagion W not-by K`, on a position of a walk against HaChu (HaChu plays `e2d3w` here, and
/// after `c2d3` its d3 pawn moves as a werewolf): the taker becomes a werewolf, the move is
/// written as a promotion to it and read with or without the suffix; the king stays a king.
#[test]
fn a_piece_that_takes_the_werewolf_becomes_one() {
    const MOVES: &str = "b2b3 g7g6 b1a3 d7d5 a3c4 h7h6 g1h3 d5c4 f2f3 d8f6 e1f2 c8f5 b3b4 f6g7 \
                         a1b1 g7d4 f2g3 f5e4 a2a3 h8h7 g3h4 d4d3";
    let g = game("werewolf");
    let mut pos = Position::start(&g);
    for m in MOVES.split_whitespace() {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.make(mv);
    }
    let before = pos.fen();
    let legal = legal_texts(&mut pos);
    assert!(legal.contains(&"c2d3w".to_string()), "{legal:?}");
    assert!(!legal.contains(&"c2d3".to_string()), "{legal:?}");
    let m = pos.parse_move("c2d3").unwrap();
    assert_eq!(pos.parse_move("c2d3w"), Ok(m));
    assert_eq!(acedrex::pgn::san(&mut pos, m), "cxd3=W");
    pos.make(m);
    assert!(
        pos.fen()
            .starts_with("rn2kbn1/ppp1pp1r/6pp/8/1Pp1b2K/P2W1P1N/3PP1PP/1RBW1B1R b"),
        "{}",
        pos.fen()
    );
    assert_eq!(pos.hash(), pos.fresh_hash());
    pos.unmake();
    assert_eq!(pos.fen(), before);
    // The king takes it and stays a king (`not-by K`); a werewolf takes one and stays itself.
    let mut kings = Position::from_fen(&g, "8/8/8/8/8/5w2/4K3/k7 w - - 0 1").unwrap();
    let legal = legal_texts(&mut kings);
    assert!(
        legal.contains(&"e2f3".to_string()) && !legal.contains(&"e2f3w".to_string()),
        "{legal:?}"
    );
    let mut wolves = Position::from_fen(&g, "8/8/8/8/8/5w2/4W3/k3K3 w - - 0 1").unwrap();
    let legal = legal_texts(&mut wolves);
    assert!(
        legal.contains(&"e2f3".to_string()) && !legal.contains(&"e2f3w".to_string()),
        "{legal:?}"
    );
    // A pawn that takes it on the last rank becomes a werewolf, not a rook.
    let mut pawn = Position::from_fen(&g, "4w3/3P4/8/8/8/8/8/k3K3 w - - 0 1").unwrap();
    let legal = legal_texts(&mut pawn);
    assert!(
        legal.contains(&"d7e8w".to_string()) && legal.contains(&"d7d8r".to_string()),
        "{legal:?}"
    );
    assert!(!legal.contains(&"d7e8r".to_string()), "{legal:?}");
}

#[test]
fn contagion_errors_name_line_and_column() {
    let base = "variant t\nboard 8x8\npiece K king K royal\npiece W wolf K3\npiece P pawn fW\n\
                start 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n";
    common::assert_positioned_errors(
        base,
        &[
            ("contagion X\n", "t.txt:7:11", "`X` in the contagion pieces"),
            (
                "contagion W by K\n",
                "t.txt:7:13",
                "`by` after the contagion kinds: expected `not-by LETTERS`",
            ),
            (
                "contagion W not-by Q\n",
                "t.txt:7:20",
                "`Q` in the contagion `not-by` pieces",
            ),
        ],
    );
}

/// The options hachu_legal.py needs for Cashew Shogi: the 13x13 board, promotions offered with
/// `+`, two-leg moves for the pieces with Lion power (the Lion, the Lion Dog, the furious fiend
/// and the promoted barbarians that move as a Lion and a Lion Dog), destinations within two king
/// steps or on a queen line (every piece's reach).
const CASHEW: &[&str] = &[
    "--files",
    "13",
    "--ranks",
    "13",
    "--promote",
    "+",
    "--two-leg",
    "L!,W!,+L!,+W',+E'",
    "--reach",
    "2",
];

#[test]
fn cashew_shogi_legal_sets_equal_hachu() {
    let data = include_str!("perft/cashew-shogi-hachu.txt");
    let cases = compare("cashew-shogi", data);
    assert!(cases >= 200, "only {cases} positions read");
    assert_walks_offer_lion_moves_and_promotions(data);
}

#[test]
fn cashew_shogi_legal_sets_equal_hachu_on_a_fresh_walk() {
    fresh_walk(
        "cashew_shogi_legal_sets_equal_hachu_on_a_fresh_walk",
        "cashew-shogi",
        "5",
        "24",
        CASHEW,
    );
}

/// Cashew's start is HaChu's own array (`cashewArray`, the placement of the `setup` line it sends
/// XBoard), with pieces that start promoted (`+O`, `+X`, `+N`), and the ids HaChu's engine reads
/// from it name the kinds the file gives them.
#[test]
fn cashew_start_is_hachus_array_with_its_ids() {
    let g = game("cashew-shogi");
    let pos = Position::start(&g);
    let hachu = "lh!f'dh'j'ki'qc'hg!l/t!p'w!+oogngx+xl!k'd!/r've'fst'+nt'sfw'vl'/ppppppppppppp/\
                 3d'5d'3/13/13/13/3D'5D'3/PPPPPPPPPPPPP/L'VW'FST'+NT'SFE'VR'/\
                 D!K'L!+XXGNGO+OW!P'T!/LG!HC'QI'KJ'H'DF'H!L";
    assert_eq!(pos.fen().split(' ').next(), Some(hachu));
    for (id, name) in [
        ("W!", "lion-dog"),
        ("G!", "long-nosed-goblin"),
        ("I'", "left-general"),
        ("+O", "great-dragon"),
    ] {
        let (c, _) = acedrex::piece::id::read_all(id).unwrap();
        let i = g.variant.piece_index(c).unwrap_or_else(|| panic!("{id}"));
        assert_eq!(g.variant.pieces[i].name, name);
    }
    // HaChu's engine reads `G!` as its left general (its id table's `LG`), not as the long-nosed
    // goblin its `piece` line describes: G! on b1 and I' on f1 move alike.
    let moves_of = |id: &str| {
        let (c, _) = acedrex::piece::id::read_all(id).unwrap();
        g.variant.pieces[g.variant.piece_index(c).unwrap()]
            .betza_text
            .clone()
    };
    assert_eq!(moves_of("G!"), moves_of("I'"));
}
