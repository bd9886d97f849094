//! What the front ends need around the search: limits from a level, choosing a move when a die
//! restricts the root, rolling the die, and dice for variants whose file has none.

use crate::position::{Move, Position};
use crate::search::{Engine, Limits};
use crate::variant::{Dice, DiceNoMove, Variant};
use rand::Rng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Search limits: `depth` plies (None: no depth cap) and at most `movetime` per move.
pub fn limits(depth: Option<u32>, movetime: Option<Duration>) -> Limits {
    Limits {
        depth,
        movetime,
        ..Limits::default()
    }
}

/// The engine's move in `pos`; in dice games only moves of the piece type `roll` selects (the
/// search treats the later rolls as chance nodes).
pub fn choose(
    engine: &mut Engine,
    pos: &Position,
    roll: Option<u8>,
    limits: &Limits,
) -> Option<Move> {
    let stop = Arc::new(AtomicBool::new(false));
    engine
        .search_roll(pos, roll, limits, &stop, &mut |_| {})
        .best
}

/// The variant with a die: its own `dice` rule, else one face per piece type counted down from the
/// first piece (Grant Acedrex's K A U R L C G P gives its octahedral 8=K ... 1=P), re-rolling when
/// the rolled type cannot move.
pub fn with_dice(mut v: Variant) -> Variant {
    if v.dice.is_none() {
        let n = v.pieces.len() as u8;
        let faces = v
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| (n - i as u8, p.letter))
            .collect();
        v.dice = Some(Dice {
            faces,
            no_move: DiceNoMove::Reroll,
        });
    }
    v
}

/// One roll of the variant's die: a face, each equally likely.
pub fn roll(pos: &Position, rng: &mut impl Rng) -> Option<u8> {
    let faces = pos.dice_faces();
    if faces.is_empty() {
        return None;
    }
    Some(faces[rng.random_range(0..faces.len())].0)
}

/// The piece name a face selects (`rook`).
pub fn face_name(pos: &Position, face: u8) -> String {
    let v = &pos.game().variant;
    v.dice
        .as_ref()
        .and_then(|d| d.faces.iter().find(|&&(f, _)| f == face))
        .and_then(|&(_, l)| v.piece_index(l))
        .map_or_else(|| "?".into(), |i| v.pieces[i].name.clone())
}

/// What a side to move does on a dice turn: the face rolled and its moves, or a pass.
pub enum Turn {
    /// Roll and the moves it allows (never empty).
    Move {
        face: u8,
        moves: Vec<Move>,
        rerolls: Vec<u8>,
    },
    /// The roll left no move and the rule is to pass.
    Pass { face: u8 },
}

/// Rolls until a face has a move (re-roll rule) or once (pass rule). The position must have a legal
/// move (else the game is over).
pub fn dice_turn(pos: &mut Position, rng: &mut impl Rng) -> Option<Turn> {
    let mut rerolls = Vec::new();
    // The game is not over, so some face has a move; the bound guards a die with missing types.
    for _ in 0..1000 {
        let face = roll(pos, rng)?;
        let moves = pos.dice_moves(face);
        if !moves.is_empty() {
            return Some(Turn::Move {
                face,
                moves,
                rerolls,
            });
        }
        if pos.dice_no_move() == DiceNoMove::Pass {
            return Some(Turn::Pass { face });
        }
        rerolls.push(face);
    }
    None
}
