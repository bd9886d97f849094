//! Tactical move generation for quiescence: captures and promotions only. Plain leaps and slides
//! are walked directly from the compiled programs (the general generator would list every quiet
//! move only for us to drop it); pieces with complex legs, initial moves or duplicate paths fall back
//! to the general generator and a filter, so the result always equals the filtered full list.

use crate::position::{EMPTY, Move, Position, TYPE_MASK, enemy_bit};
use crate::tables::Stop;

/// Does `m` capture (on its destination, or en passant)?
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    m.kind() == Move::EN_PASSANT || pos.at(m.to) & enemy_bit(pos.side_to_move()) != 0
}

/// Captures and promotions of the side to move (pseudo-legal).
pub fn tactical_moves(pos: &Position, out: &mut Vec<Move>, scratch: &mut Vec<Move>) {
    let side = pos.side_to_move();
    let enemy = enemy_bit(side);
    let game = pos.game();
    let tables = &game.tables;
    for &from in pos.pieces(side) {
        let ty = (pos.at(from) & TYPE_MASK) as usize;
        let piece = &tables.pieces[ty];
        let prog = &piece.program[side as usize];
        if !prog.complex.is_empty()
            || (!prog.initial.is_empty() && pos.is_virgin(from))
            || prog.may_duplicate
        {
            scratch.clear();
            pos.piece_moves(from, scratch);
            out.extend(
                scratch
                    .iter()
                    .filter(|&&m| m.promo != 0 || is_capture(pos, m)),
            );
            continue;
        }
        let promos = piece.pawn.then(|| &tables.promotions[side as usize]);
        let mut push = |to: u16| match promos.map(|p| &p[to as usize]).filter(|c| !c.is_empty()) {
            Some(choices) => {
                for &t in choices {
                    out.push(Move {
                        from,
                        to,
                        extra: 0,
                        promo: t + 1,
                        kind: Move::NORMAL,
                    });
                }
            }
            None => out.push(Move {
                from,
                to,
                extra: 0,
                promo: 0,
                kind: Move::NORMAL,
            }),
        };
        let quiet_promotes = |to: u16| promos.is_some_and(|p| !p[to as usize].is_empty());
        for &(off, stop) in &prog.leaps {
            let to = (from as i16 + off) as u16;
            let c = pos.at(to);
            if (c & enemy != 0 && stop & Stop::ENEMY != 0)
                || (c == EMPTY && stop & Stop::EMPTY != 0 && quiet_promotes(to))
            {
                push(to);
            }
        }
        for &(off, max, stop) in &prog.slides {
            let mut to = from as i16;
            let mut n = 0;
            loop {
                to += off;
                let c = pos.at(to as u16);
                if c != EMPTY {
                    if c & enemy != 0 && stop & Stop::ENEMY != 0 {
                        push(to as u16);
                    }
                    break;
                }
                if stop & Stop::EMPTY != 0 && quiet_promotes(to as u16) {
                    push(to as u16);
                }
                n += 1;
                if n == max {
                    break;
                }
            }
        }
    }
}
