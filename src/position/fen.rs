//! FEN in and out. Ranks may hold multi-digit empty runs (`12`); the castling field carries the
//! royal piece's virginity (Grant Acedrex's king leap) and, with castling, the corner pieces'.

use super::*;
use crate::geometry::{cell, parse_square, square_name};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad FEN: {0}")]
pub struct FenError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

impl Position {
    /// The variant's start position.
    pub fn start(game: &Arc<Game>) -> Position {
        Position::from_fen(game, &game.variant.start_fen).expect("validated start FEN")
    }

    /// Reads a FEN. Missing trailing fields default to `w - - 0 1`.
    pub fn from_fen(game: &Arc<Game>, fen: &str) -> Result<Position, FenError> {
        let t = &game.tables;
        let (files, ranks) = (t.files, t.ranks);
        let mut pos = Position {
            game: game.clone(),
            board: [OFF; CELLS],
            virgin: [false; CELLS],
            side: 0,
            ep: 0,
            ep_victim: 0,
            halfmove: 0,
            ply: 0,
            start_fullmove: 1,
            start_side: 0,
            hash: 0,
            plist: [[0; 64]; 2],
            pcount: [0; 2],
            pindex: [0; CELLS],
            counts: [[0; 32]; 2],
            royal: [0; 2],
            history: Vec::new(),
            hashes: Vec::new(),
        };
        for f in 0..files {
            for r in 0..ranks {
                pos.board[cell(f, r) as usize] = EMPTY;
            }
        }
        let mut fields = fen.split_whitespace();
        let Some(placement) = fields.next() else {
            return err("empty FEN");
        };
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != ranks as usize {
            return err(format!(
                "{} ranks in the placement, expected {ranks}",
                rows.len()
            ));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = ranks - 1 - i as u8;
            // Fairy-Max writes `8` for an empty rank of any width.
            if *row == "8" && files > 8 {
                continue;
            }
            let mut file: u32 = 0;
            let mut digits = String::new();
            let flush = |digits: &mut String, file: &mut u32| {
                if !digits.is_empty() {
                    *file += digits.parse::<u32>().unwrap_or(0);
                    digits.clear();
                }
            };
            for c in row.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                flush(&mut digits, &mut file);
                let Some(ty) = game
                    .variant
                    .piece_index(c)
                    .filter(|_| c.is_ascii_alphabetic())
                else {
                    return err(format!("unknown piece letter `{c}` in rank {}", rank + 1));
                };
                if file >= files as u32 {
                    return err(format!("rank {} is wider than {files} files", rank + 1));
                }
                let side = u8::from(c.is_ascii_lowercase());
                if pos.pcount[side as usize] as usize >= 63 {
                    return err("too many pieces");
                }
                pos.put(cell(file as u8, rank), code(side, ty as u8));
                file += 1;
            }
            flush(&mut digits, &mut file);
            if file != files as u32 {
                return err(format!(
                    "rank {} has {file} squares, expected {files}",
                    rank + 1
                ));
            }
        }
        pos.side = match fields.next().unwrap_or("w") {
            "w" => 0,
            "b" => 1,
            s => return err(format!("side to move `{s}`, expected w or b")),
        };
        pos.start_side = pos.side;
        let rights = fields.next().unwrap_or("-");
        if rights != "-" && !rights.chars().all(|c| "KQkq".contains(c)) {
            return err(format!(
                "castling/rights field `{rights}`, expected - or letters from KQkq"
            ));
        }
        let ep = fields.next().unwrap_or("-");
        pos.halfmove = match fields.next().map(str::parse::<u16>) {
            None => 0,
            Some(Ok(n)) => n,
            Some(Err(_)) => return err("halfmove clock is not a number"),
        };
        pos.start_fullmove = match fields.next().map(str::parse::<u32>) {
            None => 1,
            Some(Ok(n)) => n.max(1),
            Some(Err(_)) => return err("fullmove number is not a number"),
        };
        if fields.next().is_some() {
            return err("extra fields after the fullmove number");
        }
        // Royal pieces: exactly one per side (none in a variant without royal pieces).
        let has_royal = t.pieces.iter().any(|p| p.royal);
        for side in 0..2u8.min(if has_royal { 2 } else { 0 }) {
            let royals: Vec<u16> = pos
                .pieces(side)
                .iter()
                .copied()
                .filter(|&c| t.pieces[(pos.board[c as usize] & TYPE_MASK) as usize].royal)
                .collect();
            if royals.len() != 1 {
                let who = if side == 0 { "White" } else { "Black" };
                return err(format!(
                    "{who} has {} royal pieces, expected exactly 1",
                    royals.len()
                ));
            }
            pos.royal[side as usize] = royals[0];
        }
        pos.set_virginity(rights);
        if ep != "-" {
            let Some((sq, _)) = parse_square(ep, files, ranks).filter(|&(_, n)| n == ep.len())
            else {
                return err(format!("en-passant square `{ep}` is not a square"));
            };
            // The victim stands one step beyond the e.p. square, seen from the side that moved.
            let victim = if pos.side == 0 {
                sq - crate::geometry::STRIDE as u16
            } else {
                sq + crate::geometry::STRIDE as u16
            };
            if t.en_passant
                && pos.board[sq as usize] == EMPTY
                && pos.board[victim as usize] & enemy_bit(pos.side) != 0
            {
                pos.ep = sq;
                pos.ep_victim = victim;
            }
        }
        pos.hash = pos.fresh_hash();
        Ok(pos)
    }

    /// Virginity from the rights field and the start position (xbetza.md §2.7: a piece that stands where
    /// its kind started is taken as unmoved; royal pieces and castling partners follow the rights field).
    fn set_virginity(&mut self, rights: &str) {
        let game = self.game.clone();
        let t = &game.tables;
        let start = Position::placement_only(&game);
        for side in 0..2u8 {
            let (king_letter, queen_letter) = if side == 0 { ('K', 'Q') } else { ('k', 'q') };
            let any_right = rights.contains(king_letter) || rights.contains(queen_letter);
            let pieces: Vec<u16> = self.pieces(side).to_vec();
            let back_rank = if side == 0 { 0 } else { t.ranks - 1 };
            for c in pieces {
                let code = self.board[c as usize];
                let p = &t.pieces[(code & TYPE_MASK) as usize];
                self.virgin[c as usize] = if p.royal {
                    any_right
                } else if t.castling && p.rights && crate::geometry::rank_of(c) == back_rank {
                    let f = crate::geometry::file_of(c);
                    (f == t.files - 1 && rights.contains(king_letter))
                        || (f == 0 && rights.contains(queen_letter))
                } else {
                    start.get(&c) == Some(&code)
                };
            }
        }
    }

    /// Cell → piece code of the variant's start placement.
    fn placement_only(game: &Arc<Game>) -> std::collections::HashMap<u16, u8> {
        let mut out = std::collections::HashMap::new();
        let t = &game.tables;
        let placement = game
            .variant
            .start_fen
            .split_whitespace()
            .next()
            .unwrap_or("");
        for (i, row) in placement.split('/').enumerate() {
            let rank = t.ranks.wrapping_sub(1 + i as u8);
            let mut file: u32 = 0;
            let mut digits = String::new();
            for c in row.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                file += digits.parse::<u32>().unwrap_or(0);
                digits.clear();
                if let Some(ty) = game.variant.piece_index(c) {
                    let side = u8::from(c.is_ascii_lowercase());
                    out.insert(cell(file as u8, rank), code(side, ty as u8));
                }
                file += 1;
            }
        }
        out
    }

    /// Writes the position as FEN.
    pub fn fen(&self) -> String {
        let t = &self.game.tables;
        let mut s = String::new();
        for r in (0..t.ranks).rev() {
            let mut empty = 0;
            for f in 0..t.files {
                let c = self.board[cell(f, r) as usize];
                if c == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                let l = t.pieces[(c & TYPE_MASK) as usize].letter;
                s.push(if color_of(c) == 0 {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if r > 0 {
                s.push('/');
            }
        }
        s += if self.side == 0 { " w " } else { " b " };
        s += &self.rights_field();
        s.push(' ');
        s += &if self.ep != 0 {
            square_name(self.ep)
        } else {
            "-".into()
        };
        s += &format!(" {} {}", self.halfmove, self.fullmove());
        s
    }

    pub fn fullmove(&self) -> u32 {
        self.start_fullmove + (self.ply + self.start_side as u32) / 2
    }

    fn rights_field(&self) -> String {
        let t = &self.game.tables;
        let mut out = String::new();
        for side in 0..2u8 {
            let king = self.royal[side as usize];
            if !self.virgin[king as usize]
                || !t.pieces[(self.board[king as usize] & TYPE_MASK) as usize].rights
            {
                continue;
            }
            let back_rank = if side == 0 { 0 } else { t.ranks - 1 };
            let case = |c: char| if side == 0 { c } else { c.to_ascii_lowercase() };
            if t.castling {
                for (f, l) in [(t.files - 1, 'K'), (0, 'Q')] {
                    let c = cell(f, back_rank);
                    if self.virgin[c as usize] && self.board[c as usize] & own_bit(side) != 0 {
                        out.push(case(l));
                    }
                }
            } else {
                out.push(case('K'));
            }
        }
        if out.is_empty() { "-".into() } else { out }
    }
}
