//! Coordinate move text: `g1g3`, `a11a12`, with the promotion letter as a lower-case suffix
//! (`c11c12u`), as Fairy-Max writes it, or `+` where a piece becomes its promoted form (`b7b8+`,
//! shogi, as XBoard and Fairy-Stockfish write it), or `-` where a promoted piece turns back (Kyoto
//! shogi's `a1a2-`); drops as `P@e4` (the letter upper case for both sides, as
//! XBoard and Fairy-Stockfish write them; either case is read), `+P@e4` for a drop as the promoted form; a move that takes a piece on its
//! way as its legs, `f5g6,g6h7` (XBoard's form; igui, taking without moving, is `f5g6,g6f5`), and
//! one that takes two as three, `f5f6,f6f7,f7f8` (as HaChu writes the Lion Dog's).
//! A pass is written as the passing piece's move to its own square (`f5f5`); XBoard's null move
//! `@@@@`, which HaChu sends for its pass, is read as the position's pass.
//! A gating move carries the gated piece's letter as the suffix (`b1c3h`, as XBoard, Fairy-Max and
//! Fairy-Stockfish write Seirawan moves); castling that gates on the partner's square is written
//! as the partner moving onto the royal piece (`h1e1h`), on the royal's square as castling (`e1g1h`).

use crate::geometry::{parse_square, square_name};
use crate::position::{Move, MoveKind, Position};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("`{0}` is not a move in coordinate notation (expected e.g. g1g3, c11c12u or P@e4)")]
    Syntax(String),
    #[error("`{0}` is not legal here")]
    Illegal(String),
    #[error("`{0}` needs a promotion letter (one of {1})")]
    Ambiguous(String, String),
}

impl Position {
    pub fn move_text(&self, m: Move) -> String {
        if let Some(k) = m.dropped() {
            let plus = if m.is_promoted_drop() { "+" } else { "" };
            return format!("{plus}{}@{}", self.game().id(k), square_name(m.to));
        }
        if let Some(k) = m.gated() {
            let letter = self.game().suffix_id(k);
            if m.gates_partner() {
                return format!("{}{}{letter}", square_name(m.extra()), square_name(m.from));
            }
            let mut plain = self.move_text(Move::new(m.from, m.to, m.kind()).with_extra(m.extra()));
            plain += &letter;
            return plain;
        }
        // Chess960 castling is written as the king taking its own partner (`g1h1`), as
        // Fairy-Stockfish and UCI_Chess960 write it: the king's square alone can be ambiguous.
        let to = if m.kind() == MoveKind::Castle && self.game().tables.castle_any.is_some() {
            m.extra()
        } else {
            m.to
        };
        // A locust move names its legs, as XBoard and HaChu write them: `f5g6,g6h7`, and with
        // two squares taken on the way three legs, `f5f6,f6f7,f7f8` (the Lion Dog's).
        let mut s = square_name(m.from);
        for at in m.locusts() {
            s += &square_name(at);
            s.push(',');
            s += &square_name(at);
        }
        s += &square_name(to);
        if let Some(t) = m.promotion() {
            if self.is_piece_promotion(m) {
                s.push('+');
            } else if self.is_demotion(m) {
                s.push('-');
            } else {
                s += &self.game().suffix_id(t);
            }
        }
        s
    }

    /// Whether `m` promotes the mover to its own promoted form (shogi's `+`), rather than to a
    /// chosen piece (chess).
    pub fn is_piece_promotion(&self, m: Move) -> bool {
        let t = &self.game().tables;
        m.promotion().is_some()
            && !m.is_drop()
            && t.pieces[self.board[m.from as usize].kind().index()].promotes_to == m.promotion()
    }

    /// Whether `m` turns a promoted piece back into what it was (`piece-promotion ... flip`).
    pub fn is_demotion(&self, m: Move) -> bool {
        m.promotion().is_some() && !m.is_drop() && m.promotion() == self.promoted_from(m.from)
    }

