//! Static exchange evaluation over the compiled attack tables: what a capture wins once both sides
//! have recaptured on its square with their least valuable attackers, as long as that pays. The
//! attackers are found by the variant's attack instances (the squares each attack needs empty or
//! occupied), read through a board from which the pieces already spent are lifted, so x-rays and
//! hoppers' screens follow; no piece is named.

use crate::eval::EvalTables;
use crate::position::{Move, MoveKind, Position, Side};
use crate::tables::DIFF_BASE;
use crate::tables::exec::DIFF_SIZE;

/// What a royal piece is worth in an exchange: more than anything it could win.
const ROYAL: i32 = 100_000;
/// Most pieces an exchange follows; a longer one is cut there.
const MAX_DEPTH: usize = 32;

/// Whether the exchange of `m` can be followed in this game: pieces whose attacks cannot be listed
/// by cell difference (cylinder boards) defeat it.
pub fn available(pos: &Position) -> bool {
    !pos.game()
        .tables
        .flat_attacks
        .by_generation
        .iter()
        .any(|&b| b)
}

/// The material `m` wins for the side that plays it after the best sequence of recaptures on
/// its square, in centipawns; `None` for moves the exchange cannot follow (castling, drops,
/// en passant). A locust move wins what it takes on its way as well, and those pieces are gone
/// from the board the exchange is read through. Legality (pins, checks) is not considered.
pub fn see(pos: &Position, et: &EvalTables, m: Move) -> Option<i32> {
    if !matches!(
        m.kind(),
        MoveKind::Normal | MoveKind::SetsEp | MoveKind::Locust
    ) || (!m.captured().is_empty() && m.captured_at() != m.to)
    {
        return None;
    }
    let worth = |k: usize| if et.royal[k] { ROYAL } else { et.value[k] };
    let target = m.to;
    let mover = pos.at(m.from);
    let mut gain = [0i32; MAX_DEPTH];
    gain[0] = pos.victims(m).map(|v| worth(v.kind().index())).sum();
    // The piece standing on the square after the move, which the next capture takes.
    let mut on_square = worth(mover.kind().index());
    if let Some(p) = m.promotion() {
        gain[0] += worth(p.index()) - on_square;
        on_square = worth(p.index());
    }
    // The squares emptied so far: the mover's, the locust victims', then each recapturer's.
    let mut lifted = [0u16; MAX_DEPTH + 1 + crate::position::MAX_LOCUSTS];
    lifted[0] = m.from;
    let mut n = 1;
    for at in m.locusts() {
        lifted[n] = at;
        n += 1;
    }
    let mut d = 0;
    let mut side = !mover.side();
    while d + 1 < MAX_DEPTH {
        let Some((a, value)) = least_attacker(pos, et, target, side, &lifted[..n]) else {
            break;
        };
        d += 1;
        gain[d] = on_square - gain[d - 1];
        // Neither side can do better by going on.
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        on_square = value;
        lifted[n] = a;
        n += 1;
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    Some(gain[0])
}

/// The least valuable piece of `by` attacking `target` with the pieces on `lifted` gone, and its
/// worth.
fn least_attacker(
    pos: &Position,
    et: &EvalTables,
    target: u16,
    by: Side,
    lifted: &[u16],
) -> Option<(u16, i32)> {
    let flat = &pos.game().tables.flat_attacks;
    let base = by.index() * flat.types;
    let diff = target as i16 + DIFF_BASE;
    let gone = |c: u16| lifted.contains(&c);
    let empty = |c: u16| pos.at(c).is_empty() || gone(c);
    let mut best: Option<(u16, i32)> = None;
    for &a in pos.pieces(by) {
        if a == target {
            continue;
        }
        // Most pieces have no attack of this cell difference: that look-up comes first.
        let k = pos.at(a).kind().index();
        let entry = flat.index[(base + k) * DIFF_SIZE + (diff - a as i16) as usize];
        if entry == 0 || gone(a) {
            continue;
        }
        let value = if et.royal[k] { ROYAL } else { et.value[k] };
        if best.is_some_and(|(_, v)| v <= value) {
            continue;
        }
        let first = (entry >> 8) as usize;
        let hits = flat.instances[first..first + (entry & 0xFF) as usize]
            .iter()
            .any(|inst| {
                // An attack that takes a piece on its way changes more than the square: the
                // exchange leaves it out.
                if (inst.initial && !pos.is_virgin(a)) || inst.enemy != 0 {
                    return false;
                }
                let offs = &flat.offsets[inst.first as usize
                    ..inst.first as usize + (inst.empty + inst.occupied) as usize];
                let (e, o) = offs.split_at(inst.empty as usize);
                e.iter().all(|&o| empty((a as i16 + o) as u16))
                    && o.iter().all(|&o| {
                        let c = (a as i16 + o) as u16;
                        pos.at(c).is_piece() && !gone(c)
                    })
            });
        if hits {
            best = Some((a, value));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn see_of(variant: &str, fen: &str, text: &str) -> i32 {
        let game = Game::new(crate::variant::builtin(variant).unwrap());
        let mut pos = Position::from_fen(&game, fen).unwrap();
        let et = EvalTables::new(&game);
        let m = pos.parse_move(text).unwrap();
        see(&pos, &et, m).unwrap()
    }

    #[test]
    fn exchanges_follow_the_attack_tables() {
        let game = Game::new(crate::variant::builtin("chess").unwrap());
        let (p, r) = (value(&game, 'P'), value(&game, 'R'));
        // An undefended knight: won outright.
        let v = see_of("chess", "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5");
        assert_eq!(v, value(&game, 'N'));
        // A pawn defended by a pawn, taken by the rook: the rook is lost for it.
        let v = see_of("chess", "4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5");
        assert_eq!(v, p - r);
        // Doubled rooks against one defending rook: the rook behind recaptures through the
        // square the first one left, so the pawn is won and the rooks trade.
        let v = see_of("chess", "4k3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5");
        assert_eq!(v, p);
        // Without the rook behind, the defender wins the rook for the pawn.
        let v = see_of("chess", "4k3/3r4/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5");
        assert_eq!(v, p - r);
        // A defended pawn taken by a pawn: pawn for pawn.
        let v = see_of("chess", "4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5");
        assert_eq!(v, 0);
        // A king does not recapture on a square the other side still attacks.
        let v = see_of("chess", "8/8/8/8/8/3k4/3p4/3QK3 w - - 0 1", "d1d2");
        assert_eq!(v, p);
    }

    #[test]
    fn a_locust_move_wins_its_victim_on_the_way() {
        let game = Game::new(crate::variant::builtin("chu").unwrap());
        let (lion, dragon, pawn) = (value(&game, 'N'), value(&game, 'D'), value(&game, 'P'));
        // The Lion takes the dragon on e6 and steps on to f5, where nothing attacks it.
        let alone = "k11/12/12/12/12/12/4d7/3N8/12/12/12/K11 w - - 0 1";
        assert_eq!(see_of("chu", alone, "d5e6,e6f5"), dragon);
        // A gold on e7 guards e6: staying there loses the Lion, stepping back to d5 does not.
        let guarded = "k11/12/12/12/12/4g7/4d7/3N8/12/12/12/K11 w - - 0 1";
        assert_eq!(see_of("chu", guarded, "d5e6"), dragon - lion);
        assert_eq!(see_of("chu", guarded, "d5e6,e6d5"), dragon);
        // A pawn on f6 guards f5; the dragon is gone from e6 when the exchange is read.
        let pawn_on_f6 = "k11/12/12/12/12/12/4dp6/3N8/12/12/12/K11 w - - 0 1";
        assert_eq!(see_of("chu", pawn_on_f6, "d5e6,e6f5"), dragon - lion);
        // Taking the pawn on the way as well as the dragon at the end: both are won.
        let both = "k11/12/12/12/12/12/4p7/3N1d6/12/12/12/K11 w - - 0 1";
        assert_eq!(see_of("chu", both, "d5e6,e6f5"), pawn + dragon);
    }

    fn value(game: &std::sync::Arc<Game>, letter: char) -> i32 {
        let et = EvalTables::new(game);
        let k = game
            .variant
            .pieces
            .iter()
            .position(|p| p.letter == letter)
            .unwrap();
        et.value[k]
    }
}
