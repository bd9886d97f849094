//! The move generator: executes the compiled tables on the mailbox. Pseudo-legal generation, attack
//! detection from the attack instances, and legality (the mover's royal piece is not attacked after
//! the move). Knows no piece and no variant by name.

use crate::geometry::{STRIDE, file_of};
use crate::piece::{Kind, enemy_mask, own_mask};
use crate::position::{MAX_LOCUSTS, Move, MoveKind, Piece, Position, Side};
use crate::tables::exec::DIFF_SIZE;
use crate::tables::{Cont, DIFF_BASE, Program, Stop, XLeg};
use crate::variant::RoyalLoss;
use std::ops::Not;

pub mod perft;
mod regions;
mod text;
pub use text::MoveError;

/// Whether a cell's content allows a move to end there.
#[inline(always)]
fn may_stop(content: Piece, stop: u8, own: u8, enemy: u8) -> bool {
    (content.is_empty() && stop & Stop::EMPTY != 0)
        || (content.bits() & enemy != 0 && stop & Stop::ENEMY != 0)
        || (content.bits() & own != 0 && stop & Stop::OWN != 0)
}

impl Position {
    /// All pseudo-legal moves of the side to move (legality of the royal piece not yet checked).
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        if self.decided() {
            return;
        }
        let start = out.len();
        if self.must_drop_first() {
            self.drops(out);
            if out.len() > start {
                return;
            }
        }
        for i in 0..self.pcount[self.side.index()] as usize {
            let from = self.plist[self.side.index()][i];
            self.piece_moves(from, out);
        }
        if self.game().tables.moves_in_place {
            self.one_pass_in_place(out, start);
        }
        if self.game().tables.hand.drops {
            self.drops(out);
        }
        self.keep_forced_captures(out, start);
        if self.game().tables.pass {
            self.pass_move(out);
        }
    }

    /// Pieces that can pass by stepping out and back (the Lion's `mabK`) all leave the same
    /// position: one move, as HaChu counts and accepts it, written from the least valuable of them
    /// (by the file's `value`; the first kind in the file on a tie, then the lowest square).
    fn one_pass_in_place(&self, out: &mut Vec<Move>, start: usize) {
        let passes = out[start..].iter().filter(|m| m.is_pass_in_place()).count();
        if passes < 2 {
            return;
        }
        let pieces = &self.game().variant.pieces;
        let rank = |m: &Move| {
            let k = self.board[m.from as usize].kind().index();
            (pieces[k].value.unwrap_or(i32::MAX), k, m.from)
        };
        let keep = out[start..]
            .iter()
            .filter(|m| m.is_pass_in_place())
            .min_by_key(|m| rank(m))
            .copied();
        let (mut w, mut kept) = (start, false);
        for r in start..out.len() {
            let m = out[r];
            if m.is_pass_in_place() {
                if kept || Some(m) != keep {
                    continue;
                }
                kept = true;
            }
            out[w] = m;
            w += 1;
        }
        out.truncate(w);
    }

    /// Drops of the side to move: each kind in hand on each empty square of its drop ranks (and
    /// of its region, for a confined piece), and as its promoted form where `drop-promoted` says.
    pub fn drops(&self, out: &mut Vec<Move>) {
        let t = &self.game().tables;
        let side = self.side.index();
        for (k, &n) in self.hand[side].iter().enumerate().take(t.pieces.len()) {
            if n == 0 {
                continue;
            }
            let ranks = t.hand.drop_ranks[side][k];
            let pawn = t.pieces[k].pawn;
            let stuck = t.pieces[k].stuck.as_ref().map(|s| &s[side]);
            let confine = t.pieces[k]
                .region
                .as_ref()
                .and_then(|r| r.confine.as_ref())
                .map(|c| &c[side]);
            let promoted = t.hand.drop_promoted[k];
            let colours = t.hand.opposite_colours.iter().any(|&b| b);
            // `drop-one-per-file`: the files that already hold an own piece of the kind.
            let mut taken = 0u32;
            if t.hand.one_per_file[k] {
                let own = Piece::new(self.side, Kind(k as u8));
                for &c in self.pieces(self.side) {
                    if self.board[c as usize] == own {
                        taken |= 1 << crate::geometry::file_of(c);
                    }
                }
            }
            for r in 0..t.ranks {
                if ranks & 1 << r == 0 {
                    continue;
                }
                for f in 0..t.files {
                    let to = crate::geometry::cell(f, r);
                    if !self.board[to as usize].is_empty()
                        || taken & 1 << f != 0
                        || confine.is_some_and(|c| !c[to as usize])
                        || (colours && !self.colours_allow(k, to))
                    {
                        continue;
                    }
                    let drop = Move::drop(Kind(k as u8), to).by_pawn(pawn);
                    if !stuck.is_some_and(|s| s[to as usize]) {
                        out.push(drop);
                    }
                    let promoted_stuck = promoted
                        .and_then(|p| t.pieces[p.index()].stuck.as_ref())
                        .is_some_and(|s| s[side][to as usize]);
                    if promoted.is_some() && !promoted_stuck {
                        out.push(drop.as_promoted());
                    }
                }
            }
        }
    }

    /// `must-capture`: when some capture in `out[start..]` is legal, only captures stay.
    #[inline(always)]
    fn keep_forced_captures(&self, out: &mut Vec<Move>, start: usize) {
        if self.game().tables.must_capture {
            self.forced_captures(out, start);
        }
    }

    #[cold]
    fn forced_captures(&self, out: &mut Vec<Move>, start: usize) {
        let t = &self.game().tables;
        if !out[start..].iter().any(|m| m.is_capture()) {
            return;
        }
        // Without royal pieces every move is legal; else a capture counts only if it is legal,
        // which takes a scratch copy to play it on.
        let forced = t.royal_kinds.is_empty() || {
            let mut scratch = self.clone();
            out[start..]
                .iter()
                .any(|&m| m.is_capture() && scratch.is_legal(m))
        };
        if forced {
            let mut keep = start;
            for i in start..out.len() {
                if out[i].is_capture() {
                    out[keep] = out[i];
                    keep += 1;
                }
            }
            out.truncate(keep);
        }
    }

    /// Whether the piece on `from` has its initial (`i`) moves: it never moved or, for kinds with
    /// `initial-ranks`, it stands on one of those ranks.
    #[inline(always)]
    fn has_initial(&self, from: u16) -> bool {
        if !self.game().tables.initial_by_rank {
            return self.virgin[from as usize];
        }
        match self.rank_band(from) {
            None => self.virgin[from as usize],
            Some((first, last)) => (first..=last).contains(&self.own_rank(from)),
        }
    }

    #[inline(always)]
    fn rank_band(&self, from: u16) -> Option<(u8, u8)> {
        let t = &self.game().tables;
        t.pieces[self.board[from as usize].kind().index()].initial_ranks
    }

    /// The rank of `cell` counted from the own edge of the piece standing there.
    #[inline(always)]
    fn own_rank(&self, cell: u16) -> u8 {
        let r = crate::geometry::rank_of(cell);
        if self.board[cell as usize].is(Side::White) {
            r
        } else {
            self.game().tables.ranks - 1 - r
        }
    }

    /// Whether a double step from `from` leaves an e.p. square: with `initial-ranks`, only from the
    /// band's last rank (Fairy-Stockfish's horde: not from the first rank).
    #[inline(always)]
    fn sets_ep_from(&self, from: u16) -> bool {
        !self.game().tables.initial_by_rank
            || self
                .rank_band(from)
                .is_none_or(|(_, last)| self.own_rank(from) == last)
    }

    /// Pseudo-legal captures and promotions of the side to move (quiescence search).
    pub fn tactical_moves(&self, out: &mut Vec<Move>) {
        if self.decided() {
            return;
        }
        if self.must_drop_first() {
            // Only drops, which are not tactical, when there are any.
            let mut drops = Vec::new();
            self.drops(&mut drops);
            if !drops.is_empty() {
                return;
            }
        }
        let start = out.len();
        let t = &self.game().tables;
        for i in 0..self.pcount[self.side.index()] as usize {
            let from = self.plist[self.side.index()][i];
            let flips = t.piece_flip && self.origin[from as usize] != 0;
            if t.pieces[self.board[from as usize].kind().index()]
                .promotes_to
                .is_some()
                || flips
            {
                // Its promotions may be quiet: generate all, keep the tactical ones.
                let first = out.len();
                self.generate::<true>(from, out);
                let mut kept = first;
                for j in first..out.len() {
                    if out[j].is_tactical() {
                        out[kept] = out[j];
                        kept += 1;
                    }
                }
                out.truncate(kept);
            } else {
                self.generate::<false>(from, out);
            }
        }
        self.keep_forced_captures(out, start);
    }

    /// `drop-opposite-colours`, for a drop of kind `k` on `to`: a piece of such a kind does not go
    /// on a square colour an own piece of its kind holds; any other drop leaves, for each such kind
    /// still in hand, as many colours that no own piece of it holds and that keep an empty square
    /// of its drop ranks as pieces of it in hand (Fairy-Stockfish's rule for placement's bishops).
    fn colours_allow(&self, k: usize, to: u16) -> bool {
        let t = &self.game().tables;
        let side = self.side;
        let colour = |c: u16| usize::from((file_of(c) + crate::geometry::rank_of(c)) % 2);
        let held = |b: usize| {
            let own = Piece::new(side, Kind(b as u8));
            let mut held = [false; 2];
            for &c in self.pieces(side) {
                if self.board[c as usize] == own {
                    held[colour(c)] = true;
                }
            }
            held
        };
        if t.hand.opposite_colours[k] {
            return !held(k)[colour(to)];
        }
        for (b, &on) in t.hand.opposite_colours.iter().enumerate() {
            let n = self.hand[side.index()][b];
            if !on || n == 0 {
                continue;
            }
            let held = held(b);
            let ranks = t.hand.drop_ranks[side.index()][b];
            let mut free = [false; 2];
            for r in (0..t.ranks).filter(|r| ranks & 1 << r != 0) {
                for f in 0..t.files {
                    let c = crate::geometry::cell(f, r);
                    if c != to && self.board[c as usize].is_empty() {
                        free[colour(c)] = true;
                    }
                }
            }
            if (0..2).filter(|&i| !held[i] && free[i]).count() < usize::from(n) {
                return false;
            }
        }
        true
    }

    /// `must-drop`, out of check: a drop is then always legal (unless `drop-checks` may forbid
    /// it), so with one at hand nothing else is. (Else `is_legal` sorts it out.)
    fn must_drop_first(&self) -> bool {
        let t = &self.game().tables;
        t.hand.must_drop && !t.hand.no_checks && self.must_drop_held() && !self.in_check()
    }

    /// `must-drop`: the side to move holds a piece of a kind the rule is about.
    fn must_drop_held(&self) -> bool {
        let t = &self.game().tables;
        self.hand[self.side.index()]
            .iter()
            .zip(&t.hand.must_drop_kind)
            .any(|(&n, &k)| n > 0 && k)
    }

    /// `must-drop`: whether the side to move holds a piece and has a legal drop, so that no
    /// other move is legal.
    fn must_drop_now(&mut self) -> bool {
        if !self.must_drop_held() {
            return false;
        }
        let mut drops = Vec::new();
        self.drops(&mut drops);
        drops.into_iter().any(|d| self.is_legal_unfaced(d))
    }

    /// Pseudo-legal moves of the piece on `from` (of the side to move).
    pub fn piece_moves(&self, from: u16, out: &mut Vec<Move>) {
        self.generate::<true>(from, out);
    }

    /// The moves of the piece on `from`: its program where it stands, and its region rules.
    #[inline(always)]
    fn generate<const QUIET: bool>(&self, from: u16, out: &mut Vec<Move>) {
        let side = self.side;
        let kind = self.board[from as usize].kind();
        let piece = &self.game().tables.pieces[kind.index()];
        let start = out.len();
        self.run::<QUIET>(from, self.program_at(piece, side, from), out);
        if piece.region.is_some() {
            self.region_moves::<QUIET>(piece, from, out, start);
        }
        let flips = self.game().tables.piece_flip && self.origin[from as usize] != 0;
        if piece.promotes_to.is_some() || piece.stuck.is_some() || flips {
            self.piece_promotions(piece, from, out, start);
        }
        if self.game().tables.hand.gating && self.virgin[from as usize] && self.own_rank(from) == 0
        {
            self.gating_moves(out, start);
        }
        if let Some(pm) = &self.game().tables.promotion_move
            && pm.kinds[kind.index()]
        {
            self.promotion_moves(pm, from, out);
        }
        if let Some(c) = &self.game().tables.contagion
            && !c[kind.index()].1
        {
            contagion(c, kind, out, start);
        }
    }

    /// `promotion-move`: the piece on `from` becomes `pm.to` where it stands, or by one of the new
    /// kind's moves to an empty square.
    #[cold]
    fn promotion_moves(
        &self,
        pm: &crate::tables::PromotionMoveTables,
        from: u16,
        out: &mut Vec<Move>,
    ) {
        let side = self.side;
        let t = &self.game().tables;
        if pm.limit > 0 && self.count(side, pm.to) >= pm.limit {
            return;
        }
        if let Some(cells) = &pm.cells
            && !cells[side.index()][from as usize]
        {
            let mut left = 0;
            for (k, &p) in pm.kinds.iter().enumerate() {
                if p {
                    left += self.count(side, Kind(k as u8));
                }
            }
            if !(pm.last_anywhere && left == 1) {
                return;
            }
        }
        let mut steps = Vec::new();
        let piece = &t.pieces[pm.to.index()];
        self.run::<true>(from, self.program_at(piece, side, from), &mut steps);
        out.push(Move::new(from, from, MoveKind::Normal).with_promotion(Some(pm.to)));
        for m in steps {
            if m.captured().is_empty()
                && matches!(m.kind(), MoveKind::Normal | MoveKind::SetsEp)
                && m.to != from
                && !out
                    .iter()
                    .any(|o| o.from == from && o.to == m.to && o.promotion() == Some(pm.to))
            {
                out.push(Move::new(from, m.to, MoveKind::Normal).with_promotion(Some(pm.to)));
            }
        }
    }

    /// `gating`: each move in `out[start..]` of a never-moved piece of the first rank may bring a
    /// gating kind from the hand onto the square it leaves; castling onto the royal piece's or the
    /// partner's square. A promotion does not gate, and the square must be empty after the move.
    fn gating_moves(&self, out: &mut Vec<Move>, start: usize) {
        let t = &self.game().tables;
        let hand = &self.hand[self.side.index()];
        let end = out.len();
        for k in (0..t.pieces.len()).filter(|&k| hand[k] > 0 && t.hand.gate[k]) {
            let kind = Kind(k as u8);
            for i in start..end {
                let m = out[i];
                if m.promotion().is_some() || m.kind() == MoveKind::Pass {
                    continue;
                }
                // Where pieces stand after the move: the mover, and a castling partner beside it.
                let partner_at = if m.kind() == MoveKind::Castle {
                    let dir: i16 = if m.extra() > m.from { 1 } else { -1 };
                    (m.to as i16 - dir) as u16
                } else {
                    m.to
                };
                let free = |sq: u16| sq != m.to && sq != partner_at;
                if free(m.from) {
                    out.push(m.with_gate(kind, false));
                }
                if m.kind() == MoveKind::Castle && free(m.extra()) {
                    out.push(m.with_gate(kind, true));
                }
            }
        }
    }

    /// The executor. `QUIET == false` keeps only captures (including e.p.) and promotions.
    #[inline(always)]
    fn run<const QUIET: bool>(&self, from: u16, prog: &Program, out: &mut Vec<Move>) {
        let side = self.side;
        let (own, enemy) = (own_mask(side), enemy_mask(side));
        let kind = self.board[from as usize].kind();
        let game = self.game();
        let piece = &game.tables.pieces[kind.index()];
        let start = out.len();
        let promotes = piece.pawn;
        // `captured`: what stands on `to`, or the e.p. victim.
        let push = |out: &mut Vec<Move>, to: u16, mk: MoveKind, extra: u16, captured: Piece| {
            let promoting =
                promotes && !game.tables.promotions[side.index()][to as usize].is_empty();
            if !QUIET && captured.bits() & enemy == 0 && !promoting {
                return;
            }
            let m = Move::new(from, to, mk)
                .with_extra(extra)
                .with_capture(captured)
                .by_pawn(promotes);
            if promoting {
                self.push_promotions(
                    out,
                    m,
                    &game.tables.promotions[side.index()][to as usize],
                    QUIET,
                );
                return;
            }
            out.push(m);
        };
        // Captures only (and not a pawn that may promote on an empty square): never stop on empty.
        let keep = if QUIET || promotes {
            0xFF
        } else {
            !Stop::EMPTY
        };
        for &(off, stop) in &prog.leaps {
            let to = (from as i16 + off) as u16;
            let c = self.board[to as usize];
            if may_stop(c, stop & keep, own, enemy) {
                push(out, to, MoveKind::Normal, 0, c);
            } else if stop & Stop::EP != 0 && self.is_ep_square(to) {
                let victim = self.board[self.ep_victim as usize];
                push(out, to, MoveKind::EnPassant, self.ep_victim, victim);
            }
        }
        for &(off, max, stop) in &prog.slides {
            self.ride(from, off, max, stop & keep, own, enemy, |to, c| {
                push(out, to, MoveKind::Normal, 0, c)
            });
        }
        for b in &prog.bent {
            let first = (from as i16 + b.step) as u16;
            let c = self.board[first as usize];
            if may_stop(c, b.stop & keep, own, enemy) {
                push(out, first, MoveKind::Normal, 0, c);
            }
            if !c.is_empty() {
                continue;
            }
            for &(off, max, stop) in &b.slides {
                self.ride(first, off, max, stop & keep, own, enemy, |to, c| {
                    push(out, to, MoveKind::Normal, 0, c)
                });
            }
        }
        let initial = !prog.initial.is_empty() && self.has_initial(from);
        if !prog.complex.is_empty() || initial {
            let promotions = promotes.then(|| &game.tables.promotions[side.index()][..]);
            let mut walker = Walker {
                pos: self,
                from,
                own,
                enemy,
                legs: &prog.legs,
                out,
                promotions,
                initial: false,
                quiet: QUIET,
                sets_ep: self.sets_ep_from(from),
                locust: [0; MAX_LOCUSTS],
                n_locust: 0,
            };
            for &root in &prog.complex {
                walker.leg(root, from);
            }
            if initial {
                walker.initial = true;
                for &root in &prog.initial {
                    walker.leg(root, from);
                }
            }
        }
        if QUIET && !prog.castles.is_empty() && self.virgin[from as usize] {
            for &(dir, n) in &prog.castles {
                self.castle(from, dir, n, own, out);
            }
        }
        if prog.may_duplicate {
            let tail = &mut out[start..];
            tail.sort_unstable();
            let mut keep = start;
            for i in start..out.len() {
                if i == start || out[i].same_target(out[keep - 1]).not() {
                    out[keep] = out[i];
                    keep += 1;
                }
            }
            out.truncate(keep);
        }
    }

    /// A pawn's move `m` onto a promotion cell: one move per choice its `promotion-limit` allows,
    /// and with `promotion-optional` the move as a pawn too (a capture only, unless `quiet`).
    #[inline]
    fn push_promotions(&self, out: &mut Vec<Move>, m: Move, choices: &[Kind], quiet: bool) {
        let t = &self.game().tables;
        let counts = &self.counts[self.side.index()];
        for &k in choices {
            if !t.promotion_limited || counts[k.index()] < t.promotion_limit[k.index()] {
                out.push(m.with_promotion(Some(k)));
            }
        }
        if t.promotion_optional && (quiet || m.is_capture()) {
            out.push(m);
        }
    }

    /// `piece-promotion` and `immobile forbidden` for the moves in `out[start..]` of the piece on
    /// `from`: a move that starts or ends in the zone (with `on-capture`, a capture; with
    /// `on-entry`, a move that does not capture only from outside it) may also
    /// promote (a promoted piece, which remembers its origin, does not promote again; with `flip`
    /// it turns back into that origin instead), must when promotion is forced, and a move that
    /// leaves the piece where it could never move must promote or is not made.
    fn piece_promotions(
        &self,
        piece: &crate::tables::PieceTables,
        from: u16,
        out: &mut Vec<Move>,
        start: usize,
    ) {
        let t = &self.game().tables;
        let side = self.side.index();
        let promotes = match self.origin[from as usize] {
            0 => piece.promotes_to,
            o if t.piece_flip => Some(Kind(o - 1)),
            _ => None,
        };
        let end = out.len();
        let mut kept = start;
        for i in start..end {
            let m = out[i];
            let can = promotes.is_some()
                && (!t.piece_promotion_on_capture || m.is_capture())
                && t.piece_zone.as_ref().is_some_and(|z| {
                    let (from, to) = (z[side][m.from as usize], z[side][m.to as usize]);
                    if t.piece_promotion_on_entry && !m.is_capture() {
                        !from && to
                    } else {
                        from || to
                    }
                });
            if can {
                out.push(m.with_promotion(promotes));
            }
            // A pawn's promotion (`promotion`) leaves no pawn behind to be stuck.
            let stuck = m.promotion().is_none()
                && piece.stuck.as_ref().is_some_and(|s| s[side][m.to as usize]);
            if !(stuck || (can && t.piece_promotion_forced)) {
                out[kept] = m;
                kept += 1;
            }
        }
        out.drain(kept..end);
    }

    /// A plain rider from `start`: every empty square, then the first occupied one, as `stop` allows.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn ride(
        &self,
        start: u16,
        off: i16,
        max: u8,
        stop: u8,
        own: u8,
        enemy: u8,
        mut emit: impl FnMut(u16, Piece),
    ) {
        let mut to = start as i16;
        let mut n = 0;
        loop {
            to += off;
            let c = self.board[to as usize];
            if c.is_occupied() {
                if may_stop(c, stop, own, enemy) {
                    emit(to as u16, c);
                }
                return;
            }
            if stop & Stop::EMPTY != 0 {
                emit(to as u16, c);
            }
            n += 1;
            if n == max {
                return;
            }
        }
    }

    fn castle(&self, from: u16, dir: i8, n: u8, own: u8, out: &mut Vec<Move>) {
        if let Some(home) = self.game().tables.castle_any {
            return self.castle_any(from, dir, n, home[self.side.index()], own, out);
        }
        let dir = dir as i16;
        // `castling-files`: the king lands on its side's file whatever its `O` distance.
        let n = match self.game().tables.castle_files {
            Some(files) => {
                let target = files[usize::from(dir > 0)] as i16;
                let n = (target - crate::geometry::file_of(from) as i16) * dir;
                if n <= 0 {
                    return;
                }
                n as u8
            }
            None => n,
        };
        let mut sq = from as i16 + dir;
        let mut dist = 1;
        while self.board[sq as usize].is_empty() {
            sq += dir;
            dist += 1;
        }
        let c = self.board[sq as usize];
        // The partner: an own unmoved piece in the corner (or, with `castling-rook`, the first
        // piece beyond the king, of the partner kind), beyond the king's landing square.
        let inner = self.game().tables.castle_inner;
        if c.bits() & own == 0
            || !self.virgin[sq as usize]
            || (!inner && !self.board[(sq + dir) as usize].is_off())
            || (inner && !self.is_partner(sq as u16))
            || dist <= n as i16
        {
            return;
        }
        let to = (from as i16 + dir * n as i16) as u16;
        out.push(Move::new(from, to, MoveKind::Castle).with_extra(sq as u16));
    }

    /// Chess960 castling: the partner is the first piece beyond the king on its rank, an unmoved
    /// castling partner; the king lands `n` files from its start file (`home`), the partner on the
    /// square before it, and every square either crosses is empty but for the two of them.
    fn castle_any(&self, from: u16, dir: i8, n: u8, home: u8, own: u8, out: &mut Vec<Move>) {
        let t = &self.game().tables;
        let dir = dir as i16;
        let file = home as i16 + dir * n as i16;
        if !(0..t.files as i16).contains(&file) {
            return;
        }
        let mut sq = from as i16 + dir;
        while self.board[sq as usize].is_empty() {
            sq += dir;
        }
        let c = self.board[sq as usize];
        if c.bits() & own == 0 || !self.virgin[sq as usize] {
            return;
        }
        let p = &t.pieces[c.kind().index()];
        if !p.rights || !p.program[0].castles.is_empty() {
            return;
        }
        let to = crate::geometry::cell(file as u8, crate::geometry::rank_of(from)) as i16;
        let rook_to = to - dir;
        let (lo, hi) = (
            from.min(to as u16).min(sq as u16).min(rook_to as u16),
            from.max(to as u16).max(sq as u16).max(rook_to as u16),
        );
        if (lo..=hi).any(|x| x != from && x != sq as u16 && !self.board[x as usize].is_empty()) {
            return;
        }
        out.push(Move::new(from, to as u16, MoveKind::Castle).with_extra(sq as u16));
    }

    /// Is `target` attacked by a piece of `by`?
    pub fn attacked(&self, target: u16, by: Side) -> bool {
        self.attacked_except(target, by, u16::MAX)
    }

    /// Is `target` attacked by a piece of `by` other than the one on `skip`?
    fn attacked_except(&self, target: u16, by: Side, skip: u16) -> bool {
        let tables = &self.game().tables;
        if tables.facing_royals && self.royal_faces(target, by) {
            return true;
        }
        self.attacked_by_any(target, by, |a| a != skip)
    }

    /// Is `target` attacked by a piece of `by` standing on a cell that `counts` accepts?
    /// (Facing royals are not asked.)
    fn attacked_by_any(&self, target: u16, by: Side, counts: impl Fn(u16) -> bool) -> bool {
        let tables = &self.game().tables;
        let flat = &tables.flat_attacks;
        let base = by.index() * flat.types;
        let diff = target as i16 + DIFF_BASE;
        for i in 0..self.pcount[by.index()] as usize {
            let a = self.plist[by.index()][i];
            if !counts(a) {
                continue;
            }
            let key = if tables.regions {
                match self.region_attack_key(by, a, target) {
                    Some(k) => k,
                    None => continue,
                }
            } else {
                base + self.board[a as usize].kind().index()
            };
            let entry = flat.index[key * DIFF_SIZE + (diff - a as i16) as usize];
            // A piece listed by generation may reach the target another way than its listed
            // instances (across a cylinder's joined edge), so it is asked whenever they fail.
            if entry != 0 && self.attacked_from(a, entry) {
                return true;
            }
            if flat.by_generation[key] && self.attacks_by_generation(a, target, by) {
                return true;
            }
        }
        false
    }

    /// Does one of the listed attack instances `entry` of the piece on `a` reach its target?
    #[inline]
    fn attacked_from(&self, a: u16, entry: u32) -> bool {
        let flat = &self.game().tables.flat_attacks;
        let first = (entry >> 8) as usize;
        flat.instances[first..first + (entry & 0xFF) as usize]
            .iter()
            .any(|inst| {
                if inst.initial && !self.has_initial(a) {
                    return false;
                }
                let offs = &flat.offsets[inst.first as usize
                    ..inst.first as usize + (inst.empty + inst.occupied + inst.enemy) as usize];
                let (empty, rest) = offs.split_at(inst.empty as usize);
                let (occupied, enemy) = rest.split_at(inst.occupied as usize);
                empty
                    .iter()
                    .all(|&o| self.board[(a as i16 + o) as usize].is_empty())
                    && occupied
                        .iter()
                        .all(|&o| self.board[(a as i16 + o) as usize].is_piece())
                    && (enemy.is_empty() || {
                        let theirs = enemy_mask(self.board[a as usize].side());
                        enemy
                            .iter()
                            .all(|&o| self.board[(a as i16 + o) as usize].bits() & theirs != 0)
                    })
            })
    }

    /// Slow path for pieces whose attacks depend on where they stand (cylinder boards).
    /// Whatever stands on `target` now, the question is whether a piece of the other side there
    /// could be taken: the clone puts one there.
    fn attacks_by_generation(&self, from: u16, target: u16, by: Side) -> bool {
        let mut p = self.clone();
        p.side = by;
        p.board[target as usize] = Piece::new(!by, Kind(0));
        let mut moves = Vec::new();
        p.piece_moves(from, &mut moves);
        moves
            .iter()
            .any(|m| m.to == target && m.kind() != MoveKind::Castle && m.is_capture())
    }

    /// Is the side to move in check?
    pub fn in_check(&self) -> bool {
        self.checked(self.side)
    }

    /// Is `side` in check: is a royal piece of it attacked that the rules protect? With
    /// `royal-loss last` only a side's last royal piece is; with `duple` two attacked at once are
    /// check while it has several.
    pub fn checked(&self, side: Side) -> bool {
        let t = &self.game().tables;
        if t.classic {
            let r = self.royal[side.index()];
            return r != 0 && self.attacked(r, !side);
        }
        if t.royal_kinds.is_empty() {
            return false;
        }
        let n = self.royal_count(side);
        if n == 0 || (t.royal_loss == RoyalLoss::Last && n > 1) {
            return false;
        }
        let mut attacked = self.pieces(side).iter().filter(|&&c| {
            t.pieces[self.board[c as usize].kind().index()].royal && self.attacked(c, !side)
        });
        // `duple`: while a side has several royals, it is in check only with two of them attacked.
        if t.royal_loss == RoyalLoss::Duple && n > 1 {
            return attacked.nth(1).is_some();
        }
        attacked.next().is_some()
    }

    /// Is a royal piece of `side` attacked by an enemy piece of a kind `kinds` marks? (Which
    /// pieces give the check, for `checkmate-series`.)
    pub fn checked_by(&self, side: Side, kinds: &[bool]) -> bool {
        let t = &self.game().tables;
        let of_kind = |a: u16| kinds.get(self.board[a as usize].kind().index()) == Some(&true);
        if t.classic {
            let r = self.royal[side.index()];
            return r != 0 && self.attacked_by_any(r, !side, of_kind);
        }
        self.pieces(side).iter().any(|&c| {
            t.pieces[self.board[c as usize].kind().index()].royal
                && self.attacked_by_any(c, !side, of_kind)
        })
    }

    /// Is a pseudo-legal move legal? (Makes and unmakes it.)
    pub fn is_legal(&mut self, m: Move) -> bool {
        if let Some(pm) = &self.game().tables.promotion_move
            && pm.no_attack
            && m.promotion() == Some(pm.to)
            && !m.is_drop()
            && pm.kinds[self.mover(m).kind().index()]
        {
            // Nor may the new piece attack an enemy piece from where it lands.
            self.make(m);
            let mut bad = self.in_check();
            if !bad {
                self.side = !self.side;
                let mut hits = Vec::new();
                self.generate::<false>(m.to, &mut hits);
                bad = hits.iter().any(|h| h.is_capture());
                self.side = !self.side;
            }
            self.unmake();
            if bad {
                return false;
            }
        }
        if self.game().tables.lion_trade.is_some() && !self.trade_allowed(m) {
            return false;
        }
        if self.game().tables.hand.must_drop && !m.is_drop() && self.must_drop_now() {
            return false;
        }
        // `repetition forbidden`: a move may not bring back an earlier position (a capture, which
        // changes the material, never does).
        if self.game().tables.repetition_forbidden && !m.is_capture() {
            self.make(m);
            let repeats = self.repetitions() > 0;
            self.unmake();
            if repeats {
                return false;
            }
        }
        if self.bikjang_pending() {
            // A pass ends the game by bikjang, even in check; every other move must part them.
            return m.kind() == MoveKind::Pass || self.parts_royals(m) && self.is_legal_unfaced(m);
        }
        self.is_legal_unfaced(m)
    }

    /// `lion-trade`: a protected piece taking a protected piece on its destination from a square
    /// not next to it, over nothing or over an `over` kind only, leaves the destination safe; a
    /// capture of a protected piece by an unprotected one may not answer the same.
    fn trade_allowed(&mut self, m: Move) -> bool {
        let game = self.game().clone();
        let Some(t) = &game.tables.lion_trade else {
            return true;
        };
        let protected = |p: Piece| p.is_piece() && t[p.kind().index()].0;
        let on_to = m.captured();
        let on_way = |f: &dyn Fn(Piece) -> bool| m.locusts().any(|c| f(self.board[c as usize]));
        let protected_on_way = on_way(&protected);
        if !protected(on_to) && !protected_on_way {
            return true;
        }
        if !protected(self.mover(m)) {
            return !self.counterstrike_pending();
        }
        let bridged = on_way(&|p: Piece| p.is_piece() && !t[p.kind().index()].1);
        let (dx, dy) = crate::geometry::delta(m.from, m.to);
        if !protected(on_to) || protected_on_way || bridged || dx.abs().max(dy.abs()) == 1 {
            return true;
        }
        self.make(m);
        let attacked = self.attacked(m.to, self.side);
        self.unmake();
        !attacked
    }

    /// [`Position::is_legal`] without the bikjang rule.
    fn is_legal_unfaced(&mut self, m: Move) -> bool {
        let side = self.side;
        let tables = &self.game().tables;
        let royal_moves = if tables.classic {
            m.from == self.royal[side.index()] && !m.is_drop()
        } else {
            tables.pieces[self.mover(m).kind().index()].royal
        };
        // Castling out of, through or into check concerns a royal king; a non-royal castling piece
        // (extinction chess's commoner) castles over attacked squares.
        if m.kind() == MoveKind::Castle && royal_moves && !tables.castle_through_check {
            let dir: i16 = if m.to > m.from { 1 } else { -1 };
            let mut sq = m.from as i16;
            loop {
                if self.attacked(sq as u16, !side) {
                    return false;
                }
                if sq == m.to as i16 {
                    break;
                }
                sq += dir;
            }
        }
        if royal_moves && m.is_initial() && self.game().tables.royal_initial_safe {
            if self.attacked(m.from, !side) {
                return false;
            }
            let (dx, dy) = crate::geometry::delta(m.from, m.to);
            if dx % 2 == 0 && dy % 2 == 0 {
                let mid = (m.from as i16 + (dx / 2) as i16 + (dy / 2) as i16 * STRIDE) as u16;
                if self.attacked(mid, !side) {
                    return false;
                }
            }
        }
        // `royal-in-check takes-checker` (makpong): a royal piece in check moves only to take the
        // one piece that gives it.
        if royal_moves
            && self.game().tables.royal_takes_checker
            && self.attacked(m.from, !side)
            && (!m.is_capture() || self.attacked_except(m.from, !side, m.to))
        {
            return false;
        }
        // Facing royals attack only a royal piece standing on its square: play royal moves out.
        let fast =
            tables.classic && tables.giving_check && !tables.self_attack && !tables.facing_royals;
        if royal_moves && m.kind() == MoveKind::Normal && fast {
            // Only the royal piece moves: test its new square with the old one vacated. A piece
            // captured there cannot attack its own square (unless some piece can: `self_attack`).
            let king = self.board[m.from as usize];
            self.board[m.from as usize] = Piece::EMPTY;
            let attacked = self.attacked(m.to, !side);
            self.board[m.from as usize] = king;
            return !attacked;
        }
        // `gating ... pins-hold`: the gated piece does not take over a pin (Fairy-Stockfish).
        if m.is_gating()
            && m.kind() != MoveKind::Castle
            && tables.hand.gate_pins_hold
            && !self.leaves_royal_safe(m.without_gate())
        {
            return false;
        }
        self.leaves_royal_safe(m)
    }

    /// Plays the move and tests the mover's royal pieces (and, where giving check is forbidden,
    /// the opponent's): the slow, obvious reference.
    pub fn leaves_royal_safe(&mut self, m: Move) -> bool {
        let side = self.side;
        self.make(m);
        let t = &self.game().tables;
        let may_check = t.giving_check && !(t.hand.no_checks && m.is_drop());
        let ok = !self.checked(side) && (may_check || !self.in_check());
        self.unmake();
        ok
    }

    /// All legal moves.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(128);
        self.pseudo_moves(&mut moves);
        let ctx = self.legality();
        moves.retain(|&m| self.is_legal_with(m, &ctx));
        moves
    }

    /// What the side to move must watch for this node: whether it is in check, and which squares
    /// could open an attack on its royal piece if vacated (blockers) or filled (screens).
    pub fn legality(&self) -> Legality {
        let mut ctx = Legality {
            check: false,
            test_all: false,
            test_promotions: self
                .game()
                .tables
                .promotion_move
                .as_ref()
                .is_some_and(|p| p.no_attack),
            vacate: [0; 32],
            n_vacate: 0,
            fill: [0; 32],
            n_fill: 0,
        };
        if self.game().tables.full_legality || self.bikjang_pending() {
            ctx.test_all = true;
            ctx.check = self.in_check();
            return ctx;
        }
        let side = self.side;
        let king = self.royal[side.index()];
        if king == 0 {
            return ctx;
        }
        let by = !side;
        let pieces = &self.game().tables.pieces;
        for i in 0..self.pcount[by.index()] as usize {
            let a = self.plist[by.index()][i];
            let table = &pieces[self.board[a as usize].kind().index()].attacks[by.index()];
            if table.by_generation {
                ctx.test_all = true;
                continue;
            }
            let (first, n) = table.index[(king as i16 - a as i16 + DIFF_BASE) as usize];
            for inst in &table.instances[first as usize..first as usize + n as usize] {
                if inst.initial && !self.has_initial(a) {
                    continue;
                }
                // One move vacates at most one square and fills at most one: an attack missing more
                // than that cannot appear, and one blocked only by an enemy piece stays blocked.
                let (mut vacate, mut fill, mut other) = (None, None, 0);
                for &o in inst.empty.iter() {
                    let sq = (a as i16 + o) as u16;
                    let c = self.board[sq as usize];
                    if c.is_occupied() {
                        if c.is(side) && vacate.is_none() {
                            vacate = Some(sq);
                        } else {
                            other += 1;
                        }
                    }
                }
                for &o in inst.occupied.iter() {
                    let sq = (a as i16 + o) as u16;
                    let c = self.board[sq as usize];
                    if c.is_empty() && fill.is_none() {
                        fill = Some(sq);
                    } else if !c.is_piece() {
                        other += 1;
                    }
                }
                // A square the attacker takes on its way needs a piece of the side to move: one
                // moving there, or taking the attacker's piece there, fills it.
                for &o in inst.enemy.iter() {
                    let sq = (a as i16 + o) as u16;
                    if !self.board[sq as usize].is(side) {
                        if fill.is_none() && !self.board[sq as usize].is_off() {
                            fill = Some(sq);
                        } else {
                            other += 1;
                        }
                    }
                }
                let satisfied = vacate.is_none() && fill.is_none() && other == 0;
                if other == 0 {
                    if let Some(sq) = vacate {
                        ctx.add_vacate(sq);
                    }
                    if let Some(sq) = fill {
                        ctx.add_fill(sq);
                    }
                }
                if satisfied {
                    ctx.check = true;
                }
            }
        }
        ctx
    }

    /// Legality with a node's context: only moves that could expose the royal piece are played out.
    pub fn is_legal_with(&mut self, m: Move, ctx: &Legality) -> bool {
        !ctx.needs_test(m, self.royal[self.side.index()]) || self.is_legal(m)
    }
}

