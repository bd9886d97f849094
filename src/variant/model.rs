//! The validated variant: what the rest of acedrex reads. Only `variant::validate` builds it.

use crate::betza::Betza;
use crate::legs::Path;
use crate::setup::Setup;

/// A checked variant definition.
#[derive(Debug, Clone)]
pub struct Variant {
    /// Canonical name, e.g. `grant-acedrex`.
    pub name: String,
    /// Other names it answers to, e.g. `grande-acedrex`.
    pub aliases: Vec<String>,
    /// The name XBoard and Fairy-Max use (`grande-acedrex`); defaults to `name`.
    pub xboard_name: String,
    /// XBoard parent variant sent in `setup` (`shatranj` for Grant Acedrex, `fairy` by default).
    pub xboard_parent: String,
    /// One-line description.
    pub description: String,
    pub files: u8,
    pub ranks: u8,
    /// Piece types, in file order. A piece's index here is its type number everywhere else.
    pub pieces: Vec<PieceDef>,
    /// The start position, checked against the board and the pieces.
    pub start: Setup,
    pub promotion: Promotion,
    pub castling: CastlingRules,
    /// Whether a royal piece's initial moves (such as Grant Acedrex's king leap) are forbidden when in
    /// check or over an attacked square.
    pub royal_initial_moves_safe: bool,
    pub end: EndRules,
    pub dice: Option<Dice>,
}

/// One piece type.
#[derive(Debug, Clone)]
pub struct PieceDef {
    /// Upper-case letter; White writes it upper case, Black lower case.
    pub letter: char,
    pub name: String,
    /// The Betza string as written in the file.
    pub betza_text: String,
    pub betza: Betza,
    /// The moves compiled to leg trees (White's view), once, by validation.
    pub paths: Vec<Path>,
    /// Losing every royal piece, or leaving one attacked, is what check and mate are about.
    pub royal: bool,
    /// Value in centipawns when the file gives one.
    pub value: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Promotion {
    /// Letters of the piece types that promote (pawns). They also reset the move-count draw.
    pub pawns: Vec<char>,
    /// Depth of the promotion zone in ranks, counted from the far edge (1 = last rank only).
    pub zone: u8,
    pub to: PromotionTarget,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromotionTarget {
    /// The player chooses one of these letters.
    Choice(Vec<char>),
    /// One letter per file (a, b, ...): the piece the pawn becomes on that file, no choice.
    ByFile(Vec<char>),
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CastlingRules {
    /// Whether the king may castle out of, through or into check (chess: no).
    pub through_check: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BareKing {
    /// No bare-king rule.
    Off,
    /// A side left with only royal pieces loses at once.
    Immediate,
    /// As `Immediate`, but if the bared side bares the opponent with its very next move, a draw.
    BareBack,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndRules {
    /// The result for the side that is stalemated (no legal move, not in check).
    pub stalemated: Outcome,
    pub bare_king: BareKing,
    /// Draw at this many occurrences of a position (None: off).
    pub repetition: Option<u8>,
    /// Draw after this many plies without a capture or pawn move (None: off).
    pub move_count: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dice {
    /// (face, piece letter): the rolled face selects the piece type that must move.
    pub faces: Vec<(u8, char)>,
    pub no_move: DiceNoMove,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiceNoMove {
    Reroll,
    Pass,
}

impl Variant {
    pub fn piece_index(&self, letter: char) -> Option<usize> {
        let up = letter.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == up)
    }
}
