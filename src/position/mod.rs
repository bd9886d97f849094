//! The position: a padded mailbox, piece lists, virginity (which pieces never moved), side to move,
//! en-passant state, counters and an incrementally updated Zobrist hash. Make/unmake live here; move
//! generation is in `movegen`.

mod fen;
mod zobrist;

pub use fen::FenError;

use crate::game::Game;
use crate::geometry::CELLS;
use std::sync::Arc;

/// Cell contents: 0 empty, `OFF` guard, else colour bit | piece type.
pub const EMPTY: u8 = 0;
pub const OFF: u8 = 0x80;
pub const WHITE_BIT: u8 = 0x20;
pub const BLACK_BIT: u8 = 0x40;
pub const TYPE_MASK: u8 = 0x1F;

#[inline]
pub const fn own_bit(side: u8) -> u8 {
    WHITE_BIT << side
}

#[inline]
pub const fn enemy_bit(side: u8) -> u8 {
    BLACK_BIT >> side
}

#[inline]
pub const fn code(side: u8, piece_type: u8) -> u8 {
    own_bit(side) | piece_type
}

/// Colour of a piece code (0 White, 1 Black).
#[inline]
pub const fn color_of(code: u8) -> u8 {
    (code >> 6) & 1
}

/// A move: from and to cells, an extra cell (castling partner, e.p. victim, e.p. square left
/// behind), the promotion type + 1 (0 = none) and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move {
    pub from: u16,
    pub to: u16,
    pub extra: u16,
    pub promo: u8,
    pub kind: u8,
}

impl Move {
    pub const NORMAL: u8 = 0;
    /// Captures the piece on `extra` by moving to the e.p. square.
    pub const EN_PASSANT: u8 = 1;
    /// The king moves to `to`; the corner piece on `extra` goes next to it on the inner side.
    pub const CASTLE: u8 = 2;
    /// A lame leap leaving e.p. rights on `extra`.
    pub const SETS_EP: u8 = 3;
    /// Flag: the move comes from an initial-only path.
    pub const INITIAL: u8 = 0x80;

    pub fn kind(self) -> u8 {
        self.kind & 0x7F
    }

    pub fn promotion(self) -> Option<u8> {
        self.promo.checked_sub(1)
    }
}

/// What make() changed, for unmake().
#[derive(Debug, Clone, Copy)]
struct Undo {
    mv: Move,
    moved: u8,
    captured: u8,
    captured_at: u16,
    ep: u16,
    ep_victim: u16,
    halfmove: u16,
    hash: u64,
    virgin_from: bool,
    virgin_to: bool,
    virgin_extra: bool,
}

#[derive(Clone)]
pub struct Position {
    game: Arc<Game>,
    pub(crate) board: [u8; CELLS],
    pub(crate) virgin: [bool; CELLS],
    pub(crate) side: u8,
    /// En-passant square (0: none) and the cell of the piece that can be taken there.
    pub(crate) ep: u16,
    pub(crate) ep_victim: u16,
    pub(crate) halfmove: u16,
    /// Plies since the start of the game (fullmove number = start fullmove + ply / 2).
    ply: u32,
    start_fullmove: u32,
    start_side: u8,
    pub(crate) hash: u64,
    pub(crate) plist: [[u16; 64]; 2],
    pub(crate) pcount: [u8; 2],
    pindex: [u8; CELLS],
    /// Pieces of each type per side.
    pub(crate) counts: [[u8; 32]; 2],
    pub(crate) royal: [u16; 2],
    history: Vec<Undo>,
    /// Hashes of the positions before each move made (for repetition).
    pub(crate) hashes: Vec<u64>,
}

impl Position {
    pub fn game(&self) -> &Arc<Game> {
        &self.game
    }