    /// Finds the legal move a text names. Without a suffix, a forced promotion is accepted.
    pub fn parse_move(&mut self, text: &str) -> Result<Move, MoveError> {
        let t = &self.game().tables;
        let (files, ranks) = (t.files, t.ranks);
        let syntax = || MoveError::Syntax(text.to_string());
        // XBoard's null move, which HaChu sends for its pass: the position's one pass.
        if text == "@@@@" {
            return self
                .legal_moves()
                .into_iter()
                .find(|m| m.kind() == MoveKind::Pass || m.is_pass_in_place())
                .ok_or_else(|| MoveError::Illegal(text.to_string()));
        }
        if let Some((letter, square)) = text.split_once('@') {
            // `P@e4`, `A'@e4`, `+P@e4` (a piece dropped promoted).
            let (promoted, letter) = match letter.strip_prefix('+') {
                Some(l) => (true, l),
                None => (false, letter),
            };
            let Some((c, _)) = crate::piece::id::read_all(letter) else {
                return Err(syntax());
            };
            let (to, n) = parse_square(square, files, ranks).ok_or_else(syntax)?;
            if n != square.len() {
                return Err(syntax());
            }
            let game = self.game().clone();
            return self
                .legal_moves()
                .into_iter()
                .find(|m| {
                    m.to == to
                        && m.is_promoted_drop() == promoted
                        && m.dropped().is_some_and(|k| game.letter(k) == c)
                })
                .ok_or_else(|| MoveError::Illegal(text.to_string()));
        }
        let (from, n1) = parse_square(text, files, ranks).ok_or_else(syntax)?;
        let (mut to, n2) = parse_square(&text[n1..], files, ranks).ok_or_else(syntax)?;
        let mut rest = &text[n1 + n2..];
        // `f5g6,g6h7`: a further leg from where the last ended. Over a piece it names the locust
        // move that takes it; over an empty square, the move from the first square to the last.
        // The squares taken on the way are matched as a set (`f5f7,f7f6,f6f8` names the same move
        // as `f5f6,f6f7,f7f8` where f6 and f7 hold pieces).
        let mut locust: Vec<u16> = Vec::new();
        while let Some(next) = rest.strip_prefix(',') {
            let (via, n3) = parse_square(next, files, ranks).ok_or_else(syntax)?;
            let (end, n4) = parse_square(&next[n3..], files, ranks).ok_or_else(syntax)?;
            if via != to || locust.len() > crate::position::MAX_LOCUSTS {
                return Err(syntax());
            }
            if !self.board[via as usize].is_empty() && via != from && !locust.contains(&via) {
                locust.push(via);
            }
            to = end;
            rest = &next[n3 + n4..];
        }
        // A square taken on the way and ended on is the destination's capture.
        locust.retain(|&c| c != to);
        locust.sort_unstable();
        // `+`: the piece promotes to its promoted form; `=`: it declines to (XBoard's shogi).
        // A promotion or gating id after it: `q`, `=q`, `a'`.
        let suffix = match rest {
            "" => None,
            "+" | "=" | "-" => Some(rest.as_bytes()[0] as char),
            _ => {
                let id = rest.strip_prefix('=').unwrap_or(rest);
                match crate::piece::id::read_all(id) {
                    Some((c, _)) if !id.starts_with('+') => Some(c),
                    _ => return Err(syntax()),
                }
            }
        };
        let legal = self.legal_moves();
        let game = self.game().clone();
        // A gating move names the gated piece by the suffix; a move without one gates nothing.
        let gates = |m: &Move| match (m.gated(), suffix) {
            (None, _) => true,
            (Some(k), Some(l)) => game.letter(k) == l,
            (Some(_), None) => false,
        };
        // Castling that gates on the partner's square: the partner onto the royal piece.
        if let Some(&m) = legal
            .iter()
            .find(|m| m.gates_partner() && m.extra() == from && m.from == to && gates(m))
        {
            return Ok(m);
        }
        if let Some(&m) = legal.iter().find(|m| {
            m.gated().is_some() && m.from == from && m.to == to && !m.gates_partner() && gates(m)
        }) {
            return Ok(m);
        }
        let legal: Vec<Move> = legal.into_iter().filter(|m| m.gated().is_none()).collect();
        // The king taking its own castling partner names the castling (Chess960 text); else the
        // king's landing square does, unless a plain move lands there too.
        if let Some(&m) = legal
            .iter()
            .find(|m| m.kind() == MoveKind::Castle && m.from == from && m.extra() == to)
        {
            return Ok(m);
        }
        let mut candidates: Vec<Move> = legal
            .into_iter()
            .filter(|m| {
                let mut on_way: Vec<u16> = m.locusts().collect();
                on_way.sort_unstable();
                m.from == from && m.to == to && !m.is_drop() && on_way == locust
            })
            .collect();
        if candidates.len() > 1 {
            candidates.retain(|m| m.kind() != MoveKind::Castle);
        }
        match suffix {
            Some('+') => candidates
                .into_iter()
                .find(|&m| self.is_piece_promotion(m))
                .ok_or_else(|| MoveError::Illegal(text.to_string())),
            Some('-') => candidates
                .into_iter()
                .find(|&m| self.is_demotion(m))
                .ok_or_else(|| MoveError::Illegal(text.to_string())),
            Some('=') => candidates
                .into_iter()
                .find(|m| m.promotion().is_none())
                .ok_or_else(|| MoveError::Illegal(text.to_string())),
            Some(l) => candidates
                .into_iter()
                .find(|m| m.promotion().is_some_and(|p| game.letter(p) == l))
                .ok_or_else(|| MoveError::Illegal(text.to_string())),
            None => match candidates.as_slice() {
                [] => Err(MoveError::Illegal(text.to_string())),
                [m] => Ok(*m),
                // A piece that may promote or not: the plain text is the move that does not.
                many if many
                    .iter()
                    .any(|&m| self.is_piece_promotion(m) || self.is_demotion(m)) =>
                {
                    many.iter()
                        .copied()
                        .find(|m| m.promotion().is_none())
                        .ok_or_else(|| MoveError::Illegal(text.to_string()))
                }
                many => Err(MoveError::Ambiguous(
                    text.to_string(),
                    many.iter()
                        .filter_map(|m| m.promotion())
                        .map(|p| game.suffix_id(p))
                        .collect(),
                )),
            },
        }
    }
}
