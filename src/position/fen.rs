//! Setup in and out: a [`Setup`] checked against the game becomes a `Position`; a `Position` writes
//! itself as a `Setup`. The rights field carries the royal piece's virginity (Grant Acedrex's king
//! leap) and, with castling, the corner pieces'.

use super::*;
use crate::geometry::{cell, file_of, rank_of};
use crate::setup::{FenError, FenProblem, Right, Setup};

impl Position {
    /// The variant's start position.
    pub fn start(game: &Arc<Game>) -> Position {
        Position::from_setup(game, &game.variant.start).expect("validated start position")
    }

    /// Reads a FEN (see [`Setup::parse`] for the forms accepted).
    pub fn from_fen(game: &Arc<Game>, fen: &str) -> Result<Position, FenError> {
        Position::from_setup(game, &Setup::parse(fen)?)
    }

    /// Checks a setup against the game and builds the position; the error lists every reason.
    pub fn from_setup(game: &Arc<Game>, setup: &Setup) -> Result<Position, FenError> {
        let t = &game.tables;
        let (files, ranks) = (t.files, t.ranks);
        let letters: Vec<char> = t.pieces.iter().map(|p| p.letter).collect();
        let mut problems = setup.check(files, ranks, &letters, &game.variant.promotable(), "FEN");
        let mut pos = Position::empty(game);
        pos.side = setup.side;
        pos.start_side = setup.side;
        pos.halfmove = setup.halfmove.min(u16::MAX as u32) as u16;
        pos.start_fullmove = setup.fullmove.max(1);
        if problems.is_empty() {
            // A `~` piece goes back to hand as the (first) promoting kind.
            let pawn = game.variant.promotion.pawns.first();
            let origin = pawn
                .and_then(|&c| game.variant.piece_index(c))
                .map_or(0, |k| k as u8 + 1);
            for ((f, r), p) in setup.squares() {
                let mut kind = Kind(game.variant.piece_index(p.letter).expect("checked") as u8);
                if p.plus {
                    // `+P`: the promoted form of P, which remembers it was a P.
                    let from = kind;
                    kind = t.pieces[from.index()].promotes_to.expect("checked");
                    pos.put(cell(f, r), Piece::new(p.side, kind));
                    pos.origin[cell(f, r) as usize] = from.0 + 1;
                    continue;
                }
                pos.put(cell(f, r), Piece::new(p.side, kind));
                if p.promoted && t.hand.demote {
                    pos.origin[cell(f, r) as usize] = origin;
                }
            }
            problems.extend(pos.fill_hands(setup));
        }
        // Royal pieces: exactly one per side where the variant is built on one (classic); else any
        // number, and the tracked piece is the one that carries the rights field.
        if problems.is_empty() && t.classic {
            for side in Side::BOTH {
                let royals: Vec<u16> = pos
                    .pieces(side)
                    .iter()
                    .copied()
                    .filter(|&c| t.pieces[pos.board[c as usize].kind().index()].royal)
                    .collect();
                if royals.len() == 1 {
                    pos.royal[side.index()] = royals[0];
                } else {
                    problems.push(FenProblem {
                        at: 0,
                        len: setup.field_at[1].max(1),
                        message: format!(
                            "{} has {} royal pieces: expected exactly 1",
                            side.name(),
                            royals.len()
                        ),
                    });
                }
            }
        } else if problems.is_empty() {
            let start = &game.variant.start;
            for side in Side::BOTH {
                let kings: Vec<u16> = pos
                    .pieces(side)
                    .iter()
                    .copied()
                    .filter(|&c| t.pieces[pos.board[c as usize].kind().index()].king)
                    .collect();
                // Prefer a king standing where one of its kind starts: that one may castle.
                let home = kings.iter().copied().find(|&c| {
                    start.get((file_of(c), rank_of(c))).is_some_and(|s| {
                        s.side == side
                            && game.variant.piece_index(s.letter)
                                == Some(pos.board[c as usize].kind().index())
                    })
                });
                pos.royal[side.index()] = home.or(kings.first().copied()).unwrap_or(0);
            }
        }
        if let (Some(n), Some(left)) = (t.checks_to_win, setup.checks) {
            pos.checks = left.map(|l| u32::from(n).saturating_sub(l) as u8);
        }
        if let Some((n, at)) = setup.count_limit {
            if t.honour.is_none() {
                problems.push(FenProblem {
                    at,
                    len: n.to_string().len(),
                    message: format!(
                        "`{n}` in the en-passant field: expected `-` or a square such as `e3` (a counting limit needs `honour-count`)"
                    ),
                });
            } else if n > 2 * 16383 {
                problems.push(FenProblem {
                    at,
                    len: n.to_string().len(),
                    message: format!("a counting limit of {n} plies: expected at most 32766"),
                });
            } else if n > 0 {
                // As Fairy-Stockfish reads it: with a limit the halfmove field is the count.
                pos.count_limit = n as u16;
                if pos.halfmove != 0 {
                    pos.count_ply = pos.halfmove;
                    pos.halfmove = 0;
                }
            }
        }
        if !problems.is_empty() {
            return Err(FenError { problems });
        }
        pos.set_virginity(setup);
        if let Some(((f, r), _)) = setup.ep {
            let sq = cell(f, r);
            // The victim stands one step beyond the e.p. square, seen from the side that moved.
            let victim = if pos.side == Side::White {
                sq - crate::geometry::STRIDE as u16
            } else {
                sq + crate::geometry::STRIDE as u16
            };
            if t.en_passant
                && pos.board[sq as usize].is_empty()
                && pos.board[victim as usize].is(!pos.side)
            {
                pos.ep = sq;
                pos.ep_victim = victim;
            }
        }
        pos.hash = pos.fresh_hash();
        Ok(pos)
    }