/// Per-node legality context (see `Position::legality`).
#[derive(Debug, Clone, Default)]
pub struct Legality {
    pub check: bool,
    test_all: bool,
    test_promotions: bool,
    vacate: [u16; 32],
    n_vacate: u8,
    fill: [u16; 32],
    n_fill: u8,
}

impl Legality {
    /// Whether `m` (by the side this context was made for, whose royal piece is on `royal`) must
    /// be played out to know it is legal. `false` means it is legal.
    #[inline]
    pub fn needs_test(&self, m: Move, royal: u16) -> bool {
        self.check
            || self.test_all
            // A piece gated in fills a square that may be a screen (or give check).
            || m.is_gating()
            // A promotion may be forbidden to give check (`promotion-move ... no-attack`).
            || (self.test_promotions && m.promotion().is_some())
            || !matches!(
                m.kind(),
                MoveKind::Normal | MoveKind::SetsEp | MoveKind::Drop
            )
            || m.from == royal
            || self.vacate[..self.n_vacate as usize].contains(&m.from)
            || self.fill[..self.n_fill as usize].contains(&m.to)
    }

    fn add_vacate(&mut self, sq: u16) {
        if self.n_vacate as usize == self.vacate.len() {
            self.test_all = true;
        } else if !self.vacate[..self.n_vacate as usize].contains(&sq) {
            self.vacate[self.n_vacate as usize] = sq;
            self.n_vacate += 1;
        }
    }

