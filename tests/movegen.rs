//! The fast paths of the move generator against its slow, obvious references, on positions from
//! random play in every shipped variant:
//! - attack detection from attack instances = "some pseudo-legal move of the other side lands here";
//! - the per-node legality filter = make, test the royal square, unmake, for every move.

mod common;

use acedrex::position::Position;
use common::{Rng, game};

/// Every shipped variant: the fast paths differ by piece and board (cylinder pieces, for one,
/// also attack across the joined edge).
fn variants() -> Vec<&'static str> {
    acedrex::variant::builtin_names()
}

fn positions(variant: &str, seed: u64, games: usize, plies: usize) -> Vec<String> {
    let g = game(variant);
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(&g);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then so that positions open up.
            let caps: Vec<_> = moves.iter().copied().filter(|m| m.is_capture()).collect();
            let m = if !caps.is_empty() && rng.below(3) == 0 {
                caps[rng.below(caps.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.make(m);
            out.push(pos.fen());
        }
    }
    out
}

#[test]
fn attack_instances_agree_with_generated_captures() {
    for variant in variants() {
        let g = game(variant);
        for fen in positions(variant, 11, 6, 50).iter().step_by(5) {
            let mut pos = Position::from_fen(&g, fen).expect("fen");
            // A finished game generates no moves (codrus: a side without its king has won).
            if pos.decided() {
                continue;
            }
            // Let the side not to move generate: its captures are what attacks the pieces of the side to move.
            // Each piece's own moves: under `must-drop` (sittuyin's set-up) the side generates only
            // drops, yet its pieces on the board still attack.
            let defender = pos.side_to_move();
            pos.make_null();
            let mut moves = Vec::new();
            for &from in pos.pieces(!defender).to_vec().iter() {
                pos.piece_moves(from, &mut moves);
            }
            for &sq in pos.pieces(defender).to_vec().iter() {
                let by_generation = moves
                    .iter()
                    .any(|m| m.to == sq && m.kind() != acedrex::position::MoveKind::Castle);
                assert_eq!(pos.at(sq).side(), defender);
                assert_eq!(
                    pos.attacked(sq, !defender),
                    by_generation,
                    "{variant} {fen}: square {}",
                    acedrex::geometry::square_name(sq)
                );
            }
        }
    }
}

/// `lion-trade`, judged here by playing the move and generating the replies (the engine reads its
/// attack tables): a protected kind taking one on its destination from farther than a step, over
/// nothing or an `over` kind, must leave no reply landing there; an unprotected kind may not take
/// one right after the same happened to it.
fn lion_trade_allows(pos: &mut Position, m: acedrex::position::Move) -> bool {
    let Some(t) = pos.game().tables.lion_trade.clone() else {
        return true;
    };
    let lion = |p: acedrex::position::Piece| p.is_piece() && t[p.kind().index()].0;
    let on_way = m.locust_at().map(|c| pos.at(c));
    if !lion(m.captured()) && !on_way.is_some_and(lion) {
        return true;
    }
    if !lion(pos.at(m.from)) {
        return !pos.counterstrike_pending();
    }
    let (dx, dy) = acedrex::geometry::delta(m.from, m.to);
    let bridged = on_way.is_some_and(|v| lion(v) || !t[v.kind().index()].1);
    if !lion(m.captured()) || bridged || dx.abs().max(dy.abs()) == 1 {
        return true;
    }
    pos.make(m);
    let mut replies = Vec::new();
    pos.pseudo_moves(&mut replies);
    pos.unmake();
    !replies
        .iter()
        .any(|r| r.to == m.to || r.locust_at() == Some(m.to))
}

/// `royal-in-check takes-checker` (makpong), by generation: a royal piece in check may move only
/// onto the square of the one enemy piece whose pseudo-legal moves reach it.
fn takes_the_one_checker(pos: &mut Position, m: acedrex::position::Move) -> bool {
    let side = pos.side_to_move();
    let royal = pos.royal_square(side);
    if !pos.game().tables.royal_takes_checker || royal == 0 || m.from != royal {
        return true;
    }
    pos.make_null();
    let mut replies = Vec::new();
    pos.pseudo_moves(&mut replies);
    pos.unmake_null();
    let mut checkers: Vec<u16> = replies
        .iter()
        .filter(|r| r.to == royal)
        .map(|r| r.from)
        .collect();
    checkers.sort();
    checkers.dedup();
    checkers.is_empty() || checkers == [m.to]
}

#[test]
fn legality_filter_agrees_with_make_and_test() {
    for variant in variants() {
        let g = game(variant);
        for fen in positions(variant, 23, 6, 60) {
            let mut pos = Position::from_fen(&g, &fen).expect("fen");
            let mut pseudo = Vec::new();
            pos.pseudo_moves(&mut pseudo);
            // Castling and royal initial moves keep their own rules; every other move is played out.
            // Under bikjang, with the royals facing, a pass is legal even in check and every other
            // move must part them.
            let bikjang = pos.game().tables.bikjang && pos.royals_facing();
            let slow: Vec<_> = pseudo
                .iter()
                .copied()
                .filter(|&m| {
                    if bikjang {
                        if m.kind() == acedrex::position::MoveKind::Pass {
                            return true;
                        }
                        pos.make(m);
                        let parted = !pos.royals_facing();
                        pos.unmake();
                        if !parted {
                            return false;
                        }
                    }
                    if !lion_trade_allows(&mut pos, m) {
                        return false;
                    }
                    if !takes_the_one_checker(&mut pos, m) {
                        return false;
                    }
                    // `gating ... pins-hold`: the move must be legal without its gated piece too.
                    if pos.game().tables.hand.gate_pins_hold
                        && m.gated().is_some()
                        && !pos.leaves_royal_safe(m.without_gate())
                    {
                        return false;
                    }
                    if m.kind() == acedrex::position::MoveKind::Castle || m.is_initial() {
                        pos.is_legal(m)
                    } else {
                        pos.leaves_royal_safe(m)
                    }
                })
                .collect();
            let mut fast = pos.legal_moves();
            let mut slow_sorted = slow.clone();
            slow_sorted.sort();
            fast.sort();
            assert_eq!(fast, slow_sorted, "{variant} {fen}");
        }
    }
}

#[test]
fn tactical_moves_are_the_captures_and_promotions_of_all_moves() {
    for variant in variants() {
        let g = game(variant);
        for fen in positions(variant, 31, 4, 60) {
            let pos = Position::from_fen(&g, &fen).expect("fen");
            let mut all = Vec::new();
            pos.pseudo_moves(&mut all);
            let mut want: Vec<_> = all
                .into_iter()
                .filter(|&m| m.promotion().is_some() || m.is_capture())
                .collect();
            let mut got = Vec::new();
            pos.tactical_moves(&mut got);
            want.sort();
            got.sort();
            assert_eq!(got, want, "{variant} {fen}");
        }
    }
}

#[test]
fn a_move_reached_both_ways_round_a_cylinder_reads_from_its_text() {
    // Rank 5 is empty but for the rook and the pawn: the rook reaches g5 by one step left, or
    // round the joined edge through a5..f5. Both paths are the same move, so `h5g5` names it.
    let g = game("cylinder");
    let mut pos = Position::from_fen(&g, "4k3/8/8/6pR/8/8/8/4K3 w - - 0 1").unwrap();
    let m = pos.parse_move("h5g5").unwrap();
    pos.make(m);
    assert_eq!(pos.fen(), "4k3/8/8/6R1/8/8/8/4K3 b - - 0 1");
}