    /// Puts the setup's holdings in hand. A game without hands takes none, and no hand holds a
    /// royal piece where check and mate rest on one per side.
    fn fill_hands(&mut self, setup: &Setup) -> Vec<FenProblem> {
        let game = self.game.clone();
        let t = &game.tables;
        let mut problems = Vec::new();
        for p in setup.hands.iter().flatten() {
            let k = game.variant.piece_index(p.letter).expect("checked");
            let why = if !t.hand.on {
                "this game has no hands: expected no holdings (`[...]`)"
            } else if t.classic && t.pieces[k].royal {
                "a royal piece in hand: expected one royal piece per side on the board"
            } else if self.hand[p.side.index()][k] == u8::MAX {
                "too many pieces of one kind in hand: expected at most 255"
            } else {
                self.hand[p.side.index()][k] += 1;
                continue;
            };
            problems.push(FenProblem {
                at: p.at,
                len: 1,
                message: format!("`{}` in the holdings: {why}", p.side.cased(p.letter)),
            });
        }
        problems
    }

    /// How many moves a piece of `side` and `kind` has from `at` alone on the board, unmoved
    /// moves aside.
    pub(crate) fn moves_alone(game: &Arc<Game>, side: Side, kind: Kind, at: u16) -> usize {
        let mut pos = Position::empty(game);
        pos.side = side;
        pos.put(at, Piece::new(side, kind));
        let mut out = Vec::new();
        pos.piece_moves(at, &mut out);
        out.len()
    }

    /// An empty board of the game, White to move.
    fn empty(game: &Arc<Game>) -> Position {
        let t = &game.tables;
        let mut pos = Position {
            game: game.clone(),
            board: [Piece::OFF; CELLS],
            virgin: [false; CELLS],
            side: Side::White,
            ep: 0,
            ep_victim: 0,
            halfmove: 0,
            ply: 0,
            start_fullmove: 1,
            start_side: Side::White,
            hash: 0,
            plist: [[0; MAX_PIECES]; 2],
            pcount: [0; 2],
            pindex: [0; CELLS],
            counts: [[0; Kind::MAX]; 2],
            royal: [0; 2],
            checks: [0; 2],
            count_limit: 0,
            count_ply: 0,
            hand: [[0; Kind::MAX]; 2],
            origin: [0; CELLS],
            history: Vec::new(),
            hashes: Vec::new(),
        };
        for f in 0..t.files {
            for r in 0..t.ranks {
                pos.board[cell(f, r) as usize] = Piece::EMPTY;
            }
        }
        pos
    }

