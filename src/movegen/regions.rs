//! Region rules in generation and the check test: which program a piece runs where it stands, the
//! cells its moves may end on, extra moves along a region, the kinds a piece may not jump over or
//! capture, royal pieces facing each other along a file, and the pass with janggi's bikjang.

use crate::geometry::{STRIDE, file_of};
use crate::position::{Move, MoveKind, Position, Side};
use crate::tables::regions::between;
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

    /// The region rules of the piece on `from`, applied to its moves in `out[start..]`: its `along`
    /// moves added, the jumps and captures it may not make dropped, then its confinement.
    pub(super) fn region_moves<const QUIET: bool>(
        &self,
        piece: &PieceTables,
        from: u16,
        out: &mut Vec<Move>,
        start: usize,
    ) {
        let side = self.side;
        let Some(r) = piece.region.as_deref() else {
            return;
        };
        if let Some(a) = &r.along
            && a.cells[side.index()][from as usize]
        {
            let first = out.len();
            self.run::<QUIET>(from, &a.program[side.index()], out);
            let mut keep = first;
            for i in first..out.len() {
                let m = out[i];
                if r.along_path(side, from, m.to)
                    && !out[start..first].iter().any(|o| o.same_target(m))
                {
                    out[keep] = m;
                    keep += 1;
                }
            }
            out.truncate(keep);
        }
        if !r.no_jump_over.is_empty() || !r.no_capture.is_empty() {
            let kind_at = |sq: u16| {
                let c = self.board[sq as usize];
                c.is_piece().then(|| c.kind().index())
            };
            let mut keep = start;
            for i in start..out.len() {
                let m = out[i];
                let spared = m.is_capture() && r.spares(m.captured().kind().index());
                if !spared && !r.jumps_forbidden(from, m.to, kind_at) {
                    out[keep] = m;
                    keep += 1;
                }
            }
            out.truncate(keep);
        }
        self.confine(piece, side, out, start);
    }

    /// A royal piece of `side`: its cell, or 0 when it has none.
    fn some_royal(&self, side: Side) -> u16 {
        let r = self.royal_square(side);
        if r != 0 || self.game().tables.classic {
            return r;
        }
        let t = &self.game().tables;
        self.pieces(side)
            .iter()
            .copied()
            .find(|&c| t.pieces[self.board[c as usize].kind().index()].royal)
            .unwrap_or(0)
    }

    /// The pass (`pass yes`), written as the royal piece's move to its own square; legality (not
    /// in check) is the general test's.
    pub(super) fn pass_move(&self, out: &mut Vec<Move>) {
        let r = self.some_royal(self.side);
        if r != 0 {
            out.push(Move::new(r, r, MoveKind::Pass));
        }
    }

    /// Whether the two sides' royal pieces stand on one file with nothing between them.
    pub fn royals_facing(&self) -> bool {
        let (w, b) = (self.some_royal(Side::White), self.some_royal(Side::Black));
        w != 0
            && b != 0
            && file_of(w) == file_of(b)
            && between(w, b).all(|sq| self.board[sq as usize].is_empty())
    }

    /// `bikjang`: the royal pieces face each other, so every move but the pass must part them.
    #[inline]
    pub(crate) fn bikjang_pending(&self) -> bool {
        self.game().tables.bikjang && self.royals_facing()
    }

    /// Whether `m` parts royal pieces that face each other.
    pub(super) fn parts_royals(&mut self, m: Move) -> bool {
        self.make(m);
        let parted = !self.royals_facing();
        self.unmake();
        parted
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
        let victim = self.board[target as usize];
        if victim.is(!by) && r.spares(victim.kind().index()) {
            return None;
        }
        if r.jumps_forbidden(a, target, |sq| {
            let c = self.board[sq as usize];
            c.is_piece().then(|| c.kind().index())
        }) {
            return None;
        }
        if r.cells.as_ref().is_some_and(|c| c[by.index()][a as usize])
            || r.along_path(by, a, target)
        {
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
