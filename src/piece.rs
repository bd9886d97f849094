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
/// upper-case letter (`D`), optionally dressed with `'` or `!` (`A'`, `L!`: HaChu's and XBoard's
/// ids for the large shogis, which have more kinds than letters), and may carry a leading `+`
/// (`+D`, `+A'`) for a kind that exists only as the promoted form of the kind with that id (Chu
/// Shogi's Soaring Eagle is the Dragon King's), written so by XBoard. Inside acedrex an id is one
/// `char`, so every list of piece letters stays a `Vec<char>`: a plain letter is itself, any other
/// id a private-use code point from [`id::PLUS`], which only [`id::show`] and [`id::cased`] turn
/// back into text.
pub mod id {
    use crate::side::Side;

    /// Where the dressed and `+` ids start among the private-use code points: `PLUS` + L is `+L`.
    pub const PLUS: u32 = 0xE000;
    /// Added for an id without `+` (its plain letter is itself only when undressed).
    const BARE: u32 = 0x80;
    /// The dressings after the letter, in code order (`'` is 1, `!` is 2), at 0x100 apart.
    const DRESS: [char; 2] = ['\'', '!'];

    /// The id of `letter` (any case) with a dressing (`None`, `'`, `!`) and `+` or not; None
    /// for anything else.
    pub fn make(letter: char, dress: Option<char>, plus: bool) -> Option<char> {
        let letter = letter.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return None;
        }
        let d = match dress {
            None => 0,
            Some(c) => 1 + DRESS.iter().position(|&x| x == c)? as u32,
        };
        if d == 0 && !plus {
            return Some(letter);
        }
        char::from_u32(PLUS + d * 0x100 + if plus { 0 } else { BARE } + letter as u32)
    }

    /// An id's parts: its letter, its dressing and whether it has `+`; None for a non-id.
    pub fn parts(id: char) -> Option<(char, Option<char>, bool)> {
        if id.is_ascii_uppercase() {
            return Some((id, None, false));
        }
        let n = (id as u32).checked_sub(PLUS)?;
        let (d, plus, letter) = (n >> 8, n & BARE == 0, char::from_u32(n & 0x7F)?);
        if d as usize > DRESS.len() || !letter.is_ascii_uppercase() || (d == 0 && !plus) {
            return None;
        }
        Some((letter, d.checked_sub(1).map(|d| DRESS[d as usize]), plus))
    }

    /// The id `+X` for the id X (`+D` for D, `+A'` for A'); a letter may be of either case.
    pub fn plus(id: char) -> char {
        let (l, d, _) = parts(id.to_ascii_uppercase()).expect("a piece id");
        make(l, d, true).expect("private use area")
    }

    /// X for the id `+X`; None for an id without `+`.
    pub fn base(id: char) -> Option<char> {
        match parts(id)? {
            (l, d, true) => make(l, d, false),
            _ => None,
        }
    }

    /// Whether `id` is an id: an upper-case letter, dressed or not, with `+` or not.
    pub fn is_id(id: char) -> bool {
        parts(id).is_some()
    }

    /// The id as text: `D`, `+D`, `A'`, `+L!`.
    pub fn show(id: char) -> String {
        cased(Side::White, id)
    }

    /// The id in FEN case: upper case White, lower case Black (`+d`, `a'`).
    pub fn cased(side: Side, id: char) -> String {
        match parts(id) {
            Some((l, d, plus)) => {
                let mut s = String::new();
                if plus {
                    s.push('+');
                }
                s.push(side.cased(l));
                s.extend(d);
                s
            }
            None => id.to_string(),
        }
    }

    /// Reads one id at the start of `text`, letters of either case: `d`, `A'`, `+l!`. Returns the
    /// id, whether its letter is lower case, and the bytes read; None when no id starts there.
    pub fn read(text: &str) -> Option<(char, bool, usize)> {
        let (plus, rest) = match text.strip_prefix('+') {
            Some(r) => (true, r),
            None => (false, text),
        };
        let mut chars = rest.chars();
        let l = chars.next().filter(char::is_ascii_alphabetic)?;
        let d = chars.next().filter(|c| DRESS.contains(c));
        let id = make(l, d, plus)?;
        Some((
            id,
            l.is_ascii_lowercase(),
            usize::from(plus) + 1 + usize::from(d.is_some()),
        ))
    }

    /// Reads a whole text as exactly one id (`A'`, `+d`); None otherwise.
    pub fn read_all(text: &str) -> Option<(char, bool)> {
        read(text)
            .filter(|&(_, _, n)| n == text.len())
            .map(|(id, lower, _)| (id, lower))
    }

    /// The length of an id as text: `D` 1, `+D` and `A'` 2, `+A'` 3.
    pub fn text_len(id: char) -> usize {
        match parts(id) {
            Some((_, d, plus)) => 1 + usize::from(plus) + usize::from(d.is_some()),
            None => 1,
        }
    }

    /// Splits a list of ids (`PI`, `+D+HN`, `A'L!`) into ids, each with its byte offset; a
    /// character that starts no id is returned as itself. Err names the byte offset of a `+`
    /// that no letter follows.
    pub fn split(text: &str) -> Result<Vec<(usize, char)>, usize> {
        let mut out = Vec::new();
        let mut i = 0;
        while let Some(c) = text[i..].chars().next() {
            match read(&text[i..]) {
                Some((id, false, n)) => {
                    out.push((i, id));
                    i += n;
                }
                _ if c == '+' => return Err(i),
                _ => {
                    out.push((i, c));
                    i += c.len_utf8();
                }
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

    #[test]
    fn dressed_ids_read_and_write_as_hachu_writes_them() {
        let boar = id::make('A', Some('\''), false).unwrap();
        let lion = id::make('L', Some('!'), false).unwrap();
        let whale = id::plus(boar);
        assert_eq!((id::show(boar), id::show(lion)), ("A'".into(), "L!".into()));
        assert_eq!(
            (id::show(whale), id::cased(Side::Black, whale)),
            ("+A'".into(), "+a'".into())
        );
        assert_eq!(id::base(whale), Some(boar));
        assert_eq!(id::base(boar), None);
        assert_eq!(id::plus('d'), id::plus('D'));
        assert_eq!(id::read("a'b"), Some((boar, true, 2)));
        assert_eq!(id::read("+L!"), Some((id::plus(lion), false, 3)));
        assert_eq!(id::read_all("L!"), Some((lion, false)));
        assert_eq!(id::read_all("L!x"), None);
        assert_eq!(
            id::split("A'PL!+A'"),
            Ok(vec![(0, boar), (2, 'P'), (3, lion), (5, whale)])
        );
        assert_eq!(id::split("p'"), Ok(vec![(0, 'p'), (1, '\'')]));
        for (i, text) in ["A", "+A", "A'", "+A'", "A!", "+A!", "Z!"]
            .iter()
            .enumerate()
        {
            let (id, _) = id::read_all(text).unwrap();
            assert!(id::is_id(id), "{text}");
            assert_eq!(
                (id::show(id), id::text_len(id)),
                (text.to_string(), text.len()),
                "{i}"
            );
        }
        assert!(
            !id::is_id('a') && !id::is_id(char::from_u32(id::PLUS + 0x80 + 'A' as u32).unwrap())
        );
    }
}
