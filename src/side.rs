//! The two sides.

use std::ops::Not;

/// White moves first and up the board (towards higher ranks); Black's moves are White's turned by
/// 180°.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Side {
    #[default]
    White = 0,
    Black = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// 0 for White, 1 for Black: the index of per-side arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> Side {
        if i & 1 == 0 { Side::White } else { Side::Black }
    }

    #[inline(always)]
    pub const fn other(self) -> Side {
        Side::from_index(self as usize ^ 1)
    }

    /// +1 for White, −1 for Black: turns a White-positive score into this side's view.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        1 - 2 * self as i32
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    /// `w` or `b`, as FEN writes the side to move.
    pub const fn fen_char(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }

    /// FEN case: White's pieces are upper case, Black's lower case.
    pub fn cased(self, c: char) -> char {
        match self {
            Side::White => c.to_ascii_uppercase(),
            Side::Black => c.to_ascii_lowercase(),
        }
    }

    /// The side a FEN letter belongs to.
    pub fn of_letter(c: char) -> Side {
        if c.is_ascii_lowercase() {
            Side::Black
        } else {
            Side::White
        }
    }

    /// The back rank (0-based) of this side on a board of `ranks` ranks.
    pub const fn home_rank(self, ranks: u8) -> u8 {
        match self {
            Side::White => 0,
            Side::Black => ranks - 1,
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline(always)]
    fn not(self) -> Side {
        self.other()
    }
}
