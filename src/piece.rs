//! Piece kinds and what a mailbox cell holds.

use crate::side::Side;

/// A piece kind: its index in the variant's piece list (and in every per-kind table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Kind(pub u8);

impl Kind {
    /// The most kinds a variant may have: six bits of a [`Piece`].
    pub const MAX: usize = 64;

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Piece ids: how the variant file, FEN, move text and the boards name a kind. An id is one
/// upper-case letter (`D`), or `+` and a letter (`+D`) for a kind that exists only as the promoted
/// form of the kind with that letter (Chu Shogi's Soaring Eagle is the Dragon King's), written so
/// by XBoard. Inside acedrex an id is one `char`, so every list of piece letters stays a
/// `Vec<char>`: the letter itself, or for `+L` the private-use code point [`id::PLUS`] + L, which
/// only [`id::show`] and [`id::cased`] turn back into text.
pub mod id {
    use crate::side::Side;

    /// Where the `+L` ids start among the private-use code points.
    pub const PLUS: u32 = 0xE000;

    /// The id `+L` for the letter L.
    pub fn plus(letter: char) -> char {
        char::from_u32(PLUS + letter.to_ascii_uppercase() as u32).expect("private use area")
    }

    /// L for the id `+L`; None for a plain letter.
    pub fn base(id: char) -> Option<char> {
        let n = (id as u32).checked_sub(PLUS)?;
        char::from_u32(n).filter(|c| c.is_ascii_uppercase())
    }

    /// Whether `id` is an upper-case letter or `+L`.
    pub fn is_id(id: char) -> bool {
        id.is_ascii_uppercase() || base(id).is_some()
    }

    /// The id as text: `D` or `+D`.
    pub fn show(id: char) -> String {
        match base(id) {
            Some(l) => format!("+{l}"),
            None => id.to_string(),
        }
    }

    /// The id in FEN case: upper case White, lower case Black (`+d`).
    pub fn cased(side: Side, id: char) -> String {
        match base(id) {
            Some(l) => format!("+{}", side.cased(l)),
            None => side.cased(id).to_string(),
        }
    }

    /// Splits a list of ids (`PI`, `+D+HN`) into ids; None names the byte offset of a `+` that
    /// no letter follows.
    pub fn split(text: &str) -> Result<Vec<(usize, char)>, usize> {
        let mut out = Vec::new();
        let mut chars = text.char_indices();
        while let Some((i, c)) = chars.next() {
            if c == '+' {
                match chars.next() {
                    Some((_, l)) if l.is_ascii_alphabetic() => out.push((i, plus(l))),
                    _ => return Err(i),
                }
            } else {
                out.push((i, c));
            }
        }
        Ok(out)
    }
}

/// What a mailbox cell holds, in one byte: nothing, the guard band around the board, or a piece of
/// a side and kind. Bit 6 marks White, bit 7 Black, the low six bits are the kind; the guard has
/// no side bit, so a side's "own" and "enemy" tests are single masks (see [`Side`] masks below).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Piece(u8);

const KIND_BITS: u8 = 0x3F;
const WHITE: u8 = 0x40;
const BLACK: u8 = 0x80;

impl Piece {
    pub const EMPTY: Piece = Piece(0);
    /// A guard cell outside the board.
    pub const OFF: Piece = Piece(KIND_BITS);

    #[inline(always)]
    pub const fn new(side: Side, kind: Kind) -> Piece {
        Piece(own_mask(side) | kind.0)
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_off(self) -> bool {
        self.0 == KIND_BITS
    }

    /// A piece of either side (not empty, not the guard).
    #[inline(always)]
    pub const fn is_piece(self) -> bool {
        self.0 & (WHITE | BLACK) != 0
    }

    /// Occupied by a piece or the guard: what blocks a slider.
    #[inline(always)]
    pub const fn is_occupied(self) -> bool {
        self.0 != 0
    }

    /// Whether this is a piece of `side`.
    #[inline(always)]
    pub const fn is(self, side: Side) -> bool {
        self.0 & own_mask(side) != 0
    }

    /// The side of a piece (meaningless for empty and guard cells).
    #[inline(always)]
    pub const fn side(self) -> Side {
        Side::from_index((self.0 >> 7) as usize)
    }

    /// The kind of a piece (meaningless for empty and guard cells).
    #[inline(always)]
    pub const fn kind(self) -> Kind {
        Kind(self.0 & KIND_BITS)
    }

    /// The raw byte: side masks test it, Zobrist keys mix it.
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }
}

/// The bit a piece of `side` carries.
#[inline(always)]
pub const fn own_mask(side: Side) -> u8 {
    WHITE << side as u8
}

/// The bit the opponent's pieces carry.
#[inline(always)]
pub const fn enemy_mask(side: Side) -> u8 {
    BLACK >> side as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_both_sides_round_trips() {
        for side in Side::BOTH {
            for k in 0..Kind::MAX as u8 {
                let p = Piece::new(side, Kind(k));
                assert!(p.is_piece() && p.is(side) && !p.is(!side));
                assert!(!p.is_empty() && !p.is_off() && p.is_occupied());
                assert_eq!((p.side(), p.kind()), (side, Kind(k)));
                assert_ne!(p.bits() & enemy_mask(!side), 0);
            }
        }
        for p in [Piece::EMPTY, Piece::OFF] {
            assert!(!p.is_piece() && !p.is(Side::White) && !p.is(Side::Black));
        }
        assert!(Piece::OFF.is_occupied() && !Piece::EMPTY.is_occupied());
    }

    #[test]
    fn plus_ids_read_and_write_as_xboard_writes_them() {
        let eagle = id::plus('D');
        assert_eq!(
            (id::show(eagle), id::base(eagle)),
            ("+D".to_string(), Some('D'))
        );
        assert_eq!(id::cased(Side::Black, eagle), "+d");
        assert_eq!((id::show('D'), id::base('D')), ("D".to_string(), None));
        assert!(id::is_id(eagle) && id::is_id('D') && !id::is_id('d'));
        assert_eq!(id::split("P+DN"), Ok(vec![(0, 'P'), (1, eagle), (3, 'N')]));
        assert_eq!(id::split("P+"), Err(1));
    }
}