    /// Virginity from the rights field and the start position (xbetza.md §2.7: a piece that stands where
    /// its kind started is taken as unmoved; royal pieces and castling partners follow the rights field).
    fn set_virginity(&mut self, setup: &Setup) {
        let game = self.game.clone();
        let t = &game.tables;
        let start = &game.variant.start;
        for side in Side::BOTH {
            let royal_file = file_of(self.royal[side.index()]);
            let (mut king_side, mut queen_side) = (false, false);
            for r in &setup.rights {
                match *r {
                    Right::King(s) if s == side => king_side = true,
                    Right::Queen(s) if s == side => queen_side = true,
                    // With gating a file letter names a gate, not a castling side.
                    Right::File(s, _) if s == side && t.hand.gating => {}
                    // X-FEN/Shredder: a file beyond the royal piece is the king side.
                    Right::File(s, f) if s == side => {
                        if f > royal_file || !t.castling {
                            king_side = true
                        } else {
                            queen_side = true
                        }
                    }
                    _ => {}
                }
            }
            let pieces: Vec<u16> = self.pieces(side).to_vec();
            let back_rank = side.home_rank(t.ranks);
            // Chess960: `K`/`Q` name the outermost partner on that side, a file letter the one there.
            let partners: Vec<u8> = pieces
                .iter()
                .filter(|&&c| rank_of(c) == back_rank && self.is_partner(c))
                .map(|&c| file_of(c))
                .collect();
            let outer_k = partners.iter().copied().filter(|&f| f > royal_file).max();
            let outer_q = partners.iter().copied().filter(|&f| f < royal_file).min();
            let named = |f: u8| {
                setup.rights.iter().any(|r| match *r {
                    Right::King(s) => s == side && Some(f) == outer_k,
                    Right::Queen(s) => s == side && Some(f) == outer_q,
                    Right::File(s, g) => s == side && g == f,
                })
            };
            // `gating`: a file letter (Fairy-Stockfish's and XBoard's Seirawan FEN) names a
            // never-moved piece of the first rank, a gate.
            let gate = |c: u16| {
                t.hand.gating
                    && rank_of(c) == back_rank
                    && setup
                        .rights
                        .iter()
                        .any(|r| *r == Right::File(side, file_of(c)))
            };
            for c in pieces {
                let piece = self.board[c as usize];
                let p = &t.pieces[piece.kind().index()];
                self.virgin[c as usize] = gate(c)
                    || if t.rights_by_file[piece.kind().index()] {
                        // `rights-by-file`: unmoved where the rights field names its file.
                        rank_of(c) == back_rank
                            && setup
                                .rights
                                .iter()
                                .any(|r| *r == Right::File(side, file_of(c)))
                    } else if c == self.royal[side.index()] {
                        king_side || queen_side
                    } else if t.castle_any.is_some()
                        && rank_of(c) == back_rank
                        && partners.contains(&file_of(c))
                    {
                        named(file_of(c))
                    } else if t.castle_inner && self.is_partner(c) {
                        // `castling-rook`: the outermost partner on the royal's rank, each side.
                        let royal = self.royal[side.index()];
                        let outer = self.outer_partners(side);
                        royal != 0
                            && ((outer[0] == Some(c) && queen_side)
                                || (outer[1] == Some(c) && king_side))
                    } else if t.castling && p.rights && rank_of(c) == back_rank {
                        let f = file_of(c);
                        (f == t.files - 1 && king_side) || (f == 0 && queen_side)
                    } else if t.hand.gating && rank_of(c) == back_rank {
                        false
                    } else {
                        start.get((file_of(c), rank_of(c))).is_some_and(|s| {
                            s.side == side
                                && game.variant.piece_index(s.letter) == Some(piece.kind().index())
                        })
                    };
            }
        }
    }

    /// `castling-rook`: the outermost own partner on the royal piece's rank, towards the a-file
    /// and towards the last file.
    fn outer_partners(&self, side: Side) -> [Option<u16>; 2] {
        let t = &self.game.tables;
        let royal = self.royal[side.index()];
        if royal == 0 {
            return [None, None];
        }
        let (rank, rf) = (rank_of(royal), file_of(royal));
        let partner = |f: u8| {
            let c = cell(f, rank);
            (self.board[c as usize].is(side) && self.is_partner(c)).then_some(c)
        };
        [
            (0..rf).find_map(partner),
            (rf + 1..t.files).rev().find_map(partner),
        ]
    }

