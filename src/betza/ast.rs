//! The XBetza syntax tree: what a piece string says, before any board is known.

use std::collections::BTreeSet;

/// A whole piece: the union of its moves (`KimAimD` = `K` ∪ `imA` ∪ `imD`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Betza {
    pub moves: Vec<Move>,
}

/// One union member.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Move {
    /// Classic Betza / XBetza: prefixes for each leg joined by `a`, one shared atom at the end.
    Chain(Chain),
    /// Betza's `t[AB]` or Muller's `[A?B]` / `[A-B]`: every leg has its own atom.
    Bracket(Bracket),
}

/// `[i] p1 a p2 a ... pk ATOM [range]`: k legs sharing one atom.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Chain {
    pub initial: Initial,
    /// One prefix per leg, leg 1 first. Never empty.
    pub legs: Vec<Prefix>,
    pub atom: Atom,
    pub range: Range,
}

/// `[i] [dirs] [mods] t[L1 L2 ...]` or `[i] [dirs] [mods] [L1 ? L2 - L3 ...]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Bracket {
    pub initial: Initial,
    /// Modifiers written outside the brackets; they apply to the whole path.
    pub outer: Prefix,
    /// `true` for Betza's `t[..]` form (every leg may end the move).
    pub then: bool,
    pub legs: Vec<BracketLeg>,
    /// Separators between legs (`legs.len() - 1` of them); all `MayStop` in the `t[..]` form.
    pub seps: Vec<Sep>,
}

/// One leg inside brackets.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BracketLeg {
    pub prefix: Prefix,
    pub atom: Atom,
    pub range: Range,
}

/// What lies between two bracket legs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sep {
    /// `?`: the move may end on the square reached by the previous leg.
    MayStop,
    /// `-`: the square is only passed (must be empty).
    Pass,
}

/// `i` (only while the piece has never moved) or XBoard's `ii`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Initial {
    #[default]
    No,
    Once,
    Twice,
}

/// Direction and modality letters written before an atom (or before a leg in a chain).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Prefix {
    /// Direction tokens in the order written (re-reading the printed letters gives the same tokens).
    pub dirs: Vec<Dir>,
    /// Modality letters: a set, printed in XBoard's canonical order.
    pub mods: BTreeSet<Modality>,
}

impl Prefix {
    pub fn has(&self, m: Modality) -> bool {
        self.mods.contains(&m)
    }
}

/// A direction token: one letter, or a two-letter token read greedily left to right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    F,
    B,
    L,
    R,
    V,
    S,
    H,
    /// Two-letter token, e.g. `fr`, `fs`, `lv`, `ff`, `hr`.
    Pair(DirLetter, DirLetter),
}

/// A single direction letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DirLetter {
    F,
    B,
    L,
    R,
    V,
    S,
    H,
}

impl DirLetter {
    pub fn from_char(c: char) -> Option<Self> {
        Some(match c {
            'f' => Self::F,
            'b' => Self::B,
            'l' => Self::L,
            'r' => Self::R,
            'v' => Self::V,
            's' => Self::S,
            'h' => Self::H,
            _ => return None,
        })
    }

    pub fn to_char(self) -> char {
        match self {
            Self::F => 'f',
            Self::B => 'b',
            Self::L => 'l',
            Self::R => 'r',
            Self::V => 'v',
            Self::S => 's',
            Self::H => 'h',
        }
    }

    pub fn single(self) -> Dir {
        match self {
            Self::F => Dir::F,
            Self::B => Dir::B,
            Self::L => Dir::L,
            Self::R => Dir::R,
            Self::V => Dir::V,
            Self::S => Dir::S,
            Self::H => Dir::H,
        }
    }

    /// Whether `self` followed by `next` forms one two-letter token (docs: xbetza.md §1.1).
    pub fn pairs_with(self, next: DirLetter) -> bool {
        use DirLetter::*;
        matches!(
            (self, next),
            (F | B, L | R | S | H)
                | (F, F)
                | (B, B)
                | (L | R, F | B | V | H)
                | (L, L)
                | (R, R)
                | (H, R | L)
        )
    }
}

impl Dir {
    pub fn letters(self) -> Vec<DirLetter> {
        match self {
            Dir::F => vec![DirLetter::F],
            Dir::B => vec![DirLetter::B],
            Dir::L => vec![DirLetter::L],
            Dir::R => vec![DirLetter::R],
            Dir::V => vec![DirLetter::V],
            Dir::S => vec![DirLetter::S],
            Dir::H => vec![DirLetter::H],
            Dir::Pair(a, b) => vec![a, b],
        }
    }
}

/// Modality letters, in XBoard's canonical order (the declaration order is the print order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Modality {
    U,
    M,
    C,
    D,
    E,
    X,
    T,
    P,
    G,
    O,
    Y,
    N,
    J,
}

impl Modality {
    pub const ALL: [Modality; 13] = [
        Self::U,
        Self::M,
        Self::C,
        Self::D,
        Self::E,
        Self::X,
        Self::T,
        Self::P,
        Self::G,
        Self::O,
        Self::Y,
        Self::N,
        Self::J,
    ];

    pub fn from_char(c: char) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.to_char() == c)
    }

    pub fn to_char(self) -> char {
        match self {
            Self::U => 'u',
            Self::M => 'm',
            Self::C => 'c',
            Self::D => 'd',
            Self::E => 'e',
            Self::X => 'x',
            Self::T => 't',
            Self::P => 'p',
            Self::G => 'g',
            Self::O => 'o',
            Self::Y => 'y',
            Self::N => 'n',
            Self::J => 'j',
        }
    }
}

/// The geometric part of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Atom {
    /// A named atom: `W F D N A H C L Z J G R B Q K`.
    Letter(char),
    /// `(a,b)`: a leaper with an arbitrary vector, e.g. `(4,1)`.
    Pair(u8, u8),
    /// `O<n>`: castling, the king moves n squares towards a corner piece.
    Castle,
}

/// How far an atom repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Range {
    /// No range written: the atom's own default (1 for leapers, unlimited for R B Q).
    #[default]
    Default,
    /// A number: 0 = unlimited, n = at most n steps.
    Count(u8),
    /// The letter doubled (`NN`): unlimited.
    Doubled,
}

/// The symmetry class that decides what direction letters mean (xbetza.md §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Orthogonal,
    Diagonal,
    Oblique,
    Compass,
}

impl Atom {
    /// The leap vector (a ≥ b ≥ 0) of one step, or `None` for K/Q (compass) and castling.
    pub fn vector(self) -> Option<(u8, u8)> {
        Some(match self {
            Atom::Letter(c) => match c {
                'W' | 'R' => (1, 0),
                'F' | 'B' => (1, 1),
                'D' => (2, 0),
                'N' => (2, 1),
                'A' => (2, 2),
                'H' => (3, 0),
                'C' | 'L' => (3, 1),
                'Z' | 'J' => (3, 2),
                'G' => (3, 3),
                _ => return None,
            },
            Atom::Pair(a, b) => (a.max(b), a.min(b)),
            Atom::Castle => return None,
        })
    }

    pub fn class(self) -> Class {
        match self.vector() {
            None => Class::Compass,
            Some((_, 0)) => Class::Orthogonal,
            Some((a, b)) if a == b => Class::Diagonal,
            Some(_) => Class::Oblique,
        }
    }

    /// R, B and Q slide without limit when no range is written.
    pub fn slides_by_default(self) -> bool {
        matches!(self, Atom::Letter('R' | 'B' | 'Q'))
    }

    pub const LETTERS: &'static str = "WFDNAHCLZJGRBQKO";
}
