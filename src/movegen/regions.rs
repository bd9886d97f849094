//! Region rules in generation and the check test: which program a piece runs where it stands, the
//! cells its moves may end on, and royal pieces facing each other along a file.

use crate::geometry::{STRIDE, file_of};
use crate::position::{Move, Position, Side};
use crate::tables::{PieceTables, Program};

impl Position {
    /// The program a piece of `side` runs from `from`: its region's (`in REGION BETZA`) there.
    #[inline]
    pub(crate) fn program_at<'a>(
        &self,
        piece: &'a PieceTables,
        side: Side,
        from: u16,
    ) -> &'a Program {
        match &piece.region {
            Some(r)
                if r.cells
                    .as_ref()
                    .is_some_and(|c| c[side.index()][from as usize]) =>
            {
                &r.program[side.index()]
            }
            _ => &piece.program[side.index()],
        }
    }

    /// Drops the moves in `out[start..]` that end outside the piece's confining region.
    #[inline]
    pub(crate) fn confine(
        &self,
        piece: &PieceTables,
        side: Side,
        out: &mut Vec<Move>,
        start: usize,
    ) {
        let Some(cells) = piece.region.as_ref().and_then(|r| r.confine.as_ref()) else {
            return;
        };
        let cells = &cells[side.index()];
        let mut keep = start;
        for i in start..out.len() {
            if cells[out[i].to as usize] {
                out[keep] = out[i];
                keep += 1;
            }
        }
        out.truncate(keep);
    }

    /// The flat attack key (side × forms + form) of the piece on `a` of `by` against `target`, or
    /// `None` when its region confines it away from `target`.
    #[inline]
    pub(crate) fn region_attack_key(&self, by: Side, a: u16, target: u16) -> Option<usize> {
        let t = &self.game().tables;
        let kind = self.board[a as usize].kind().index();
        let base = by.index() * t.flat_attacks.types;
        let Some(r) = &t.pieces[kind].region else {
            return Some(base + kind);
        };
        if r.confine
            .as_ref()
            .is_some_and(|c| !c[by.index()][target as usize])
        {
            return None;
        }
        if r.cells.as_ref().is_some_and(|c| c[by.index()][a as usize]) {
            return Some(base + t.flat_attacks.in_form[kind]);
        }
        Some(base + kind)
    }

    /// Does a royal piece of `by` face a royal piece of the other side on `target`: the same file
    /// with nothing between them? Only royal pieces are attacked so (the check test, not captures).
    pub(crate) fn royal_faces(&self, target: u16, by: Side) -> bool {
        let t = &self.game().tables;
        let victim = self.board[target as usize];
        if !victim.is(!by) || !t.pieces[victim.kind().index()].royal {
            return false;
        }
        self.pieces(by).iter().any(|&a| {
            if a == target
                || file_of(a) != file_of(target)
                || !t.pieces[self.board[a as usize].kind().index()].royal
            {
                return false;
            }
            let step = if target > a { STRIDE } else { -STRIDE };
            let mut sq = a as i16 + step;
            while sq != target as i16 {
                if !self.board[sq as usize].is_empty() {
                    return false;
                }
                sq += step;
            }
            true
        })
    }
}
