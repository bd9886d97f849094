//! What one Betza string does from one square of an otherwise empty board: the designer's quick
//! check behind `acedrex piece`, and the harness of the notation's test vectors.

use crate::betza;
use crate::game::Game;
use crate::geometry::{file_of, parse_square, rank_of, square_name};
use crate::position::Position;
use crate::variant::{BareKing, CastlingRules, EndRules, Outcome, PieceDef, Promotion, PromotionTarget, Variant};

/// A board to try a piece on.
#[derive(Debug, Clone)]
pub struct Probe {
    pub files: u8,
    pub ranks: u8,
    pub at: String,
    pub friends: Vec<String>,
    pub enemies: Vec<String>,
    /// The piece is Black (moves towards rank 1).
    pub black: bool,
    /// The piece has moved (initial moves are gone).
    pub moved: bool,
}

/// One destination: the square and whether the move captures there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Destination {
    pub cell: u16,
    pub capture: bool,
}

impl Destination {
    pub fn name(self) -> String {
        square_name(self.cell) + if self.capture { "x" } else { "" }
    }
}

/// A variant with the piece `X` plus inert friends and enemies `O`, no royal piece.
fn probe_variant(betza_text: &str, files: u8, ranks: u8) -> Result<Variant, String> {
    let betza = betza::parse(betza_text).map_err(|e| format!("{betza_text}: {e}"))?;
    let piece = |letter: char, name: &str, text: &str, b: betza::Betza| PieceDef {
        letter,
        name: name.into(),
        betza_text: text.into(),
        betza: b,
        royal: false,
        value: None,
    };
    let inert = betza::parse("mW").expect("valid");
    Ok(Variant {
        name: "probe".into(),
        aliases: vec![],
        xboard_name: "probe".into(),
        xboard_parent: "fairy".into(),
        description: String::new(),
        files,
        ranks,
        pieces: vec![piece('X', "piece", betza_text, betza), piece('O', "other", "mW", inert)],
        start_fen: vec![files.to_string(); ranks as usize].join("/") + " w - - 0 1",
        promotion: Promotion { pawns: vec![], zone: 1, to: PromotionTarget::Choice(vec![]) },
        castling: CastlingRules::default(),
        royal_initial_moves_safe: false,
        end: EndRules { stalemated: Outcome::Draw, bare_king: BareKing::Off, repetition: None, move_count: None },
        dice: None,
    })
}

/// Destinations of `betza_text` on the probe board, sorted by file then rank.
pub fn destinations(betza_text: &str, probe: &Probe) -> Result<Vec<Destination>, String> {
    let game = Game::new(probe_variant(betza_text, probe.files, probe.ranks)?)?;
    let square = |s: &str| {
        parse_square(s, probe.files, probe.ranks)
            .filter(|&(_, n)| n == s.len())
            .map(|(c, _)| c)
            .ok_or_else(|| format!("`{s}` is not a square of a {}x{} board", probe.files, probe.ranks))
    };
    let at = square(&probe.at)?;
    let side = u8::from(probe.black);
    let mut board = vec![vec![None; probe.files as usize]; probe.ranks as usize];
    let mut place = |c: u16, ch: char| board[rank_of(c) as usize][file_of(c) as usize] = Some(ch);
    place(at, if probe.black { 'x' } else { 'X' });
    for f in &probe.friends {
        place(square(f)?, if probe.black { 'o' } else { 'O' });
    }
    for e in &probe.enemies {
        place(square(e)?, if probe.black { 'O' } else { 'o' });
    }
    let rows: Vec<String> = board
        .iter()
        .rev()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for sq in row {
                match sq {
                    None => empty += 1,
                    Some(ch) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(*ch);
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            s
        })
        .collect();
    let fen = format!("{} {} - - 0 1", rows.join("/"), if probe.black { "b" } else { "w" });
    let mut pos = Position::from_fen(&game, &fen).map_err(|e| e.to_string())?;
    if probe.moved {
        pos.virgin = [false; crate::geometry::CELLS];
    } else {
        pos.virgin[at as usize] = true;
    }
    let mut moves = Vec::new();
    pos.piece_moves(at, &mut moves);
    let mut out: Vec<Destination> = moves
        .iter()
        .map(|m| Destination { cell: m.to, capture: pos.at(m.to) & crate::position::enemy_bit(side) != 0 || m.kind() == crate::position::Move::EN_PASSANT })
        .collect();
    out.sort_by_key(|d| (file_of(d.cell), rank_of(d.cell), d.capture));
    out.dedup();
    Ok(out)
}

/// The `--list` line: `c5x d5 e1 ...`.
pub fn list_line(dests: &[Destination]) -> String {
    dests.iter().map(|d| d.name()).collect::<Vec<_>>().join(" ")
}

