//! Game end, read from the variant's rules: checkmate, stalemate with its value, bare king (off,
//! immediate, with bare-back), repetition and move-count draws; the ends decided by the move just
//! made (royal pieces lost, extinction of a kind, a goal reached, the n-th check); the makruk
//! family's counting limit; dice rolls.

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

    /// How many pieces a side has besides its royal ones.
    fn officers(&self, side: Side) -> usize {
        let t = &self.game().tables;
        self.pieces(side)
            .iter()
            .filter(|&&c| !t.pieces[self.at(c).kind().index()].royal)
            .count()
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

    /// Whether the move just made ended the game by a rule (see [`Position::rule_end`]): then the
    /// side to move has no moves.
    #[inline]
    pub fn decided(&self) -> bool {
        if self.game().tables.rule_ends {
            self.rule_end().is_some()
        } else {
            self.royal_lost()
        }
    }

    /// The end decided by the position itself, whatever the moves: royal pieces lost, a kind
    /// extinct, a goal reached, the n-th check given. Cheap; search asks it at every node.
    pub fn rule_end(&self) -> Option<GameEnd> {
        let t = &self.game().tables;
        let stm = self.side;
        let mover = !stm;
        if self.royal_lost() {
            return Some(GameEnd {
                winner: side_wins(mover),
                reason: "royal piece captured",
            });
        }
        if !t.rule_ends {
            return None;
        }
        if t.pass
            && let Some(reason) = self.pass_end()
        {
            return Some(self.counted(reason));
        }
        if !t.classic && t.royal_sides[mover.index()] && self.royal_count(mover) == 0 {
            return Some(GameEnd {
                winner: side_wins(stm),
                reason: "royal piece captured",
            });
        }
        // The side to move first, as Fairy-Stockfish does: a bared side wins, and with both bare
        // (only from a set-up position) the side to move.
        if t.bared_wins {
            for side in [stm, mover] {
                if self.is_bare(side) {
                    return Some(GameEnd {
                        winner: side_wins(side),
                        reason: "bare king",
                    });
                }
            }
        }
        // `bare-king draw`: a bared side, either one, ends the game drawn (Fairy-Stockfish's shatar).
        if t.bare_draw && (self.is_bare(stm) || self.is_bare(mover)) {
            return Some(GameEnd {
                winner: Winner::Draw,
                reason: "bare king",
            });
        }
        // The side that just moved first, as Fairy-Stockfish does: promoting one's last pawn in
        // extinction chess loses.
        // Pieces in hand count, as Fairy-Stockfish counts them.
        for side in [mover, stm] {
            let extinct = if t.extinct_all {
                let army = |s: Side| {
                    self.pieces(s).len()
                        + self.hand[s.index()]
                            .iter()
                            .map(|&n| n as usize)
                            .sum::<usize>()
                };
                army(side) <= t.extinct_at_most as usize
                    && army(!side) >= t.extinct_opponent as usize
            } else {
                let count = |s: Side, k: Kind| {
                    self.count(s, k) + u16::from(self.hand[s.index()][k.index()])
                };
                t.extinct_kinds.iter().any(|&k| {
                    count(side, k) <= t.extinct_at_most && count(!side, k) >= t.extinct_opponent
                })
            };
            if extinct {
                let (winner, reason) = if t.extinct_wins {
                    (side, "all pieces lost")
                } else {
                    (!side, "extinction")
                };
                return Some(GameEnd {
                    winner: side_wins(winner),
                    reason,
                });
            }
        }
        if let Some(n) = t.checks_to_win {
            for side in [mover, stm] {
                if self.checks[side.index()] >= n {
                    return Some(GameEnd {
                        winner: side_wins(side),
                        reason: "checks given",
                    });
                }
            }
        }
        if t.goal_kind.iter().any(|&g| g) {
            let on_goal = |side: Side| {
                self.pieces(side).iter().any(|&c| {
                    t.goal_cells[side.index()][c as usize] && t.goal_kind[self.at(c).kind().index()]
                })
            };
            if t.goal_reply {
                // A goal counts once the opponent has had its reply: the side to move holds it.
                // Both there with White to move: Black equalised, a draw.
                if on_goal(stm) {
                    let winner = if on_goal(mover) && stm == Side::White {
                        Winner::Draw
                    } else {
                        side_wins(stm)
                    };
                    return Some(GameEnd {
                        winner,
                        reason: "goal reached",
                    });
                }
            } else if on_goal(mover) {
                return Some(GameEnd {
                    winner: side_wins(mover),
                    reason: "goal reached",
                });
            }
        }
        None
    }

    /// `drop-no-mate`: the move that mated was a drop of such a kind, and loses for the dropper
    /// (Fairy-Stockfish's reading of shogi's pawn-drop mate: the drop is made, the mate loses).
    fn mated_by_forbidden_drop(&self) -> bool {
        let no_mate = &self.game().tables.hand.no_mate;
        self.last_move()
            .and_then(|m| m.dropped())
            .is_some_and(|k| no_mate.get(k.index()) == Some(&true))
    }

    /// The game's end in this position, if it has ended. `legal` is the number of legal moves.
    pub fn game_end_with(&self, legal: usize) -> Option<GameEnd> {
        let end = &self.game().variant.end;
        let stm = self.side;
        if let Some(e) = self.rule_end() {
            return Some(e);
        }
        let result = |o: Outcome| match o {
            Outcome::Loss => side_wins(!stm),
            Outcome::Win => side_wins(stm),
            Outcome::Draw => Winner::Draw,
        };
        if legal == 0 {
            if self.in_check() && self.mated_by_forbidden_drop() {
                return Some(GameEnd {
                    winner: side_wins(stm),
                    reason: "checkmate by a forbidden drop",
                });
            }
            if self.in_check()
                && let Some(series) = &self.game().tables.checkmate_series
            {
                // `checkmate-series`: a mate by the `not-by` kinds alone loses for the mating
                // side; any other needs a check of the series kinds in the mating side's series.
                if !self.checked_by(stm, &series.may_mate) {
                    return Some(GameEnd {
                        winner: side_wins(stm),
                        reason: "checkmate by forbidden pieces",
                    });
                }
                if !self.check_series_holds(&series.series) {
                    return Some(GameEnd {
                        winner: Winner::Draw,
                        reason: "checkmate without a series check",
                    });
                }
            }
            if self.in_check() {
                return Some(GameEnd {
                    winner: result(end.checkmated),
                    reason: "checkmate",
                });
            }
            let winner = if end.stalemate_by_count {
                // Suicide: the side with fewer pieces wins.
                let (own, other) = (self.pieces(stm).len(), self.pieces(!stm).len());
                result(match own.cmp(&other) {
                    std::cmp::Ordering::Less => Outcome::Win,
                    std::cmp::Ordering::Equal => Outcome::Draw,
                    std::cmp::Ordering::Greater => Outcome::Loss,
                })
            } else {
                result(end.stalemated)
            };
            return Some(GameEnd {
                winner,
                reason: "stalemate",
            });
        }
        let (stm_bare, mover_bare) = (self.is_bare(stm), self.is_bare(!stm));
        match end.bare_king {
            // Decided by `rule_end`.
            BareKing::Off | BareKing::BaredWins => {}
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
            // Against more than one piece besides the royal ones no reply can bare back: lost at
            // once, as Fairy-Stockfish scores it (the bared side gets no move).
            BareKing::BareBack if stm_bare && self.officers(!stm) > 1 => {
                return Some(GameEnd {
                    winner: side_wins(!stm),
                    reason: "bare king",
                });
            }
            BareKing::BareBack => {}
            // Decided by `rule_end`.
            BareKing::Draw => {}
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
            return Some(self.counted("move count"));
        }
        // `honour-count`: the count reached its limit (a mate on that ply still counts, above).
        if let Some((ply, limit)) = self.honour_count()
            && ply >= limit
        {
            return Some(GameEnd {
                winner: Winner::Draw,
                reason: "counting limit",
            });
        }
        None
    }

    /// The game ended by the last move being a pass: after the opponent's pass, or while the
    /// royal pieces face each other under `bikjang` (the only move that may leave them facing).
    fn pass_end(&self) -> Option<&'static str> {
        let passed = |n: usize| {
            self.move_back(n)
                .is_some_and(|m| m.kind() == crate::position::MoveKind::Pass)
        };
        if !passed(0) {
            return None;
        }
        if self.game().tables.bikjang && self.royals_facing() {
            Some("bikjang")
        } else if passed(1) {
            Some("both sides passed")
        } else {
            None
        }
    }

    /// A game ended by bikjang, two passes or the move count: decided by `counting` where the
    /// variant has it (White wins when its points exceed Black's plus the bonus), else drawn.
    pub fn counted(&self, reason: &'static str) -> GameEnd {
        let Some(c) = &self.game().variant.end.counting else {
            return GameEnd {
                winner: Winner::Draw,
                reason,
            };
        };
        let v = &self.game().variant;
        let points = |side: Side| -> i32 {
            c.points
                .iter()
                .filter_map(|&(l, n)| {
                    v.piece_index(l)
                        .map(|k| n * i32::from(self.count(side, Kind(k as u8))))
                })
                .sum()
        };
        let white = points(Side::White) > points(Side::Black) + c.bonus;
        GameEnd {
            winner: if white { Winner::White } else { Winner::Black },
            reason,
        }
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
            .filter(|m| Some(self.mover(*m).kind()) == ty)
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