    pub fn side_to_move(&self) -> u8 {
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

    /// Piece code on a cell (see `EMPTY`, `OFF`, `own_bit`).
    pub fn at(&self, cell: u16) -> u8 {
        self.board[cell as usize]
    }

    pub fn is_virgin(&self, cell: u16) -> bool {
        self.virgin[cell as usize]
    }

    /// Cells holding pieces of one side.
    pub fn pieces(&self, side: u8) -> &[u16] {
        &self.plist[side as usize][..self.pcount[side as usize] as usize]
    }

    /// Number of pieces of a type for a side.
    pub fn count(&self, side: u8, piece_type: u8) -> u8 {
        self.counts[side as usize][piece_type as usize]
    }

    pub fn royal_square(&self, side: u8) -> u16 {
        self.royal[side as usize]
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// Captured piece code of the last move (0 if none).
    pub fn last_captured(&self) -> u8 {
        self.history.last().map_or(0, |u| u.captured)
    }

    fn put(&mut self, cell: u16, code: u8) {
        let side = color_of(code) as usize;
        self.board[cell as usize] = code;
        let n = self.pcount[side];
        self.plist[side][n as usize] = cell;
        self.pindex[cell as usize] = n;
        self.pcount[side] += 1;
        self.counts[side][(code & TYPE_MASK) as usize] += 1;
        self.hash ^= zobrist::piece(code, cell);
    }

    fn remove(&mut self, cell: u16) -> u8 {
        let code = self.board[cell as usize];
        let side = color_of(code) as usize;
        self.board[cell as usize] = EMPTY;
        let i = self.pindex[cell as usize] as usize;
        let last = self.pcount[side] as usize - 1;
        let moved = self.plist[side][last];
        self.plist[side][i] = moved;
        self.pindex[moved as usize] = i as u8;
        self.pcount[side] -= 1;
        self.counts[side][(code & TYPE_MASK) as usize] -= 1;
        self.hash ^= zobrist::piece(code, cell);
        code
    }

    fn shift(&mut self, from: u16, to: u16) {
        let code = self.board[from as usize];
        let side = color_of(code) as usize;
        self.board[from as usize] = EMPTY;
        self.board[to as usize] = code;
        let i = self.pindex[from as usize];
        self.plist[side][i as usize] = to;
        self.pindex[to as usize] = i;
        self.hash ^= zobrist::piece(code, from) ^ zobrist::piece(code, to);
    }

    /// Clears a cell's virginity, keeping the hash in step when that virginity is a right.
    fn touch(&mut self, cell: u16) {
        if !self.virgin[cell as usize] {
            return;
        }
        if self.is_right(cell) {
            self.hash ^= zobrist::virgin(cell);
        }
        let code = self.board[cell as usize];
        if code & (WHITE_BIT | BLACK_BIT) != 0 && self.royal[color_of(code) as usize] == cell {
            // Castling partners only count while their royal piece is unmoved.
            self.virgin[cell as usize] = false;
            let side = color_of(code);
            for i in 0..self.pcount[side as usize] as usize {
                let c = self.plist[side as usize][i];
                if self.virgin[c as usize] && self.is_partner(c) {
                    self.hash ^= zobrist::virgin(c);
                }
            }
        }
        self.virgin[cell as usize] = false;
    }

    /// A piece whose virginity matters only as a castling partner.
    fn is_partner(&self, cell: u16) -> bool {
        let p = &self.game.tables.pieces[(self.board[cell as usize] & TYPE_MASK) as usize];
        p.rights && p.program[0].initial.is_empty() && p.program[0].castles.is_empty()
    }

    /// Whether this cell's virginity is part of the position's identity: a piece with initial moves,
    /// or a castling partner while its royal piece is unmoved. (A king that can only castle needs no
    /// bit of its own: without partners its virginity changes nothing.)
    fn is_right(&self, cell: u16) -> bool {
        let code = self.board[cell as usize];
        if code & (WHITE_BIT | BLACK_BIT) == 0 {
            return false;
        }
        let p = &self.game.tables.pieces[(code & TYPE_MASK) as usize];
        if !p.program[0].initial.is_empty() {
            return true;
        }
        self.is_partner(cell) && self.virgin[self.royal[color_of(code) as usize] as usize]
    }

    /// Where a move captures and what (0 when it captures nothing).
    #[inline]
    pub fn capture_of(&self, m: Move) -> (u16, u8) {
        let at = if m.kind() == Move::EN_PASSANT {
            m.extra
        } else {
            m.to
        };
        let captured = if m.kind() == Move::CASTLE {
            EMPTY
        } else {
            self.board[at as usize]
        };
        (at, captured)
    }

    /// Plays a (pseudo-)legal move.
    pub fn make(&mut self, m: Move) {
        let (from, to) = (m.from, m.to);
        let moved = self.board[from as usize];
        let (captured_at, captured) = self.capture_of(m);
        self.hashes.push(self.hash);
        self.history.push(Undo {
            mv: m,
            moved,
            captured,
            captured_at,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            hash: self.hash,
            virgin_from: self.virgin[from as usize],
            virgin_to: self.virgin[to as usize],
            virgin_extra: self.virgin[m.extra as usize],
        });
        if self.ep != 0 {
            self.hash ^= zobrist::ep(self.ep);
            self.ep = 0;
            self.ep_victim = 0;
        }
        self.touch(from);
        self.touch(to);
        if captured != EMPTY {
            self.touch(captured_at);
            self.remove(captured_at);
        }
        let tables = &self.game.tables;
        let pawn = tables.pieces[(moved & TYPE_MASK) as usize].pawn;
        if m.kind() == Move::CASTLE {
            let dir: i16 = if m.to > m.from { 1 } else { -1 };
            self.touch(m.extra);
            let rook = self.remove(m.extra);
            self.shift(from, to);
            self.put((to as i16 - dir) as u16, rook);
        } else {
            self.shift(from, to);
        }
        if let Some(t) = m.promotion() {
            self.remove(to);
            self.put(to, own_bit(self.side) | t);
        }
        if m.kind() == Move::SETS_EP && self.game.tables.en_passant {
            self.ep = m.extra;
            self.ep_victim = to;
            self.hash ^= zobrist::ep(self.ep);
        }
        if self.royal[self.side as usize] == from {
            self.royal[self.side as usize] = to;
        }
        self.halfmove = if captured != EMPTY || pawn {
            0
        } else {
            self.halfmove + 1
        };
        self.side ^= 1;
        self.hash ^= zobrist::SIDE;
        self.ply += 1;
    }

    /// Takes back the last move made.
    pub fn unmake(&mut self) {
        let u = self.history.pop().expect("unmake without a move");
        self.hashes.pop();
        self.side ^= 1;
        self.ply -= 1;
        let m = u.mv;
        if m.promotion().is_some() {
            self.remove(m.to);
            self.put(m.to, u.moved);
        }
        if m.kind() == Move::CASTLE {
            let dir: i16 = if m.to > m.from { 1 } else { -1 };
            let rook = self.remove((m.to as i16 - dir) as u16);
            self.shift(m.to, m.from);
            self.put(m.extra, rook);
        } else {
            self.shift(m.to, m.from);
        }
        if u.captured != EMPTY {
            self.put(u.captured_at, u.captured);
        }
        if self.royal[self.side as usize] == m.to {
            self.royal[self.side as usize] = m.from;
        }
        self.virgin[m.from as usize] = u.virgin_from;
        self.virgin[m.to as usize] = u.virgin_to;
        self.virgin[m.extra as usize] = u.virgin_extra;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
    }

    /// Passes the turn (dice games with no move for the roll). Undone by `unmake_null`.
    pub fn make_null(&mut self) {
        self.hashes.push(self.hash);
        self.history.push(Undo {
            mv: Move {
                from: 0,
                to: 0,
                extra: 0,
                promo: 0,
                kind: 0,
            },
            moved: 0,
            captured: 0,
            captured_at: 0,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            hash: self.hash,
            virgin_from: self.virgin[0],
            virgin_to: self.virgin[0],
            virgin_extra: self.virgin[0],
        });
        if self.ep != 0 {
            self.hash ^= zobrist::ep(self.ep);
            self.ep = 0;
            self.ep_victim = 0;
        }
        self.side ^= 1;
        self.hash ^= zobrist::SIDE;
        self.ply += 1;
        self.halfmove += 1;
    }

    pub fn unmake_null(&mut self) {
        let u = self.history.pop().expect("unmake_null without a null move");
        self.hashes.pop();
        self.side ^= 1;
        self.ply -= 1;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
    }

    /// The hash computed from scratch (tests compare it with the incremental one).
    pub fn fresh_hash(&self) -> u64 {
        let mut h = 0;
        for side in 0..2 {
            for &c in self.pieces(side) {
                h ^= zobrist::piece(self.board[c as usize], c);
                if self.virgin[c as usize] && self.is_right(c) {
                    h ^= zobrist::virgin(c);
                }
            }
        }
        if self.ep != 0 {
            h ^= zobrist::ep(self.ep);
        }
        if self.side == 1 {
            h ^= zobrist::SIDE;
        }
        h
    }
}
