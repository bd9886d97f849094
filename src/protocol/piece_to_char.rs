//! XBoard's piece-to-char table for a variant: which of XBoard's piece slots (and so which image)
//! each letter takes. One table serves both ways XBoard learns an acedrex variant, the `setup`
//! line of `acedrex xboard` and the `Game:` line of an exported `fmax.ini`, so that the GUI shows
//! the same pictures whichever engine defines the variant.

use crate::betza::Betza;
use crate::piece::id;
use crate::variant::Variant;

/// XBoard's piece slots (enum ChessSquare of XBoard 4.9) that are named here.
pub mod slot {
    pub const PAWN: usize = 0;
    pub const KNIGHT: usize = 1;
    pub const BISHOP: usize = 2;
    pub const ROOK: usize = 3;
    pub const QUEEN: usize = 4;
    /// Slots before the King in XBoard 4.9.
    pub const COUNT: usize = 63;
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
/// Slots from 43 on exist from XBoard 4.9 (its `chu` and the large shogis need them).
const FREE: &[usize] = &[
    17, 20, 23, 32, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 18, 19, 26, 27, 28, 29, 33, 34, 35, 36,
    37, 38, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61,
    62,
];

/// A shogi-style promoted form XBoard needs a slot for although it is no kind of the variant: the
/// variant promotes `from` to a kind of its own (Wa Shogi's running rabbit becomes a treacherous
/// fox), while XBoard shows the piece as `+` and `from`'s id, moving like `like`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromotedSlot {
    pub slot: usize,
    pub from: usize,
    pub like: usize,
}

/// A variant's piece-to-char table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceToChar {
    /// XBoard's slot of each piece of the variant (by index); `None` for the King (see `king`)
    /// and for a piece left without a slot when the slots run out.
    pub slot_of: Vec<Option<usize>>,
    /// The promoted forms that are not kinds of the variant (shogi-style promotion only).
    pub promoted: Vec<PromotedSlot>,
    /// The piece in the King slot: the first royal piece.
    pub king: Option<usize>,
    /// The table as XBoard reads it: White's ids in slot order with `.` for unused slots and
    /// the King last, then the same in lower case for Black. With shogi-style promotion a
    /// promoted form is written `^` and the id it promotes from.
    pub table: String,
}

fn same_betza(b: &Betza, text: &str) -> bool {
    crate::betza::parse(text).is_ok_and(|n| n.to_string() == b.to_string())
}

impl PieceToChar {
    /// The royal piece takes the King slot and the first pawn the Pawn slot; every other piece
    /// takes the first free one of: the slot whose image shows its move, the slot for its name, the
    /// slot XBoard gives its letter, a free fairy slot. With shogi-style promotion (`promotes`)
    /// each promoted form gets a slot too.
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
        // Under `chu` XBoard's Pawn slot holds the shogi pawn: a `P` may take it.
        let shogi_like = v.xboard_parent == "chu";
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
                    .filter(|&s| s != slot::PAWN || shogi_like)
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
        let mut free = FREE.iter().copied().filter(|&s| s < slot::COUNT);
        for &i in &todo {
            if slot_of[i].is_none()
                && let Some(s) = free.by_ref().find(|&s| slots[s].is_none())
            {
                slots[s] = Some(i);
                slot_of[i] = Some(s);
            }
        }
        let mut promoted = Vec::new();
        if shogi_like {
            for (from, p) in v.pieces.iter().enumerate() {
                let Some(like) = p.promotes.and_then(|l| v.piece_index(l)) else {
                    continue;
                };
                if id::base(v.pieces[like].letter) != Some(p.letter)
                    && let Some(slot) = free.by_ref().find(|&s| slots[s].is_none())
                {
                    promoted.push(PromotedSlot { slot, from, like });
                }
            }
        }
        let mut ids: Vec<String> = slots
            .iter()
            .map(|s| match s {
                None => ".".to_string(),
                // Under `chu` a kind that exists only as a promoted form (`+D`) is `^D`.
                Some(i) => match id::base(v.pieces[*i].letter).filter(|_| shogi_like) {
                    Some(base) => format!("^{}", id::show(base)),
                    None => id::show(v.pieces[*i].letter),
                },
            })
            .collect();
        for p in &promoted {
            ids[p.slot] = format!("^{}", id::show(v.pieces[p.from].letter));
        }
        // XBoard wants at least 5 slots before the King (a 12-character table).
        let used = ids
            .iter()
            .rposition(|s| s != ".")
            .map_or(0, |s| s + 1)
            .max(5);
        ids.truncate(used);
        ids.push(king.map_or(".".to_string(), |i| id::show(v.pieces[i].letter)));
        let white = ids.concat();
        let table = format!("{white}{}", white.to_ascii_lowercase());
        PieceToChar {
            slot_of,
            promoted,
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

    #[test]
    fn shogi_style_promoted_forms_get_slots_under_chu() {
        // Wa Shogi: promoted-only kinds (`+F`) are `^F`; the running rabbit promotes to the
        // treacherous fox, a kind of its own, so XBoard's `+R` gets a slot that moves like it.
        let v = crate::variant::builtin("wa-shogi").unwrap();
        assert_eq!(v.xboard_parent, "chu");
        let t = PieceToChar::of(&v);
        let white = t.table.split_at(t.table.len() / 2).0;
        for id in ["^F", "^S", "^R", "^G", "^P", "X", "R"] {
            assert!(white.contains(id), "{id} in {white}");
        }
        let r = v.pieces.iter().position(|p| p.letter == 'R').unwrap();
        let x = v.pieces.iter().position(|p| p.letter == 'X').unwrap();
        assert!(t.promoted.iter().any(|p| p.from == r && p.like == x));
        // Dai: dressed ids stand in the table as they are written.
        let v = crate::variant::builtin("dai").unwrap();
        let t = PieceToChar::of(&v);
        for id in ["L!", "A'", "^D", "l!", "a'", "^d"] {
            assert!(t.table.contains(id), "{id} in {}", t.table);
        }
    }
}
