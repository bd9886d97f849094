//! Zobrist keys computed on the fly by a 64-bit mixer: no tables to keep in cache, same keys on
//! every run.

#[inline]
const fn mix(mut z: u64) -> u64 {
    // splitmix64's finaliser
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[inline]
pub fn piece(piece: crate::piece::Piece, cell: u16) -> u64 {
    mix(((piece.bits() as u64) << 16) | cell as u64)
}

#[inline]
pub fn virgin(cell: u16) -> u64 {
    mix((1 << 40) | cell as u64)
}

#[inline]
pub fn ep(cell: u16) -> u64 {
    mix((2 << 40) | cell as u64)
}

pub const SIDE: u64 = mix(3 << 40);

/// The last move was a counterstrike's cause (`lion-trade`): it restricts the reply.
pub const COUNTERSTRIKE: u64 = mix(7 << 40);

/// The number of checks a side has given (n-check).
#[inline]
pub fn checks(side: usize, n: u8) -> u64 {
    mix((4 << 40) | (side as u64) << 8 | n as u64)
}

/// The `n`-th piece of a kind in a side's hand (a hand of n pieces carries keys 1..=n).
#[inline]
pub fn hand(side: usize, kind: crate::piece::Kind, n: u8) -> u64 {
    mix((5 << 40) | (side as u64) << 16 | (kind.0 as u64) << 8 | n as u64)
}

/// A promoted piece on a cell that was of kind `origin - 1` (0: not promoted, no key): a capture
/// returns it to hand as that kind.
#[inline]
pub fn promoted(cell: u16, origin: u8) -> u64 {
    if origin == 0 {
        0
    } else {
        mix((6 << 40) | (origin as u64) << 16 | cell as u64)
    }
}
