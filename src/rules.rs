//! Game end, read from the variant's rules: checkmate, stalemate with its value, bare king (off,
//! immediate, with bare-back), repetition and move-count draws; dice rolls.

use crate::position::{Kind, Move, Position, Side};
use crate::variant::{BareKing, DiceNoMove, Outcome};

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    White,
    Black,
    Draw,
}

/// A finished game: the winner and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEnd {
    pub winner: Winner,
    pub reason: &'static str,
}

impl GameEnd {
    /// PGN / xboard result token.
    pub fn score(self) -> &'static str {
        match self.winner {
            Winner::White => "1-0",
            Winner::Black => "0-1",
            Winner::Draw => "1/2-1/2",
        }
    }
}

impl std::fmt::Display for GameEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {{{}}}", self.score(), self.reason)
    }
}

fn side_wins(side: Side) -> Winner {
    match side {
        Side::White => Winner::White,
        Side::Black => Winner::Black,
    }
}

impl Position {
    /// Whether a side has nothing but royal pieces.
    pub fn is_bare(&self, side: Side) -> bool {
        let t = &self.game().tables;
        self.pieces(side)
            .iter()
            .all(|&c| t.pieces[self.at(c).kind().index()].royal)
    }

    /// How many earlier positions in the game equal this one (same side to move, rights, e.p.).
    pub fn repetitions(&self) -> usize {
        let n = self.hashes.len();
        let window = (self.halfmove as usize).min(n);
        self.hashes[n - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&h| h == self.hash)
            .count()
    }

    /// The game's end in this position, if it has ended. `legal` is the number of legal moves.
    pub fn game_end_with(&self, legal: usize) -> Option<GameEnd> {
        let end = &self.game().variant.end;
        let stm = self.side;
        if self.royal_lost() {
            return Some(GameEnd {
                winner: side_wins(!stm),
                reason: "royal piece captured",
            });
        }
        if legal == 0 {
            if self.in_check() {
                return Some(GameEnd {
                    winner: side_wins(!stm),
                    reason: "checkmate",
                });
            }
            let winner = match end.stalemated {
                Outcome::Loss => side_wins(!stm),
                Outcome::Win => side_wins(stm),
                Outcome::Draw => Winner::Draw,
            };
            return Some(GameEnd {
                winner,
                reason: "stalemate",
            });
        }
        let (stm_bare, mover_bare) = (self.is_bare(stm), self.is_bare(!stm));
        match end.bare_king {
            BareKing::Off => {}
            BareKing::Immediate if stm_bare && mover_bare => {
                return Some(GameEnd {
                    winner: Winner::Draw,
                    reason: "both kings bare",
                });
            }
            BareKing::Immediate if stm_bare || mover_bare => {
                return Some(GameEnd {
                    winner: side_wins(if stm_bare { !stm } else { stm }),
                    reason: "bare king",
                });
            }
            BareKing::Immediate => {}
            // The bared side gets one move to bare the other back.
            BareKing::BareBack if mover_bare && stm_bare => {
                return Some(GameEnd {
                    winner: Winner::Draw,
                    reason: "bare king, bared back",
                });
            }
            BareKing::BareBack if mover_bare => {
                return Some(GameEnd {
                    winner: side_wins(stm),
                    reason: "bare king",
                });
            }
            BareKing::BareBack => {}
        }
        if let Some(n) = end.repetition
            && self.repetitions() + 1 >= n as usize
        {
            return Some(GameEnd {
                winner: Winner::Draw,
                reason: "repetition",
            });
        }
        if let Some(n) = end.move_count
            && self.halfmove >= n
        {
            return Some(GameEnd {
                winner: Winner::Draw,
                reason: "move count",
            });
        }
        None
    }

    /// The game's end in this position, if it has ended.
    pub fn game_end(&mut self) -> Option<GameEnd> {
        let legal = self.legal_moves().len();
        self.game_end_with(legal)
    }

    /// Dice faces of the variant: (face, piece kind).
    pub fn dice_faces(&self) -> Vec<(u8, Kind)> {
        let v = &self.game().variant;
        v.dice
            .as_ref()
            .map(|d| {
                d.faces
                    .iter()
                    .filter_map(|&(f, l)| v.piece_index(l).map(|t| (f, Kind(t as u8))))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Legal moves allowed by a roll: those of the rolled piece type (a promoted piece moves as what
    /// it became).
    pub fn dice_moves(&mut self, face: u8) -> Vec<Move> {
        let ty = self
            .dice_faces()
            .into_iter()
            .find(|&(f, _)| f == face)
            .map(|(_, t)| t);
        let moves = self.legal_moves();
        moves
            .into_iter()
            .filter(|m| Some(self.at(m.from).kind()) == ty)
            .collect()
    }

    /// What happens when the roll leaves no move: roll again, or pass.
    pub fn dice_no_move(&self) -> DiceNoMove {
        self.game()
            .variant
            .dice
            .as_ref()
            .map_or(DiceNoMove::Reroll, |d| d.no_move)
    }
}
