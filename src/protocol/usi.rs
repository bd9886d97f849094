//! USI, the shogi GUIs' dialect of UCI: what differs from UCI is text. Squares are named from the
//! first player's side with files counted from its right (`7g` is acedrex's `c3` on 9x9: file
//! `9 - 2`, rank letter `a` at the far edge), drops are `P*5e`, promotions `+`. Positions come as
//! SFEN: the FEN placement, `b` for the first player (acedrex's White, upper case) or `w`, the
//! hands as counts and letters (`S2Pb`, `-` for none), and the move number. The session is the UCI
//! one (`uci.rs`); these functions translate at its edges.

use crate::geometry::{file_of, parse_square, rank_of};
use crate::position::{Move, Position};

/// A USI square for (file, rank) from 0 on a board of `files` x `ranks`.
fn square(files: u8, ranks: u8, cell: u16) -> String {
    let (f, r) = (file_of(cell), rank_of(cell));
    format!("{}{}", files - f, (b'a' + (ranks - 1 - r)) as char)
}

/// Reads a USI square at the start of `text`: (acedrex square name, characters used).
fn read_square(text: &str, files: u8, ranks: u8) -> Option<(String, usize)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let n: u8 = text.get(..digits)?.parse().ok()?;
    let letter = *text.as_bytes().get(digits)?;
    if !(1..=files).contains(&n) || !letter.is_ascii_lowercase() || letter - b'a' >= ranks {
        return None;
    }
    let file = (b'a' + (files - n)) as char;
    let rank = ranks - (letter - b'a');
    Some((format!("{file}{rank}"), digits + 1))
}

/// A move as USI writes it.
pub fn move_text(pos: &Position, m: Move) -> String {
    let t = &pos.game().tables;
    let (files, ranks) = (t.files, t.ranks);
    if let Some(k) = m.dropped() {
        let plus = if m.is_promoted_drop() { "+" } else { "" };
        return format!("{plus}{}*{}", pos.game().id(k), square(files, ranks, m.to));
    }
    let acedrex = pos.move_text(m);
    let mut s = square(files, ranks, m.from) + &square(files, ranks, m.to);
    // The suffix (`+`, or a chosen piece's letter) is acedrex's.
    let squares = crate::geometry::square_name(m.from) + &crate::geometry::square_name(m.to);
    s += &acedrex[squares.len()..];
    s
}

/// The acedrex move text of a USI move (`7g7f`, `8h2b+`, `P*5e`), or `None` when it is no move
/// on this board.
pub fn to_acedrex(text: &str, files: u8, ranks: u8) -> Option<String> {
    if let Some((piece, at)) = text.split_once('*') {
        let (sq, n) = read_square(at, files, ranks)?;
        return (n == at.len()).then(|| format!("{piece}@{sq}"));
    }
    let (from, n1) = read_square(text, files, ranks)?;
    let (to, n2) = read_square(&text[n1..], files, ranks)?;
    let rest = &text[n1 + n2..];
    // The acedrex squares must read back (they always do: checked above).
    parse_square(&from, files, ranks)?;
    Some(format!("{from}{to}{rest}"))
}

/// Why a text is not an SFEN.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    #[error("`{0}` is not an SFEN: expected `PLACEMENT b|w HANDS [MOVE]`")]
    Fields(String),
    #[error("SFEN side `{0}`: expected `b` or `w`")]
    Side(String),
    #[error("SFEN hand count `{0}`: expected 1 to 255")]
    HandCount(String),
    #[error("`{0}` in the SFEN hands: expected counts and piece letters, or `-`")]
    HandChar(char),
    #[error("SFEN move number `{0}`: expected a number")]
    MoveNumber(String),
}

/// An SFEN as the FEN acedrex reads: `placement b|w hands N` to `placement[hands] w|b - - 0 M`.
pub fn sfen_to_fen(sfen: &str) -> Result<String, SfenError> {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let [placement, side, rest @ ..] = fields.as_slice() else {
        return Err(SfenError::Fields(sfen.to_string()));
    };
    let side = match *side {
        "b" => "w",
        "w" => "b",
        s => return Err(SfenError::Side(s.to_string())),
    };
    let mut hand = String::new();
    let hands = rest.first().copied().unwrap_or("-");
    if hands != "-" {
        let mut count = String::new();
        for c in hands.chars() {
            if c.is_ascii_digit() {
                count.push(c);
            } else if c.is_ascii_alphabetic() {
                let n: usize = if count.is_empty() {
                    1
                } else {
                    count
                        .parse()
                        .ok()
                        .filter(|&n| n <= 255)
                        .ok_or_else(|| SfenError::HandCount(count.clone()))?
                };
                hand.extend(std::iter::repeat_n(c, n));
                count.clear();
            } else {
                return Err(SfenError::HandChar(c));
            }
        }
    }
    let ply: u32 = match rest.get(1) {
        None => 1,
        Some(n) => n
            .parse()
            .map_err(|_| SfenError::MoveNumber(n.to_string()))?,
    };
    // USI counts plies from 1; FEN counts full moves.
    let fullmove = ply.max(1).div_ceil(2);
    Ok(format!("{placement}[{hand}] {side} - - 0 {fullmove}"))
}

/// The position as an SFEN.
pub fn sfen(pos: &Position) -> String {
    let setup = pos.setup();
    let fen = setup.fen();
    let placement = fen.split(['[', ' ']).next().unwrap_or("");
    let side = if pos.side_to_move() == crate::side::Side::White {
        "b"
    } else {
        "w"
    };
    let mut hands = String::new();
    for side in crate::side::Side::BOTH {
        let mut letters: Vec<char> = setup
            .hands
            .iter()
            .flatten()
            .filter(|p| p.side == side)
            .map(|p| side.cased(p.letter))
            .collect();
        letters.sort_unstable();
        let mut i = 0;
        while i < letters.len() {
            let n = letters[i..]
                .iter()
                .take_while(|&&c| c == letters[i])
                .count();
            if n > 1 {
                hands += &n.to_string();
            }
            hands.push(letters[i]);
            i += n;
        }
    }
    if hands.is_empty() {
        hands = "-".into();
    }
    let ply = 2 * (setup.fullmove.max(1) - 1) + u32::from(side == "w") + 1;
    format!("{placement} {side} {hands} {ply}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_counted_from_the_first_players_right() {
        assert_eq!(to_acedrex("7g7f", 9, 9).as_deref(), Some("c3c4"));
        assert_eq!(to_acedrex("8h2b+", 9, 9).as_deref(), Some("b2h8+"));
        assert_eq!(to_acedrex("P*5e", 9, 9).as_deref(), Some("P@e5"));
        assert_eq!(to_acedrex("5e4d", 5, 5).as_deref(), Some("a1b2"));
        for bad in ["0a1a", "7j7f", "7g", "P*5", "P*5ee", "x"] {
            assert_eq!(to_acedrex(bad, 9, 9), None, "{bad}");
        }
    }

    #[test]
    fn sfen_reads_as_fen() {
        assert_eq!(
            sfen_to_fen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").unwrap(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"
        );
        assert_eq!(
            sfen_to_fen("8l/9/9/9/9/9/9/9/K8 w S2Pb3p 6").unwrap(),
            "8l/9/9/9/9/9/9/9/K8[SPPbppp] b - - 0 3"
        );
        assert!(sfen_to_fen("8l/9 x - 1").is_err());
        assert!(sfen_to_fen("8l/9 b 999P 1").is_err());
    }
}
