//! A cheap filter in front of the "does this move give check?" test: which squares, relative to a
//! target, can take part in an attack on it. A move changes the board only on its from and to
//! squares (plus e.p., castling and promotion, handled apart), so when neither square can matter to
//! any attack on the enemy royal piece, and the moved piece cannot attack it, it gives no check.

use crate::game::Game;
use crate::position::{Kind, Move, MoveKind, Position, Side};
use crate::tables::DIFF_BASE;

/// Per attacking side: offsets (square − target + `DIFF_BASE`) that some attack of that side needs
/// empty, or needs occupied; and the piece types whose attacks need the move generator.
pub struct CheckFilter {
    empty: [Vec<bool>; 2],
    occupied: [Vec<bool>; 2],
    slow: [bool; 2],
}

impl CheckFilter {
    pub fn new(game: &Game) -> CheckFilter {
        let size = (2 * DIFF_BASE + 1) as usize;
        let mut empty = [vec![false; size], vec![false; size]];
        let mut occupied = [vec![false; size], vec![false; size]];
        let mut slow = [false; 2];
        for piece in &game.tables.pieces {
            for side in 0..2 {
                let table = &piece.attacks[side];
                slow[side] |= table.by_generation;
                for (d, &(first, n)) in table.index.iter().enumerate() {
                    // d = target − attacker + DIFF_BASE; a square at attacker + e is at target + e − (d − DIFF_BASE).
                    let diff = d as i32 - DIFF_BASE as i32;
                    for inst in &table.instances[first as usize..first as usize + n as usize] {
                        for (list, out) in [
                            (&inst.empty, &mut empty[side]),
                            (&inst.occupied, &mut occupied[side]),
                        ] {
                            for &e in list.iter() {
                                let rel = e as i32 - diff + DIFF_BASE as i32;
                                if let Some(slot) = out.get_mut(rel as usize) {
                                    *slot = true;
                                } else {
                                    slow[side] = true;
                                }
                            }
                        }
                    }
                }
            }
        }
        CheckFilter {
            empty,
            occupied,
            slow,
        }
    }

    #[inline]
    fn rel(sq: u16, target: u16) -> usize {
        (sq as i32 - target as i32 + DIFF_BASE as i32) as usize
    }

    /// Could the move just made by `mover` give check to the royal piece on `target`? Looks at the
    /// moved piece's attack table (direct checks) and at the squares it left and entered
    /// (discovered checks, screens). False means it certainly does not give check.
    #[inline]
    pub fn may_check(&self, pos: &Position, m: Move, target: u16, mover: Side) -> bool {
        if target == 0 {
            // No tracked royal square (several royals, horde's Black king): only a variant
            // without royal pieces rules check out.
            return pos.game().tables.has_royal;
        }
        self.may_check_as(pos, m, target, mover, pos.at(m.to).kind())
    }

    /// As [`CheckFilter::may_check`], before `m` is made (the side to move is the mover).
    #[inline]
    pub fn may_check_before(&self, pos: &Position, m: Move) -> bool {
        let mover = pos.side_to_move();
        let target = pos.royal_square(!mover);
        let ty = m.promotion().unwrap_or(pos.mover(m).kind());
        if target == 0 {
            return pos.game().tables.has_royal;
        }
        self.may_check_as(pos, m, target, mover, ty)
    }

    #[inline]
    fn may_check_as(&self, pos: &Position, m: Move, target: u16, mover: Side, ty: Kind) -> bool {
        let us = mover.index();
        if self.slow[us] || m.kind() != MoveKind::Normal {
            return true;
        }
        let table = &pos.game().tables.pieces[ty.index()].attacks[us];
        table.index[Self::rel(target, m.to)].1 != 0
            || self.empty[us][Self::rel(m.from, target)]
            || self.occupied[us][Self::rel(m.to, target)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// Random games in every shipped variant: whenever the filter says a move cannot give check,
    /// the full test agrees.
    #[test]
    fn filter_is_sound() {
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for name in crate::variant::builtin_names() {
            let game = Game::new(crate::variant::builtin(name).unwrap());
            let filter = CheckFilter::new(&game);
            for _ in 0..4 {
                let mut pos = Position::start(&game);
                for _ in 0..120 {
                    let mut moves = Vec::new();
                    pos.pseudo_moves(&mut moves);
                    let side = pos.side_to_move();
                    for &m in &moves {
                        pos.make(m);
                        let target = pos.royal_square(!side);
                        if pos.in_check() {
                            pos.unmake();
                            assert!(
                                filter.may_check_before(&pos, m),
                                "{name}: {} checks",
                                pos.fen()
                            );
                            pos.make(m);
                            assert!(
                                filter.may_check(&pos, m, target, side),
                                "{name}: {} checks",
                                pos.fen()
                            );
                        }
                        pos.unmake();
                    }
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    pos.make(legal[rand() as usize % legal.len()]);
                }
            }
        }
    }
}
