//! The padded mailbox: board squares as cells of a 46×46 array with a 15-cell guard band, so that
//! any step of up to 15 squares each way (the longest that fits a 16×16 board) from a board square
//! lands on a guard cell or the board, never off the array nor on another row. Boards up to 16×16
//! fit; 12×12 is the flagship.

/// Largest board side.
pub const MAX_SIDE: u8 = 16;
/// Guard cells on each side.
pub const PAD: i16 = MAX_SIDE as i16 - 1;
/// Cells per row of the mailbox.
pub const STRIDE: i16 = MAX_SIDE as i16 + 2 * PAD;
/// Total cells.
pub const CELLS: usize = (STRIDE * STRIDE) as usize;

/// The cell of a board square (file and rank from 0).
#[inline]
pub const fn cell(file: u8, rank: u8) -> u16 {
    ((rank as i16 + PAD) * STRIDE + file as i16 + PAD) as u16
}

/// File of a cell (from 0). Only meaningful on board cells.
#[inline]
pub const fn file_of(cell: u16) -> u8 {
    ((cell as i16 % STRIDE) - PAD) as u8
}

/// Rank of a cell (from 0). Only meaningful on board cells.
#[inline]
pub const fn rank_of(cell: u16) -> u8 {
    ((cell as i16 / STRIDE) - PAD) as u8
}

/// The cell offset of a (dx, dy) step.
#[inline]
pub const fn offset(dx: i8, dy: i8) -> i16 {
    dx as i16 + dy as i16 * STRIDE
}

/// The (dx, dy) of a cell difference between two board cells.
pub fn delta(from: u16, to: u16) -> (i8, i8) {
    (
        file_of(to) as i8 - file_of(from) as i8,
        rank_of(to) as i8 - rank_of(from) as i8,
    )
}

/// The board square index (rank × 16 + file, 0..256) of a board cell: a compact form for tables.
#[inline]
pub const fn square_index(cell: u16) -> u8 {
    rank_of(cell) * MAX_SIDE + file_of(cell)
}

/// The cell of a board square index.
#[inline]
pub const fn cell_of_index(index: u8) -> u16 {
    cell(index % MAX_SIDE, index / MAX_SIDE)
}

/// `a1`, `l12`, `p16`.
pub fn square_name(cell: u16) -> String {
    format!("{}{}", (b'a' + file_of(cell)) as char, rank_of(cell) + 1)
}

/// Parses a square name on a board of the given size; returns the cell and the bytes read.
pub fn parse_square(text: &str, files: u8, ranks: u8) -> Option<(u16, usize)> {
    let b = text.as_bytes();
    let f = b.first()?.wrapping_sub(b'a');
    if f >= files {
        return None;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || b[1] == b'0' {
        return None;
    }
    let r: u8 = text[1..1 + digits].parse().ok()?;
    if r == 0 || r > ranks {
        return None;
    }
    Some((cell(f, r - 1), 1 + digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        for f in 0..MAX_SIDE {
            for r in 0..MAX_SIDE {
                let c = cell(f, r);
                assert_eq!((file_of(c), rank_of(c)), (f, r));
                assert_eq!(
                    parse_square(&square_name(c), 16, 16),
                    Some((c, square_name(c).len()))
                );
            }
        }
        assert_eq!(parse_square("a13", 12, 12), None);
        assert_eq!(parse_square("m1", 12, 12), None);
        assert_eq!(parse_square("a0", 12, 12), None);
    }
}
