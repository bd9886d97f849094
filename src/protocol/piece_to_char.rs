//! XBoard's piece-to-char table for a variant: which of XBoard's piece slots (and so which image)
//! each letter takes. One table serves both ways XBoard learns an acedrex variant, the `setup`
//! line of `acedrex xboard` and the `Game:` line of an exported `fmax.ini`, so that the GUI shows
//! the same pictures whichever engine defines the variant.

use crate::betza::Betza;
use crate::variant::Variant;

/// XBoard's piece slots (enum ChessSquare of XBoard 4.9) that are named here.
pub mod slot {
    pub const PAWN: usize = 0;
    pub const KNIGHT: usize = 1;
    pub const BISHOP: usize = 2;
    pub const ROOK: usize = 3;
    pub const QUEEN: usize = 4;
    /// Slots before the King in XBoard 4.9.
    pub const COUNT: usize = 43;
}

/// Slots whose image shows a move, by the piece's canonical Betza: the orthodox pieces, then
/// Ferz, Alfil, Archbishop, Chancellor, Wazir and Man.
const IMAGES: &[(&str, usize)] = &[
    ("N", slot::KNIGHT),
    ("B", slot::BISHOP),
    ("R", slot::ROOK),
    ("Q", slot::QUEEN),
    ("F", 5),
    ("A", 6),
    ("BN", 7),
    ("RN", 8),
    ("W", 9),
    ("K", 10),
];

/// Fairy slots by piece name, so that XBoard shows a fitting picture; the Grant Acedrex ones are
/// the slots Fairy-Max's fmax.ini uses for grande-acedrex.
const NAMED: &[(&str, usize)] = &[
    ("aanca", 17),
    ("griffon", 17),
    ("gryphon", 17),
    ("unicorn", 20),
    ("rhinoceros", 20),
    ("giraffe", 23),
    ("lion", 32),
    ("ferz", 5),
    ("met", 5),
    ("alfil", 6),
    ("elephant", 6),
    ("archbishop", 7),
    ("cardinal", 7),
    ("chancellor", 8),
    ("marshall", 8),
    ("wazir", 9),
    ("mann", 10),
    ("commoner", 10),
    ("cannon", 11),
    ("nightrider", 12),
];

/// XBoard's default letters for its first slots: a piece with one of these letters keeps the
/// slot XBoard itself gives that letter.
const DEFAULT_LETTERS: &str = "PNBRQFEACWMOHIJGDVLSU";

/// Other slots, in order of preference. XBoard's Lion (21) is left out: it has Chu Shogi rules.
const FREE: &[usize] = &[
    17, 20, 23, 32, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 18, 19, 26, 27, 28, 29, 33, 34, 35, 36,
    37, 38, 39, 40, 41,
];

/// A variant's piece-to-char table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceToChar {
    /// XBoard's slot of each piece of the variant (by index); `None` for the King (see `king`)
    /// and for a piece left without a slot when the slots run out.
    pub slot_of: Vec<Option<usize>>,
    /// The piece in the King slot: the first royal piece.
    pub king: Option<usize>,
    /// The table as XBoard reads it: White's letters in slot order with `.` for unused slots and
    /// the King last, then the same in lower case for Black.
    pub table: String,
}

fn same_betza(b: &Betza, text: &str) -> bool {
    crate::betza::parse(text).is_ok_and(|n| n.to_string() == b.to_string())
}

impl PieceToChar {
    /// The royal piece takes the King slot and the first pawn the Pawn slot; every other piece
    /// takes the first free one of: the slot whose image shows its move, the slot for its name, the
    /// slot XBoard gives its letter, a free fairy slot.
    pub fn of(v: &Variant) -> PieceToChar {
        let mut slots: Vec<Option<usize>> = vec![None; slot::COUNT];
        let mut slot_of: Vec<Option<usize>> = vec![None; v.pieces.len()];
        let king = v.pieces.iter().position(|p| p.royal);
        let pawn = v
            .promotion
            .pawns
            .iter()
            .find_map(|&l| v.piece_index(l))
            .filter(|&i| Some(i) != king);
        if let Some(i) = pawn {
            slots[slot::PAWN] = Some(i);
            slot_of[i] = Some(slot::PAWN);
        }
        let todo: Vec<usize> = (0..v.pieces.len())
            .filter(|&i| Some(i) != king && Some(i) != pawn)
            .collect();
        let choices: [&dyn Fn(usize) -> Option<usize>; 4] = [
            &|i| {
                IMAGES
                    .iter()
                    .find(|&&(b, _)| same_betza(&v.pieces[i].betza, b))
                    .map(|&(_, s)| s)
            },
            &|i| {
                let name = v.pieces[i].name.to_ascii_lowercase();
                NAMED.iter().find(|&&(n, _)| n == name).map(|&(_, s)| s)
            },
            &|i| {
                DEFAULT_LETTERS
                    .find(v.pieces[i].letter)
                    .filter(|&s| s != slot::PAWN)
            },
            &|_| None,
        ];
        // Each rule in turn for every piece still without a slot, so that a piece's fitting image
        // is not taken by a piece that merely has the letter.
        for choose in choices {
            for &i in &todo {
                if slot_of[i].is_some() {
                    continue;
                }
                if let Some(s) = choose(i).filter(|&s| slots[s].is_none()) {
                    slots[s] = Some(i);
                    slot_of[i] = Some(s);
                }
            }
        }
        for &i in &todo {
            if slot_of[i].is_none()
                && let Some(s) = FREE.iter().copied().find(|&s| slots[s].is_none())
            {
                slots[s] = Some(i);
                slot_of[i] = Some(s);
            }
        }
        // XBoard wants at least 5 slots before the King (a 12-character table).
        let used = slots
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |s| s + 1)
            .max(5);
        let letter = |s: &Option<usize>| s.map_or('.', |i| v.pieces[i].letter);
        let white: String = slots[..used]
            .iter()
            .map(letter)
            .chain([king.map_or('.', |i| v.pieces[i].letter)])
            .collect();
        let table = format!("{white}{}", white.to_ascii_lowercase());
        PieceToChar {
            slot_of,
            king,
            table,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grande_acedrex_gets_fairy_maxs_table() {
        let v = crate::variant::builtin("grant-acedrex").unwrap();
        assert_eq!(
            PieceToChar::of(&v).table,
            "P.CR.............A..U..G........LKp.cr.............a..u..g........lk"
        );
    }

    #[test]
    fn chess_keeps_xboards_own_slots() {
        let v = crate::variant::builtin("chess").unwrap();
        assert_eq!(PieceToChar::of(&v).table, "PNBRQKpnbrqk");
    }
}
