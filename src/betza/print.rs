//! [`Betza`] → canonical text: `i` first, then directions, then modality letters in XBoard's order.
//! Reading the printed text back gives the same tree.

use super::ast::*;
use std::fmt::{self, Display, Write};

impl Display for Betza {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.moves.iter().try_for_each(|m| m.fmt(f))
    }
}

impl Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Chain(c) => c.fmt(f),
            Move::Bracket(b) => b.fmt(f),
        }
    }
}

impl Display for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.initial.fmt(f)?;
        for (i, leg) in self.legs.iter().enumerate() {
            if i > 0 {
                f.write_char('a')?;
            }
            leg.fmt(f)?;
        }
        self.atom.fmt(f)?;
        write_range(f, self.atom, self.range)
    }
}

impl Display for Bracket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.initial.fmt(f)?;
        if !self.then && self.outer.has(Modality::T) {
            // The tame `t` right before `[` would read as Betza's `t[..]` form: write it first.
            let others = Prefix {
                dirs: self.outer.dirs.clone(),
                mods: self
                    .outer
                    .mods
                    .iter()
                    .copied()
                    .filter(|&m| m != Modality::T)
                    .collect(),
            };
            write!(f, "t{others}")?;
        } else {
            self.outer.fmt(f)?;
        }
        f.write_str(if self.then { "t[" } else { "[" })?;
        for (i, leg) in self.legs.iter().enumerate() {
            if i > 0 && !self.then {
                f.write_char(match self.seps[i - 1] {
                    Sep::MayStop => '?',
                    Sep::Pass => '-',
                })?;
            }
            leg.prefix.fmt(f)?;
            leg.atom.fmt(f)?;
            write_range(f, leg.atom, leg.range)?;
        }
        f.write_char(']')
    }
}

impl Display for Initial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Initial::No => "",
            Initial::Once => "i",
            Initial::Twice => "ii",
        })
    }
}

impl Display for Prefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.dirs {
            d.letters()
                .iter()
                .try_for_each(|l| f.write_char(l.to_char()))?;
        }
        self.mods.iter().try_for_each(|m| f.write_char(m.to_char()))
    }
}

impl Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Atom::Letter(c) => f.write_char(*c),
            Atom::Pair(a, b) => write!(f, "({a},{b})"),
            Atom::Castle => f.write_char('O'),
        }
    }
}

fn write_range(f: &mut fmt::Formatter<'_>, atom: Atom, range: Range) -> fmt::Result {
    match range {
        Range::Default => Ok(()),
        Range::Count(n) => write!(f, "{n}"),
        Range::Doubled => atom.fmt(f),
    }
}
