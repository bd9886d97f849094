//! The position: a padded mailbox, piece lists, virginity (which pieces never moved), pieces in
//! hand, side to move, en-passant state, counters and an incrementally updated Zobrist hash. Make/unmake live here; move
//! generation is in `movegen`.

mod fen;
mod moves;
mod zobrist;

pub use crate::setup::{FenError, Setup};

use crate::game::Game;
use crate::geometry::CELLS;
use std::sync::Arc;

pub use crate::piece::{Kind, Piece};
pub use crate::side::Side;
pub use moves::{MAX_LOCUSTS, Move, MoveKind};

/// The most pieces one side may have: a 16×16 board packed with one side's pieces.
pub const MAX_PIECES: usize = 256;

/// What make() changed, for unmake().
#[derive(Debug, Clone, Copy)]
struct Undo {
    mv: Move,
    moved: Piece,
    ep: u16,
    ep_victim: u16,
    halfmove: u16,
    hash: u64,
    virgin_from: bool,
    virgin_to: bool,
    virgin_extra: bool,
    royal: [u16; 2],
    checks: [u8; 2],
    /// `count_limit` and `count_ply`.
    count: [u16; 2],
    /// `origin` of the moving and of the captured piece.
    moved_origin: u8,
    captured_origin: u8,
    /// A locust move's victims on its way (path order, `Piece::EMPTY` where none) and their
    /// `origin`.
    locust: [Piece; MAX_LOCUSTS],
    locust_origin: [u8; MAX_LOCUSTS],
    /// The virginity of the second square taken on the way (the first is the move's extra
    /// square: `virgin_extra`).
    virgin_locust2: bool,
}

#[derive(Clone)]
pub struct Position {
    game: Arc<Game>,
    pub(crate) board: [Piece; CELLS],
    pub(crate) virgin: [bool; CELLS],
    pub(crate) side: Side,
    /// En-passant square (0: none) and the cell of the piece that can be taken there.
    pub(crate) ep: u16,
    pub(crate) ep_victim: u16,
    pub(crate) halfmove: u16,
    /// Plies since the start of the game (fullmove number = start fullmove + ply / 2).
    ply: u32,
    start_fullmove: u32,
    start_side: Side,
    pub(crate) hash: u64,
    pub(crate) plist: [[u16; MAX_PIECES]; 2],
    pub(crate) pcount: [u16; 2],
    pindex: [u8; CELLS],
    /// Pieces of each kind per side.
    pub(crate) counts: [[u16; Kind::MAX]; 2],
    /// The royal piece of each side (classic variants), else the piece that carries the rights
    /// field (a castling king); 0 when none.
    pub(crate) royal: [u16; 2],
    /// Checks given by each side (n-check).
    pub(crate) checks: [u8; 2],
    /// `honour-count`: the running count's limit in plies (0: no count runs) and the plies
    /// counted, as Fairy-Stockfish's FEN writes them in its e.p. and halfmove fields.
    pub(crate) count_limit: u16,
    pub(crate) count_ply: u16,
    /// Pieces in hand: count per side and kind.
    pub(crate) hand: [[u8; Kind::MAX]; 2],
    /// Per cell: the kind + 1 a promoted piece there was before promoting (0: not promoted, or
    /// not tracked), where a capture returns it to hand demoted.
    pub(crate) origin: [u8; CELLS],
    history: Vec<Undo>,
    /// Hashes of the positions before each move made (for repetition).
    pub(crate) hashes: Vec<u64>,
}

