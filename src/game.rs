//! A variant ready to play: its validated definition and its compiled tables, shared by positions.

use crate::geometry::{CELLS, cell};
use crate::piece::{Kind, Piece};
use crate::position::Position;
use crate::setup::{Right, Setup};
use crate::side::Side;
use crate::tables::Tables;
use crate::variant::Variant;
use std::sync::Arc;

#[derive(Debug)]
pub struct Game {
    pub variant: Variant,
    pub tables: Tables,
}

impl Game {
    /// Compiles a validated variant. What validation accepts, the executor plays: this cannot fail.
    pub fn new(variant: Variant) -> Arc<Game> {
        let mut tables = Tables::build(&variant);
        if variant.immobile_forbidden {
            // Where a piece alone on the board has no move, it must never be left.
            let probe = Arc::new(Game {
                variant: variant.clone(),
                tables: tables.clone(),
            });
            for (k, piece) in tables.pieces.iter_mut().enumerate() {
                let mut stuck = [vec![false; CELLS], vec![false; CELLS]];
                let mut any = false;
                for side in Side::BOTH {
                    for f in 0..variant.files {
                        for r in 0..variant.ranks {
                            let c = cell(f, r);
                            if Position::moves_alone(&probe, side, Kind(k as u8), c) == 0 {
                                stuck[side.index()][c as usize] = true;
                                any = true;
                            }
                        }
                    }
                }
                piece.stuck = any.then(|| Box::new(stuck));
            }
        }
        Arc::new(Game { variant, tables })
    }

    pub fn letter(&self, kind: Kind) -> char {
        self.tables.pieces[kind.index()].letter
    }

    /// The rights of a setup without a rights field (XBoard's edit mode): a royal piece standing
    /// where the game starts it is unmoved, and so is a castling corner piece in its start place.
    pub fn unmoved_rights(&self, setup: &Setup) -> Vec<Right> {
        let (v, t) = (&self.variant, &self.tables);
        let start = &v.start;
        let same = |sq: (u8, u8)| {
            setup.get(sq).is_some_and(|p| {
                start
                    .get(sq)
                    .is_some_and(|s| (s.side, s.letter) == (p.side, p.letter))
            })
        };
        let mut rights = Vec::new();
        for side in Side::BOTH {
            let royal = start.squares().find(|(_, p)| {
                p.side == side && v.piece_index(p.letter).is_some_and(|i| t.pieces[i].king)
            });
            if t.castle_any.is_some() {
                // Chess960 (XBoard's edit mode): a king and rooks anywhere on the back rank castle.
                let Some(((_, kr), k)) = royal else { continue };
                if setup
                    .squares()
                    .any(|((_, r), p)| r == kr && (p.side, p.letter) == (side, k.letter))
                {
                    rights.extend([Right::King(side), Right::Queen(side)]);
                }
                continue;
            }
            let Some(((_, kr), _)) = royal.filter(|&(sq, _)| same(sq)) else {
                continue;
            };
            if t.castling {
                if same((t.files - 1, kr)) {
                    rights.push(Right::King(side));
                }
                if same((0, kr)) {
                    rights.push(Right::Queen(side));
                }
            } else {
                rights.push(Right::King(side));
            }
        }
        rights
    }

    /// A piece's id as FEN writes it: upper case White, lower case Black; `+d` for a kind that
    /// exists only promoted.
    pub fn piece_char(&self, piece: Piece) -> String {
        crate::piece::id::cased(piece.side(), self.letter(piece.kind()))
    }

    /// A kind's id as text: `D`, `A'`, or `+D` for a kind that exists only promoted.
    pub fn id(&self, kind: Kind) -> String {
        crate::piece::id::show(self.letter(kind))
    }

    /// The kind's id as a move's suffix writes it (a promotion, a gated piece): lower case,
    /// `q`, `a'`.
    pub fn suffix_id(&self, kind: Kind) -> String {
        crate::piece::id::cased(crate::side::Side::Black, self.letter(kind))
    }
}