    /// The position as a setup (placement, side, rights, e.p. square, counters).
    pub fn setup(&self) -> Setup {
        let t = &self.game.tables;
        let mut s = Setup::empty(t.files, t.ranks);
        for side in Side::BOTH {
            for &c in self.pieces(side) {
                let kind = self.board[c as usize].kind();
                let sq = (file_of(c), rank_of(c));
                match self.promoted_from(c) {
                    // The promoted form of its origin: `+P`.
                    Some(o) if t.pieces[o.index()].promotes_to == Some(kind) => {
                        s.put(sq, side, t.pieces[o.index()].letter);
                        s.mark_plus(sq);
                    }
                    Some(_) => {
                        s.put(sq, side, t.pieces[kind.index()].letter);
                        s.mark_promoted(sq);
                    }
                    None => match crate::piece::id::base(t.pieces[kind.index()].letter) {
                        // A kind that exists only promoted (`+D`), without a recorded origin.
                        Some(base) => {
                            s.put(sq, side, base);
                            s.mark_plus(sq);
                        }
                        None => s.put(sq, side, t.pieces[kind.index()].letter),
                    },
                }
            }
        }
        if t.hand.on {
            s.hands = Some(Vec::new());
            for side in Side::BOTH {
                for (k, &n) in self.hand[side.index()].iter().enumerate() {
                    for _ in 0..n {
                        s.put_in_hand(side, t.pieces[k].letter);
                    }
                }
            }
        }
        s.side = self.side;
        s.rights = self.rights();
        s.ep = (self.ep != 0).then(|| ((file_of(self.ep), rank_of(self.ep)), 0));
        s.halfmove = self.halfmove.into();
        if self.count_limit != 0 {
            s.count_limit = Some((self.count_limit.into(), 0));
            s.halfmove = self.count_ply.into();
        }
        s.fullmove = self.fullmove();
        s.checks = t
            .checks_to_win
            .map(|n| self.checks.map(|c| u32::from(n.saturating_sub(c))));
        s
    }

    /// Writes the position as FEN.
    pub fn fen(&self) -> String {
        self.setup().fen()
    }

    pub fn fullmove(&self) -> u32 {
        self.start_fullmove + (self.ply + self.start_side as u32) / 2
    }

    fn rights(&self) -> Vec<Right> {
        let t = &self.game.tables;
        let mut out = Vec::new();
        let by_file = t.rights_by_file.iter().any(|&b| b);
        for side in Side::BOTH {
            if by_file {
                // Fairy-Stockfish's gating form: the unmoved pieces' files, a to h.
                let back_rank = side.home_rank(t.ranks);
                for f in 0..t.files {
                    let c = cell(f, back_rank);
                    let p = self.board[c as usize];
                    if p.is(side) && self.virgin[c as usize] && t.rights_by_file[p.kind().index()] {
                        out.push(Right::File(side, f));
                    }
                }
                continue;
            }
            let king = self.royal[side.index()];
            if king == 0
                || !self.virgin[king as usize]
                || !t.pieces[self.board[king as usize].kind().index()].rights
            {
                continue;
            }
            let back_rank = side.home_rank(t.ranks);
            if t.castle_any.is_some() {
                // Shredder-FEN, as Fairy-Stockfish writes it: the partners' files, king side first.
                for f in (0..t.files).rev() {
                    let c = cell(f, back_rank);
                    if self.board[c as usize].is(side)
                        && self.virgin[c as usize]
                        && self.is_partner(c)
                    {
                        out.push(Right::File(side, f));
                    }
                }
            } else if t.castle_inner {
                let outer = self.outer_partners(side);
                for (c, right) in [
                    (outer[1], Right::King(side)),
                    (outer[0], Right::Queen(side)),
                ] {
                    if let Some(c) = c
                        && self.virgin[c as usize]
                    {
                        out.push(right);
                    }
                }
            } else if t.castling {
                for (f, right) in [(t.files - 1, Right::King(side)), (0, Right::Queen(side))] {
                    let c = cell(f, back_rank);
                    if self.virgin[c as usize] && self.board[c as usize].is(side) {
                        out.push(right);
                    }
                }
            } else {
                out.push(Right::King(side));
            }
        }
        // `gating`: after each side's castling rights, the files of its gates (never-moved pieces
        // of its first rank), as Fairy-Stockfish writes them (`KQABCDEFGHkqabcdefgh`).
        if t.hand.gating {
            let mut with_gates = Vec::new();
            for side in Side::BOTH {
                with_gates.extend(out.iter().copied().filter(|r| match *r {
                    Right::King(s) | Right::Queen(s) | Right::File(s, _) => s == side,
                }));
                // As Fairy-Stockfish, no gates while the hand holds nothing to gate (and captures
                // cannot refill it): it reads them then as Chess960 castling files.
                let hand = &self.hand[side.index()];
                let can_gate = t.hand.captures_to_hand
                    || (0..t.pieces.len()).any(|k| hand[k] > 0 && t.hand.gate[k]);
                let back_rank = side.home_rank(t.ranks);
                for f in (0..t.files).filter(|_| can_gate) {
                    let c = cell(f, back_rank);
                    if self.board[c as usize].is(side) && self.virgin[c as usize] {
                        with_gates.push(Right::File(side, f));
                    }
                }
            }
            with_gates.dedup();
            out = with_gates;
        }
        out
    }
}