impl Position {
    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }

    pub fn side_to_move(&self) -> Side {
        self.side
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Plies played since this position was set up.
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }

    /// What a cell holds.
    #[inline(always)]
    pub fn at(&self, cell: u16) -> Piece {
        self.board[cell as usize]
    }

    pub fn is_virgin(&self, cell: u16) -> bool {
        self.virgin[cell as usize]
    }

    /// Cells holding pieces of one side.
    #[inline(always)]
    pub fn pieces(&self, side: Side) -> &[u16] {
        &self.plist[side.index()][..self.pcount[side.index()] as usize]
    }

    /// Number of pieces of a kind for a side.
    pub fn count(&self, side: Side, kind: Kind) -> u16 {
        self.counts[side.index()][kind.index()]
    }

    /// Whether the side to move has lost its royal pieces to captures: the game is over (with one
    /// royal piece it can only happen from a start position where the side to move could take it).
    #[inline]
    pub fn royal_lost(&self) -> bool {
        let t = &self.game.tables;
        if t.classic {
            self.royal[self.side.index()] == 0
        } else {
            t.royal_sides[self.side.index()] && self.royal_count(self.side) == 0
        }
    }

    /// The royal piece's cell when a side has exactly one by the rules (0 otherwise: several
    /// royal pieces, or none). Fast legality and check detection work from it.
    pub fn royal_square(&self, side: Side) -> u16 {
        if self.game.tables.classic {
            self.royal[side.index()]
        } else {
            0
        }
    }

    /// How many royal pieces a side has.
    pub fn royal_count(&self, side: Side) -> u16 {
        let t = &self.game.tables;
        t.royal_kinds.iter().map(|&k| self.count(side, k)).sum()
    }

    /// How many pieces of a kind a side holds in hand.
    pub fn in_hand(&self, side: Side, kind: Kind) -> u8 {
        self.hand[side.index()][kind.index()]
    }

    /// Sets what a side holds of a kind (XBoard's `holding`: bughouse hands come from the partner's
    /// board). The game must have hands.
    pub fn set_in_hand(&mut self, side: Side, kind: Kind, n: u8) {
        while self.hand[side.index()][kind.index()] < n {
            self.add_to_hand(side, kind);
        }
        while self.hand[side.index()][kind.index()] > n {
            self.take_from_hand(side, kind);
        }
    }

    /// Whether the piece on a cell is a promoted one that a capture would return to hand as the
    /// kind it was.
    pub fn promoted_from(&self, cell: u16) -> Option<Kind> {
        self.origin[cell as usize].checked_sub(1).map(Kind)
    }

    /// The piece a move moves or drops (ask before the move is made).
    #[inline(always)]
    pub fn mover(&self, m: Move) -> Piece {
        match m.dropped() {
            Some(k) => {
                let hand = &self.game.tables.hand;
                let form = hand.drop_promoted[k.index()].filter(|_| m.is_promoted_drop());
                Piece::new(self.side, form.unwrap_or(k))
            }
            None => self.board[m.from as usize],
        }
    }

    /// Checks given so far by a side (n-check variants).
    pub fn checks_given(&self, side: Side) -> u8 {
        self.checks[side.index()]
    }

    /// Whether legality needs the general test for every move (several royal pieces, giving
    /// check forbidden, royal pieces facing under bikjang); search then asks `is_legal` instead of
    /// testing one royal square.
    #[inline]
    pub fn full_legality(&self) -> bool {
        self.game.tables.full_legality || self.bikjang_pending()
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// The move made `n` plies before the last one (0: the last), if the game has it.
    pub fn move_back(&self, n: usize) -> Option<Move> {
        self.history.iter().rev().nth(n).map(|u| u.mv)
    }

    /// The pieces `m` would take, before it is made: on its destination (or e.p. square), and a
    /// locust move's victims on its way.
    pub fn victims(&self, m: Move) -> impl Iterator<Item = Piece> {
        let on_the_way = m.locusts().map(|c| self.board[c as usize]);
        std::iter::once(m.captured())
            .chain(on_the_way)
            .filter(|p| p.is_piece())
    }

    /// `lion-trade`: the last move was made by a piece not of the protected kinds and took one of
    /// them, so the reply may not do the same.
    pub fn counterstrike_pending(&self) -> bool {
        let Some(t) = &self.game.tables.lion_trade else {
            return false;
        };
        let protected = |p: Piece| p.is_piece() && t[p.kind().index()].0;
        self.history.last().is_some_and(|u| {
            !protected(u.moved)
                && (protected(u.mv.captured()) || u.locust.iter().any(|&p| protected(p)))
        })
    }

    /// The piece the last move took (`Piece::EMPTY` if none).
    pub fn last_captured(&self) -> Piece {
        self.history
            .last()
            .map_or(Piece::EMPTY, |u| u.mv.captured())
    }

    fn put(&mut self, cell: u16, piece: Piece) {
        let side = piece.side().index();
        self.board[cell as usize] = piece;
        let n = self.pcount[side];
        self.plist[side][n as usize] = cell;
        self.pindex[cell as usize] = n as u8;
        self.pcount[side] += 1;
        self.counts[side][piece.kind().index()] += 1;
        self.hash ^= zobrist::piece(piece, cell);
    }

    fn remove(&mut self, cell: u16) -> Piece {
        let piece = self.board[cell as usize];
        self.set_origin(cell, 0);
        let side = piece.side().index();
        self.board[cell as usize] = Piece::EMPTY;
        let i = self.pindex[cell as usize] as usize;
        let last = self.pcount[side] as usize - 1;
        let moved = self.plist[side][last];
        self.plist[side][i] = moved;
        self.pindex[moved as usize] = i as u8;
        self.pcount[side] -= 1;
        self.counts[side][piece.kind().index()] -= 1;
        self.hash ^= zobrist::piece(piece, cell);
        piece
    }

    fn shift(&mut self, from: u16, to: u16) {
        let code = self.board[from as usize];
        let side = code.side().index();
        self.board[from as usize] = Piece::EMPTY;
        self.board[to as usize] = code;
        let i = self.pindex[from as usize];
        self.plist[side][i as usize] = to;
        self.pindex[to as usize] = i;
        self.hash ^= zobrist::piece(code, from) ^ zobrist::piece(code, to);
        let origin = self.origin[from as usize];
        if origin != 0 {
            self.set_origin(from, 0);
            self.set_origin(to, origin);
        }
    }

    /// Sets a cell's promotion origin, keeping the hash in step.
    #[inline]
    fn set_origin(&mut self, cell: u16, origin: u8) {
        let old = self.origin[cell as usize];
        if old != origin {
            self.hash ^= zobrist::promoted(cell, old) ^ zobrist::promoted(cell, origin);
            self.origin[cell as usize] = origin;
        }
    }

    fn add_to_hand(&mut self, side: Side, kind: Kind) {
        let n = &mut self.hand[side.index()][kind.index()];
        *n = n.saturating_add(1);
        self.hash ^= zobrist::hand(side.index(), kind, *n);
    }

    fn take_from_hand(&mut self, side: Side, kind: Kind) {
        let n = &mut self.hand[side.index()][kind.index()];
        debug_assert!(*n > 0, "a drop from an empty hand");
        self.hash ^= zobrist::hand(side.index(), kind, *n);
        *n -= 1;
    }

    /// The kind a captured piece enters the capturer's hand as.
    fn hand_kind(&self, captured: Piece, origin: u8) -> Kind {
        match origin.checked_sub(1) {
            Some(o) if self.game.tables.hand.demote => Kind(o),
            _ => captured.kind(),
        }
    }

    /// Clears a cell's virginity, keeping the hash in step when that virginity is a right.
    fn touch(&mut self, cell: u16) {
        if !self.virgin[cell as usize] {
            return;
        }
        if self.is_right(cell) {
            self.hash ^= zobrist::virgin(cell);
        }
        let piece = self.board[cell as usize];
        if piece.is_piece() && self.royal[piece.side().index()] == cell {
            // Castling partners only count while their royal piece is unmoved.
            self.virgin[cell as usize] = false;
            let side = piece.side().index();
            for i in 0..self.pcount[side] as usize {
                let c = self.plist[side][i];
                if self.virgin[c as usize] && self.is_partner(c) {
                    self.hash ^= zobrist::virgin(c);
                }
            }
        }
        self.virgin[cell as usize] = false;
    }

    /// A piece whose virginity matters only as a castling partner.
    pub(crate) fn is_partner(&self, cell: u16) -> bool {
        let p = &self.game.tables.pieces[self.board[cell as usize].kind().index()];
        p.rights && p.program[0].initial.is_empty() && p.program[0].castles.is_empty()
    }

    /// Whether this cell's virginity is part of the position's identity: a piece with initial moves,
    /// or a castling partner while its royal piece is unmoved. (A king that can only castle needs no
    /// bit of its own: without partners its virginity changes nothing.)
    fn is_right(&self, cell: u16) -> bool {
        let piece = self.board[cell as usize];
        if !piece.is_piece() {
            return false;
        }
        let p = &self.game.tables.pieces[piece.kind().index()];
        if !p.program[0].initial.is_empty() {
            return true;
        }
        // `gating`: a never-moved piece of the first rank is a gate.
        if self.game.tables.hand.gating
            && crate::geometry::rank_of(cell) == piece.side().home_rank(self.game.tables.ranks)
        {
            return true;
        }
        self.is_partner(cell) && self.virgin[self.royal[piece.side().index()] as usize]
    }

    /// Plays a (pseudo-)legal move.
    pub fn make(&mut self, m: Move) {
        if m.kind() == MoveKind::Pass {
            self.make_null();
            if let Some(u) = self.history.last_mut() {
                u.mv = m;
            }
            return;
        }
        let (from, to) = (m.from, m.to);
        let moved = self.board[from as usize];
        let (captured_at, captured) = (m.captured_at(), m.captured());
        debug_assert_eq!(
            captured,
            // Castling takes nothing, nor does a move back to its own square (a pass).
            if m.kind() == MoveKind::Castle || captured_at == from {
                Piece::EMPTY
            } else {
                self.board[captured_at as usize]
            },
            "the move's captured piece is the board's"
        );
        let restricted = self.counterstrike_pending();
        self.hashes.push(self.hash);
        let on_the_way = [m.locust_at(), m.locust2_at()];
        self.history.push(Undo {
            mv: m,
            moved,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            hash: self.hash,
            virgin_from: self.virgin[from as usize],
            virgin_to: self.virgin[to as usize],
            // A drop may make the royal piece unmoved (`drop-castling`): keep its virginity.
            virgin_extra: if m.is_drop() {
                self.virgin[self.royal[self.side.index()] as usize]
            } else {
                self.virgin[m.extra() as usize]
            },
            royal: self.royal,
            checks: self.checks,
            count: [self.count_limit, self.count_ply],
            moved_origin: self.origin[from as usize],
            captured_origin: self.origin[captured_at as usize],
            locust: on_the_way.map(|c| c.map_or(Piece::EMPTY, |c| self.board[c as usize])),
            locust_origin: on_the_way.map(|c| c.map_or(0, |c| self.origin[c as usize])),
            virgin_locust2: on_the_way[1].is_some_and(|c| self.virgin[c as usize]),
        });
        if self.ep != 0 {
            self.hash ^= zobrist::ep(self.ep);
            self.ep = 0;
            self.ep_victim = 0;
        }
        if restricted != self.counterstrike_pending() {
            self.hash ^= zobrist::COUNTERSTRIKE;
        }
        if let Some(k) = m.dropped() {
            self.make_drop(k, to, m.is_promoted_drop());
            return;
        }
        self.touch(from);
        self.touch(to);
        if !captured.is_empty() {
            self.take(captured_at);
        }
        for at in m.locusts() {
            self.take(at);
        }
        if m.kind() == MoveKind::Castle {
            // The partner lands beside the king on the side it came from (in Chess960 the king
            // may stay or move away from it).
            let dir: i16 = if m.extra() > m.from { 1 } else { -1 };
            self.touch(m.extra());
            let rook = self.remove(m.extra());
            self.shift(from, to);
            self.put((to as i16 - dir) as u16, rook);
        } else {
            self.shift(from, to);
        }
        if let Some(k) = m.promotion() {
            // A promoted piece that turns back (`flip`) is plain again; any other remembers.
            let demotes = self.origin[to as usize] != 0;
            self.remove(to);
            self.put(to, Piece::new(self.side, k));
            if self.game.tables.track_origin && !demotes {
                self.set_origin(to, moved.kind().0 + 1);
            }
        }
        if let (Some(k), Some(at)) = (m.gated(), m.gate_square()) {
            // The gated piece has not moved, but it stands where it never started: it is no
            // gate of its own (its cell was touched when the mover left it).
            self.take_from_hand(self.side, k);
            self.put(at, Piece::new(self.side, k));
        }
        if m.kind() == MoveKind::SetsEp && self.game.tables.en_passant {
            self.ep = m.extra();
            self.ep_victim = to;
            self.hash ^= zobrist::ep(self.ep);
        }
        if self.royal[self.side.index()] == from {
            self.royal[self.side.index()] = to;
        }
        self.halfmove = if m.is_zeroing() {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        self.finish_move(!captured.is_empty() || m.locust_at().is_some());
    }

    /// The mover takes the piece on `at` (on its destination, the e.p. square, or a locust move's
    /// square on its way): into the hand where captures go there.
    fn take(&mut self, at: u16) {
        let victim = self.board[at as usize];
        debug_assert!(victim.is_piece(), "a capture of an empty square");
        self.touch(at);
        let origin = self.origin[at as usize];
        self.remove(at);
        if self.game.tables.hand.captures_to_hand {
            let k = self.hand_kind(victim, origin);
            self.add_to_hand(self.side, k);
        }
        // Taking the royal piece ends the game (see `royal_lost`).
        if at == self.royal[victim.side().index()] {
            self.royal[victim.side().index()] = 0;
        }
    }

    /// Undoes [`Position::take`]: `victim` back on `at` with its `origin`, out of the hand.
    fn untake(&mut self, at: u16, victim: Piece, origin: u8) {
        self.put(at, victim);
        self.origin[at as usize] = origin;
        if self.game.tables.hand.captures_to_hand {
            let k = self.hand_kind(victim, origin);
            self.hand[self.side.index()][k.index()] -= 1;
        }
    }

    /// A piece from the hand enters the board (`make`'s part for drops), as its promoted form
    /// when `promoted` (`drop-promoted`).
    fn make_drop(&mut self, kind: Kind, to: u16, promoted: bool) {
        let side = self.side;
        self.take_from_hand(side, kind);
        // A dropped piece counts as moved: `initial-ranks` gives pawns their double step by rank.
        match self.game.tables.hand.drop_promoted[kind.index()].filter(|_| promoted) {
            Some(form) => {
                self.put(to, Piece::new(side, form));
                self.set_origin(to, kind.0 + 1);
            }
            None => self.put(to, Piece::new(side, kind)),
        }
        let t = &self.game.tables;
        let p = &t.pieces[kind.index()];
        // A castling piece (a royal one not on the board, placement's king) is tracked from here.
        if p.king && self.royal[side.index()] == 0 && !t.classic {
            self.royal[side.index()] = to;
        }
        // `drop-castling`: a castling piece dropped on its home, or a partner in a corner of that
        // rank while the castling piece stands at home, stands unmoved with it.
        let home = t.hand.castle_home[side.index()];
        if home != 0 {
            let castles = !p.program[0].castles.is_empty();
            use crate::geometry::{file_of, rank_of};
            let corner = rank_of(to) == rank_of(home)
                && (file_of(to) == 0 || file_of(to) == t.files - 1)
                && p.rights;
            if castles && to == home {
                self.virgin[to as usize] = true;
            } else if corner {
                self.virgin[to as usize] = true;
                if self.royal[side.index()] == home {
                    self.virgin[home as usize] = true;
                }
            }
            self.hash = self.fresh_hash();
        }
        let pawn = self.game.tables.pieces[kind.index()].pawn;
        self.halfmove = if pawn {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        self.finish_move(false);
    }

    /// What every move ends with: the turn passes, n-check counts a check given, and the
    /// `honour-count` count goes on or starts (`captured`: the move took a piece).
    fn finish_move(&mut self, captured: bool) {
        self.side = !self.side;
        self.hash ^= zobrist::SIDE;
        self.ply += 1;
        if self.game.tables.honour.is_some() {
            self.count_honour(captured);
        }
        if self.game.tables.checks_to_win.is_some() && self.in_check() {
            let mover = (!self.side).index();
            self.hash ^= zobrist::checks(mover, self.checks[mover]);
            self.checks[mover] = self.checks[mover].saturating_add(1);
            self.hash ^= zobrist::checks(mover, self.checks[mover]);
        }
    }

    /// `honour-count` after a move, as Fairy-Stockfish 11.1 counts: a running count advances one
    /// ply; a count starts when none runs, or afresh when a capture left the side to move (the
    /// counting side) a single piece, if the rule gives that side a count.
    fn count_honour(&mut self, captured: bool) {
        if self.count_limit != 0 {
            self.count_ply = self.count_ply.saturating_add(1);
        }
        let single = self.pcount[self.side.index()] == 1;
        if self.count_limit == 0 || (captured && single) {
            let moves = self.honour_limit();
            if moves > 0 {
                let h = self.game.tables.honour.as_ref().expect("honour-count");
                self.count_limit = 2 * moves;
                self.count_ply = if h.from_pieces && single {
                    2 * (self.pcount[0] + self.pcount[1])
                } else {
                    0
                };
            }
        }
    }

    /// The count in moves the rule gives the side to move now (0: none).
    pub fn honour_limit(&self) -> u16 {
        let Some(h) = &self.game.tables.honour else {
            return 0;
        };
        let (us, them) = (self.side.index(), (!self.side).index());
        if self.pcount[them] == 1
            || h.pawns
                .iter()
                .any(|k| self.counts[0][k.index()] + self.counts[1][k.index()] > 0)
        {
            return 0;
        }
        if self.pcount[us] > 1 {
            return h.board;
        }
        h.pieces
            .iter()
            .find(|(need, _)| need.iter().all(|&(k, n)| self.counts[them][k.index()] >= n))
            .map_or(0, |&(_, moves)| moves)
    }

    /// The `honour-count` count running: (plies counted, limit in plies).
    pub fn honour_count(&self) -> Option<(u16, u16)> {
        (self.count_limit != 0).then_some((self.count_ply, self.count_limit))
    }

    /// Whether an en-passant capture may land on `sq`: each square the last lame leap passed,
    /// from the first (`ep`) up to the piece that made it when they lie on one line (a pawn's
    /// double or triple step: Fairy-Max's Mexican pawns), else the first passed square only.
    #[inline]
    pub(crate) fn is_ep_square(&self, sq: u16) -> bool {
        if self.ep == 0 || sq == self.ep_victim {
            return false;
        }
        if sq == self.ep {
            return true;
        }
        // The usual case, a double step, passes only `ep`: keep it to these few comparisons, as
        // move generation asks for every pawn capture onto an empty square.
        let gap = self.ep.abs_diff(self.ep_victim);
        let stride = crate::geometry::STRIDE as u16;
        if gap == 1 || gap == stride || gap == stride - 1 || gap == stride + 1 {
            return false;
        }
        self.is_far_ep_square(sq)
    }

    /// [`Position::is_ep_square`] after a leap that passed more than one square.
    #[cold]
    fn is_far_ep_square(&self, sq: u16) -> bool {
        let (dx, dy) = crate::geometry::delta(self.ep, self.ep_victim);
        let (sx, sy) = crate::geometry::delta(self.ep, sq);
        let (dx, dy, sx, sy) = (i32::from(dx), i32::from(dy), i32::from(sx), i32::from(sy));
        let straight = dx == 0 || dy == 0 || dx.abs() == dy.abs();
        straight
            && sx * dy == sy * dx
            && sx.signum() == dx.signum()
            && sy.signum() == dy.signum()
            && sx.abs() <= dx.abs()
            && sy.abs() <= dy.abs()
    }

    /// Takes back the last move made.
    pub fn unmake(&mut self) {
        let u = self.history.pop().expect("unmake without a move");
        self.hashes.pop();
        self.side = !self.side;
        self.ply -= 1;
        let m = u.mv;
        [self.count_limit, self.count_ply] = u.count;
        if m.kind() == MoveKind::Pass {
            self.ep = u.ep;
            self.ep_victim = u.ep_victim;
            self.halfmove = u.halfmove;
            self.hash = u.hash;
            return;
        }
        if let Some(k) = m.dropped() {
            self.remove(m.to);
            self.hand[self.side.index()][k.index()] += 1;
            // A drop's `virgin_extra` is its side's royal piece's (see `make`).
            self.virgin[u.royal[self.side.index()] as usize] = u.virgin_extra;
            self.royal = u.royal;
            self.virgin[m.to as usize] = u.virgin_to;
            self.halfmove = u.halfmove;
            self.ep = u.ep;
            self.ep_victim = u.ep_victim;
            self.checks = u.checks;
            self.hash = u.hash;
            return;
        }
        if let (Some(k), Some(at)) = (m.gated(), m.gate_square()) {
            self.remove(at);
            self.hand[self.side.index()][k.index()] += 1;
        }
        if m.promotion().is_some() {
            self.remove(m.to);
            self.put(m.to, u.moved);
        }
        if m.kind() == MoveKind::Castle {
            let dir: i16 = if m.extra() > m.from { 1 } else { -1 };
            let rook = self.remove((m.to as i16 - dir) as u16);
            self.shift(m.to, m.from);
            self.put(m.extra(), rook);
        } else {
            self.shift(m.to, m.from);
        }
        self.origin[m.from as usize] = u.moved_origin;
        if let Some(at) = m.locust2_at() {
            self.untake(at, u.locust[1], u.locust_origin[1]);
            self.virgin[at as usize] = u.virgin_locust2;
        }
        if let Some(at) = m.locust_at() {
            self.untake(at, u.locust[0], u.locust_origin[0]);
        }
        if !m.captured().is_empty() {
            self.untake(m.captured_at(), m.captured(), u.captured_origin);
        }
        self.royal = u.royal;
        self.checks = u.checks;
        self.virgin[m.from as usize] = u.virgin_from;
        self.virgin[m.to as usize] = u.virgin_to;
        self.virgin[m.extra() as usize] = u.virgin_extra;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
    }

    /// `checkmate-series`: in this position (the side to move in check), does a check by a piece
    /// of a kind `kinds` marks stand in the unbroken series of checks the other side gave, this
    /// one included? The series is walked back two plies at a time while the side to move was in
    /// check, and stops at the game's first ply or at a null move.
    pub fn check_series_holds(&self, kinds: &[bool]) -> bool {
        let side = self.side;
        let mut p = self.clone();
        loop {
            if p.checked_by(side, kinds) {
                return true;
            }
            let n = p.history.len();
            if n < 2
                || p.history[n - 2..]
                    .iter()
                    .any(|u| u.mv == Move::default() || u.mv.kind() == MoveKind::Pass)
            {
                return false;
            }
            p.unmake();
            p.unmake();
            if !p.checked(side) {
                return false;
            }
        }
    }

    /// Passes the turn (dice games with no move for the roll). Undone by `unmake_null`.
    pub fn make_null(&mut self) {
        let (hash, restricted) = (self.hash, self.counterstrike_pending());
        self.hashes.push(self.hash);
        self.history.push(Undo {
            mv: Move::default(),
            moved: Piece::EMPTY,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            hash,
            virgin_from: self.virgin[0],
            virgin_to: self.virgin[0],
            virgin_extra: self.virgin[0],
            royal: self.royal,
            checks: self.checks,
            count: [self.count_limit, self.count_ply],
            moved_origin: 0,
            captured_origin: 0,
            locust: [Piece::EMPTY; MAX_LOCUSTS],
            locust_origin: [0; MAX_LOCUSTS],
            virgin_locust2: false,
        });
        if restricted {
            self.hash ^= zobrist::COUNTERSTRIKE;
        }
        if self.ep != 0 {
            self.hash ^= zobrist::ep(self.ep);
            self.ep = 0;
            self.ep_victim = 0;
        }
        self.side = !self.side;
        self.hash ^= zobrist::SIDE;
        self.ply += 1;
        self.halfmove = self.halfmove.saturating_add(1);
    }

    pub fn unmake_null(&mut self) {
        let u = self.history.pop().expect("unmake_null without a null move");
        self.hashes.pop();
        self.side = !self.side;
        self.ply -= 1;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
    }

    /// The hash computed from scratch (tests compare it with the incremental one).
    pub fn fresh_hash(&self) -> u64 {
        let mut h = 0;
        for side in Side::BOTH {
            for &c in self.pieces(side) {
                h ^= zobrist::piece(self.board[c as usize], c);
                if self.virgin[c as usize] && self.is_right(c) {
                    h ^= zobrist::virgin(c);
                }
                h ^= zobrist::promoted(c, self.origin[c as usize]);
            }
            for (k, &n) in self.hand[side.index()].iter().enumerate() {
                for i in 1..=n {
                    h ^= zobrist::hand(side.index(), Kind(k as u8), i);
                }
            }
        }
        if self.ep != 0 {
            h ^= zobrist::ep(self.ep);
        }
        if self.side == Side::Black {
            h ^= zobrist::SIDE;
        }
        if self.counterstrike_pending() {
            h ^= zobrist::COUNTERSTRIKE;
        }
        if self.game.tables.checks_to_win.is_some() {
            for side in 0..2 {
                h ^= zobrist::checks(side, self.checks[side]);
            }
        }
        h
    }
}