    fn add_fill(&mut self, sq: u16) {
        if self.n_fill as usize == self.fill.len() {
            self.test_all = true;
        } else if !self.fill[..self.n_fill as usize].contains(&sq) {
            self.fill[self.n_fill as usize] = sq;
            self.n_fill += 1;
        }
    }
}

/// Runs complex leg trees from one square.
struct Walker<'a> {
    pos: &'a Position,
    from: u16,
    own: u8,
    enemy: u8,
    legs: &'a [XLeg],
    out: &'a mut Vec<Move>,
    /// Promotion choices per cell, for pawns.
    promotions: Option<&'a [Vec<Kind>]>,
    /// Running initial-only paths.
    initial: bool,
    /// Emit quiet moves too (else only captures and promotions).
    quiet: bool,
    /// Double steps from here leave an e.p. square.
    sets_ep: bool,
    /// The squares where the path being walked took pieces on its way, in path order (the
    /// first `n_locust`; 0: none).
    locust: [u16; MAX_LOCUSTS],
    n_locust: usize,
}

impl Walker<'_> {
    fn push(&mut self, to: u16, kind: MoveKind, extra: u16) {
        let promoting = self.promotions.is_some_and(|p| !p[to as usize].is_empty());
        // A path that ends on a square it took on its way (the Lion Dog's `mcpafmcpavK` back to
        // its first square) takes that piece on its destination: one form for one move, however
        // the path went.
        let mut locusts = [0u16; MAX_LOCUSTS];
        let mut n = 0;
        for &at in &self.locust[..self.n_locust] {
            if at != to {
                locusts[n] = at;
                n += 1;
            }
        }
        let captured = if kind == MoveKind::EnPassant {
            self.pos.board[extra as usize]
        } else if self.locust[..self.n_locust].contains(&to) {
            self.pos.board[to as usize]
        } else {
            self.content(to as i16)
        };
        if !self.quiet && captured.bits() & self.enemy == 0 && !promoting && n == 0 {
            return;
        }
        let m = if n > 0 {
            Move::locust(self.from, to, locusts[0], (n > 1).then_some(locusts[1]))
        } else {
            Move::new(self.from, to, kind).with_extra(extra)
        };
        let m = m
            .with_capture(captured)
            .initial_path(self.initial)
            .by_pawn(self.promotions.is_some());
        if let Some(p) = self.promotions {
            let choices = &p[to as usize];
            if !choices.is_empty() {
                self.pos.push_promotions(self.out, m, choices, self.quiet);
                return;
            }
        }
        self.out.push(m);
    }

    /// The origin counts as empty during its own move, and so does a square whose piece the move
    /// took on its way.
    #[inline]
    fn content(&self, sq: i16) -> Piece {
        if sq as u16 == self.from || self.locust[..self.n_locust].contains(&(sq as u16)) {
            Piece::EMPTY
        } else {
            self.pos.board[sq as usize]
        }
    }

    fn step(&self, leg: &XLeg, sq: i16) -> Option<i16> {
        if !leg.cylinder {
            let n = sq + leg.step;
            return (!self.pos.board[n as usize].is_off()).then_some(n);
        }
        let files = self.pos.game().tables.files as i16;
        let f = file_of(sq as u16) as i16;
        let nf = (f + leg.dx as i16).rem_euclid(files);
        let n = sq + (nf - f) + leg.dy as i16 * STRIDE;
        (!self.pos.board[n as usize].is_off()).then_some(n)
    }

    fn leg(&mut self, index: u16, start: u16) {
        let legs = self.legs;
        let leg = &legs[index as usize];
        let mut sq = start as i16;
        let mut n: u8 = 0;
        loop {
            let Some(next) = self.step(leg, sq) else {
                return;
            };
            sq = next;
            n += 1;
            if leg.cylinder && (sq as u16 == self.from || sq as u16 == start) {
                return; // came all the way round
            }
            if n > leg.skip {
                let c = self.content(sq);
                let lame_ok = leg
                    .lame
                    .iter()
                    .all(|&o| self.content(start as i16 + o).is_empty())
                    && leg
                        .jump
                        .iter()
                        .all(|&o| self.content(start as i16 + o).is_piece());
                if !lame_ok {
                    return;
                }
                if leg.stop != 0 {
                    if may_stop(c, leg.stop, self.own, self.enemy) {
                        let (kind, extra) = if leg.sets_ep && self.sets_ep && c.is_empty() {
                            (
                                MoveKind::SetsEp,
                                (start as i16 + leg.lame.first().copied().unwrap_or(0)) as u16,
                            )
                        } else {
                            (MoveKind::Normal, 0)
                        };
                        self.push(sq as u16, kind, extra);
                    } else if leg.stop & Stop::EP != 0
                        && c.is_empty()
                        && self.pos.is_ep_square(sq as u16)
                    {
                        self.push(sq as u16, MoveKind::EnPassant, self.pos.ep_victim);
                    }
                }
                let go_on = match leg.cont {
                    Cont::Never => false,
                    Cont::Empty => c.is_empty(),
                    Cont::Occupied => c.is_occupied(),
                    Cont::Own => c.bits() & self.own != 0,
                    Cont::Any => true,
                    Cont::Take {
                        enemy,
                        own,
                        empty,
                        hop,
                    } => {
                        let take = (enemy && c.bits() & self.enemy != 0)
                            || (own && c.bits() & self.own != 0);
                        if take {
                            // `legs::compile` allows at most `MAX_LOCUSTS` per path.
                            self.locust[self.n_locust] = sq as u16;
                            self.n_locust += 1;
                            for &child in leg.children.iter() {
                                self.leg(child, sq as u16);
                            }
                            self.n_locust -= 1;
                        }
                        (empty && c.is_empty()) || (hop && c.is_occupied())
                    }
                };
                if go_on {
                    for &child in leg.children.iter() {
                        self.leg(child, sq as u16);
                    }
                }
                if c.is_occupied() {
                    return;
                }
            }
            if leg.max != 0 && n >= leg.max {
                return;
            }
        }
    }
}

/// `contagion`: each move in `out[start..]` of a piece of `kind` (not a `not-by` kind) that takes a
/// piece of a contagious kind other than its own on its destination turns the mover into that kind,
/// written as a promotion to it (`e2d3w`, as HaChu writes its werewolf's); a pawn's promotion
/// choices there become that one move.
#[cold]
fn contagion(c: &[(bool, bool)], kind: Kind, out: &mut Vec<Move>, start: usize) {
    let mut changed = false;
    for m in &mut out[start..] {
        let v = m.captured();
        if v.is_piece()
            && m.kind() != MoveKind::EnPassant
            && !m.is_gating()
            && v.kind() != kind
            && c[v.kind().index()].0
        {
            *m = m.with_promotion(Some(v.kind()));
            changed = true;
        }
    }
    if changed {
        let tail = &mut out[start..];
        tail.sort_unstable();
        let mut keep = start;
        for i in start..out.len() {
            if i == start || out[i] != out[keep - 1] {
                out[keep] = out[i];
                keep += 1;
            }
        }
        out.truncate(keep);
    }
}
