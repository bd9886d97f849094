//! The board as terminal text: file letters and rank numbers on all four sides, pieces by letter
//! (White upper case), the last move and a king in check marked. With colour, ANSI 256-colour
//! backgrounds; without, brackets, so the marks survive `NO_COLOR`, pipes and screen readers.

use crate::geometry::cell;
use crate::position::{Position, Side};

/// How to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Style {
    /// ANSI colours.
    pub color: bool,
    /// Black at the bottom.
    pub flipped: bool,
}

const RESET: &str = "\x1b[0m";
// 256-colour palette indices: tan and brown squares, olive for the last move, red for check.
const LIGHT: u8 = 180;
const DARK: u8 = 137;
const LAST_LIGHT: u8 = 186;
const LAST_DARK: u8 = 143;
const CHECK: u8 = 167;

/// The board of `pos` as text lines (each ending in `\n`).
pub fn render(pos: &Position, style: Style) -> String {
    let t = &pos.game().tables;
    let (files, ranks) = (t.files, t.ranks);
    let last = pos.last_move().filter(|m| m.from != m.to || m.is_drop());
    let checked = if pos.in_check() {
        Some(pos.royal_square(pos.side_to_move()))
    } else {
        None
    };
    let file_order: Vec<u8> = if style.flipped {
        (0..files).rev().collect()
    } else {
        (0..files).collect()
    };
    let rank_order: Vec<u8> = if style.flipped {
        (0..ranks).collect()
    } else {
        (0..ranks).rev().collect()
    };
    let letters: String = file_order
        .iter()
        .map(|&f| format!(" {} ", (b'a' + f) as char))
        .collect();
    let edge = format!("    {}\n", letters.trim_end());
    let mut out = edge.clone();
    for &r in &rank_order {
        out += &format!("{:>3} ", r + 1);
        for &f in &file_order {
            let c = cell(f, r);
            let code = pos.at(c);
            let piece = code.is_piece().then(|| pos.game().piece_char(code));
            let is_last = last.is_some_and(|m| m.from == c || m.to == c);
            let is_check = checked == Some(c);
            if style.color {
                let light = (f + r) % 2 == 1;
                let bg = match (is_check, is_last, light) {
                    (true, _, _) => CHECK,
                    (_, true, true) => LAST_LIGHT,
                    (_, true, false) => LAST_DARK,
                    (_, false, true) => LIGHT,
                    (_, false, false) => DARK,
                };
                let fg = if code.is(Side::White) { 231 } else { 16 };
                // Three columns a square: ` D ` or `+D `.
                out += &format!(
                    "\x1b[48;5;{bg}m\x1b[1;38;5;{fg}m{:>2} {RESET}",
                    piece.unwrap_or_default()
                );
            } else {
                let (l, r) = if is_check {
                    ('!', '!')
                } else if is_last {
                    ('[', ']')
                } else {
                    (' ', ' ')
                };
                // A two-character id (`+D`) takes the left mark's column.
                match piece {
                    Some(p) if p.len() > 1 => out += &p,
                    Some(p) => {
                        out.push(l);
                        out += &p;
                    }
                    None => {
                        out.push(l);
                        out.push('.');
                    }
                }
                out.push(r);
            }
        }
        out += &format!(" {}\n", r + 1);
    }
    out += &edge;
    if t.hand.on {
        out += &format!("    in hand: {}\n", hands(pos));
    }
    if !style.color && (last.is_some() || checked.is_some()) {
        let mut key = Vec::new();
        if last.is_some() {
            key.push("[ ] last move");
        }
        if checked.is_some() {
            key.push("! ! king in check");
        }
        out += &format!("    {}\n", key.join("   "));
    }
    out
}

/// What each side holds, as FEN letters: `White Q N P  Black p p` (`-` for an empty hand).
fn hands(pos: &Position) -> String {
    let game = pos.game();
    let sides: Vec<String> = Side::BOTH
        .iter()
        .map(|&side| {
            let mut held = Vec::new();
            for k in 0..game.tables.pieces.len() {
                let kind = crate::piece::Kind(k as u8);
                for _ in 0..pos.in_hand(side, kind) {
                    held.push(game.piece_char(crate::piece::Piece::new(side, kind)));
                }
            }
            if held.is_empty() {
                held.push("-".into());
            }
            format!("{} {}", side.name(), held.join(" "))
        })
        .collect();
    sides.join("   ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn hands_are_shown_below_the_board() {
        let game = Game::new(crate::variant::builtin("crazyhouse").unwrap());
        let fen = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QPp] w KQkq - 0 1";
        let mut pos = Position::from_fen(&game, fen).unwrap();
        let text = render(&pos, Style::default());
        assert!(text.contains("in hand: White Q P   Black p"), "{text}");
        let m = pos.parse_move("Q@d6").unwrap();
        pos.make(m);
        let text = render(&pos, Style::default());
        assert!(text.contains("in hand: White P   Black p"), "{text}");
        assert!(
            text.contains("[Q]"),
            "the drop square is the last move: {text}"
        );
        let chess = Game::new(crate::variant::builtin("chess").unwrap());
        assert!(!render(&Position::start(&chess), Style::default()).contains("in hand"));
    }

    #[test]
    fn plain_board_marks_last_move() {
        let game = Game::new(crate::variant::builtin("grant-acedrex").unwrap());
        let mut pos = Position::start(&game);
        let m = pos.parse_move("g1g3").unwrap();
        pos.make(m);
        let text = render(&pos, Style::default());
        assert!(
            text.contains("  1  R  L  U  G  C  A [.] C  G  U  L  R  1"),
            "{text}"
        );
        assert!(text.contains("[K]"), "{text}");
        assert!(!text.contains('\x1b'));
        let flipped = render(
            &pos,
            Style {
                flipped: true,
                ..Style::default()
            },
        );
        assert!(flipped.starts_with("     l  k  j"), "{flipped}");
        let colored = render(
            &pos,
            Style {
                color: true,
                flipped: false,
            },
        );
        assert!(colored.contains("\x1b[48;5;"));
    }
}
