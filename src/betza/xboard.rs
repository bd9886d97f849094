//! [`Betza`] → XBoard's dialect of XBetza (xbetza.md §5.10): what Fairy-Max forwards to the GUI in its
//! `# X& betza` lines, and what XBoard itself reads. XBoard reads letters in a fixed order, has no
//! brackets, no doubled-letter riders, no `(a,b)` atoms, reads `fs`/`lv` on diagonal atoms as "all four"
//! and tests only the midpoint of a lame `n` leap. So this printer writes canonical order, `N0`,
//! `a`-notation for brackets (derived from the outward rule, §2.9), explicit W/F (R/B) subsets instead
//! of directions on K/Q, unambiguous direction tokens, and spelled-out paths for lame H/C/Z/G.

use super::ast::*;
use std::collections::BTreeSet;

/// Prints a piece in XBoard's dialect, or says why XBoard cannot read it.
///
/// ```
/// let b = acedrex::betza::parse("t[FR]").unwrap();
/// assert_eq!(acedrex::betza::to_xboard(&b).unwrap(), "FyafsF");
/// ```
pub fn to_xboard(b: &Betza) -> Result<String, NotInXboard> {
    let mut out = String::new();
    for m in &b.moves {
        match m {
            Move::Chain(c) => out += &chain(c).map_err(NotInXboard)?,
            Move::Bracket(br) => out += &bracket(br).map_err(NotInXboard)?,
        }
    }
    Ok(out)
}

/// A move XBoard's Betza dialect cannot express; the message names the construct.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotInXboard(pub String);

// ---- direction sets (betza::directions) ---------------------------------------------------------

use super::directions::{Set, dir_set};

const ORTH: Set = 0b0101_0101;
const DIAG: Set = 0b1010_1010;

fn bits(ks: &[u8]) -> Set {
    ks.iter().fold(0, |s, &k| s | 1 << k)
}

/// Direction letters selecting exactly `set` (bit k = direction index k, as legs numbers
/// them: compass for orthogonal, diagonal and K/Q atoms, 0 rf .. 7 lf for oblique ones) of an atom
/// of `class`; empty when the set is the atom's whole set.
pub(crate) fn direction_text(class: Class, set: u8) -> String {
    let natural = match class {
        Class::Orthogonal => ORTH,
        Class::Diagonal => DIAG,
        _ => 0xFF,
    };
    encode(class, set & natural, natural)
}

/// Relative (compass) direction letters for a continuation leg, always explicit.
pub(crate) fn relative_text(set: u8) -> String {
    encode(Class::Compass, set, 0)
}

/// Reads direction letters the way the parser does (two-letter tokens greedily, left to right).
fn read_tokens(text: &str) -> Vec<Dir> {
    let letters: Vec<DirLetter> = text.chars().filter_map(DirLetter::from_char).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < letters.len() {
        if i + 1 < letters.len() && letters[i].pairs_with(letters[i + 1]) {
            out.push(Dir::Pair(letters[i], letters[i + 1]));
            i += 2;
        } else {
            out.push(letters[i].single());
            i += 1;
        }
    }
    out
}

/// Direction letters that select exactly `set` for an atom of `class` (`natural` = its whole set).
/// Prefers short, familiar tokens; every candidate is re-read and checked, and the fallback (one
/// two-letter token per direction, `ff` for a lone forward) is always unambiguous.
fn encode(class: Class, set: Set, natural: Set) -> String {
    if set == natural {
        return String::new();
    }
    let candidates: &[&str] = match class {
        Class::Orthogonal => &["f", "b", "l", "r", "v", "s"],
        Class::Diagonal => &["f", "b", "l", "r", "fr", "fl", "br", "bl"],
        Class::Oblique => &[
            "fh", "bh", "lh", "rh", "v", "s", "f", "b", "l", "r", "fs", "bs", "lv", "rv", "rf",
            "fr", "br", "rb", "lb", "bl", "fl", "lf",
        ],
        Class::Compass => &[
            "v", "s", "fs", "bs", "f", "b", "l", "r", "fr", "fl", "br", "bl", "lv", "rv",
        ],
    };
    let sets: Vec<(&str, Set)> = candidates
        .iter()
        .map(|t| (*t, dir_set(class, &read_tokens(t), 0)))
        .collect();
    // Greedy cover by the largest tokens inside the set.
    let mut order = sets.clone();
    order.sort_by_key(|(_, s)| std::cmp::Reverse(s.count_ones()));
    let mut covered = 0;
    let mut text = String::new();
    for (t, s) in &order {
        if *s != 0 && s & !set == 0 && s & !covered != 0 {
            text += t;
            covered |= s;
        }
    }
    if covered == set && dir_set(class, &read_tokens(&text), natural) == set {
        return text;
    }
    // Fallback: one unambiguous two-letter token per direction.
    let single = if class == Class::Oblique {
        ["rf", "fr", "br", "rb", "lb", "bl", "fl", "lf"]
    } else {
        ["ff", "fr", "rr", "br", "bb", "bl", "ll", "fl"]
    };
    (0..8)
        .filter(|k| set & (1 << k) != 0)
        .map(|k| single[k])
        .collect()
}

// ---- chains -----------------------------------------------------------------------------------

fn atom_letter(a: Atom) -> Option<char> {
    match a {
        Atom::Letter(c) => Some(c),
        _ => None,
    }
}

fn prefix_text(dirs: &str, mods: &BTreeSet<Modality>) -> String {
    let mut s = dirs.to_string();
    s.extend(mods.iter().map(|m| m.to_char()));
    s
}

fn range_text(r: Range) -> String {
    match r {
        Range::Default => String::new(),
        Range::Count(n) => n.to_string(),
        Range::Doubled => "0".into(),
    }
}

fn chain(c: &Chain) -> Result<String, String> {
    let init = c.initial.to_string();
    if let Atom::Pair(a, b) = c.atom {
        return Err(format!(
            "XBoard has no ({a},{b}) atom (it reads only W F D N A H C L Z J G R B Q K O)"
        ));
    }
    let letter = atom_letter(c.atom);
    let range = range_text(c.range);
    if c.legs.len() == 1 {
        let p = &c.legs[0];
        // K and Q: spell the compass subset as W+F (R+B), the reading every engine shares.
        if matches!(letter, Some('K' | 'Q')) && !p.dirs.is_empty() {
            let set = dir_set(Class::Compass, &p.dirs, 0xFF);
            let (orth, diag) = if letter == Some('K') {
                ('W', 'F')
            } else {
                ('R', 'B')
            };
            let mut s = String::new();
            for (part, natural, class, l) in [
                (set & ORTH, ORTH, Class::Orthogonal, orth),
                (set & DIAG, DIAG, Class::Diagonal, diag),
            ] {
                if part != 0 {
                    s += &format!(
                        "{init}{}{l}{range}",
                        prefix_text(&encode(class, part, natural), &p.mods)
                    );
                }
            }
            return Ok(s);
        }
        // XBoard tests one midpoint square for a lame H/C/Z/G; spell the reference path with `a` legs.
        if p.has(Modality::N) && matches!(letter, Some('H' | 'C' | 'L' | 'Z' | 'J' | 'G')) {
            let l = letter.expect("letter atom");
            if !p.dirs.is_empty() || c.range != Range::Default {
                return Err(format!(
                    "a lame {l} with directions or a range cannot be written for XBoard"
                ));
            }
            let mut stop = p.mods.clone();
            stop.remove(&Modality::N);
            if stop.iter().any(|m| !matches!(m, Modality::M | Modality::C)) {
                return Err(format!(
                    "lame {l}: only m and c can be combined with n for XBoard"
                ));
            }
            let last = prefix_text("", &stop);
            let path = match l {
                'H' => format!("mafmaf{last}W"),
                'C' | 'L' => format!("mafmafs{last}W"),
                'Z' | 'J' => format!("mafsmaf{last}W"),
                _ => format!("mafmaf{last}F"),
            };
            return Ok(init + &path);
        }
        if p.has(Modality::J) && matches!(letter, Some('H' | 'C' | 'L' | 'Z' | 'J' | 'G')) {
            return Err("XBoard tests only the midpoint of a `j` leap longer than 2".into());
        }
    }
    // Leg 1 directions: re-encode orthogonal and diagonal sets (XBoard reads `fs` on F as all four).
    let mut s = init;
    for (i, p) in c.legs.iter().enumerate() {
        if i > 0 {
            s.push('a');
        }
        let class = c.atom.class();
        let dirs =
            if i == 0 && matches!(class, Class::Orthogonal | Class::Diagonal) && !p.dirs.is_empty()
            {
                let natural = if class == Class::Orthogonal {
                    ORTH
                } else {
                    DIAG
                };
                encode(class, dir_set(class, &p.dirs, natural) & natural, natural)
            } else {
                p.dirs
                    .iter()
                    .flat_map(|d| d.letters())
                    .map(|l| l.to_char())
                    .collect()
            };
        s += &prefix_text(&dirs, &p.mods);
    }
    s += &c.atom.to_string();
    s += &range;
    Ok(s)
}

// ---- brackets → a-notation ------------------------------------------------------------------

fn unit(k: u8) -> (i8, i8) {
    super::directions::COMPASS[k as usize % 8]
}

/// What the square a chain leg reaches must hold for the move to go on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cond {
    Empty,
    Occupied,
    Any,
}

/// One `a`-leg of the chain being built: absolute direction sets are only on the first.
struct Unit {
    slider: bool,
    /// Relative turns (compass set) from the previous unit; unused on the first.
    turns: Set,
}

/// Leg 1 of a bracket as chain units: its atom letter, direction letters, the units, and every
/// concrete first leg (unit compass indices, whole vector).
type FirstLeg = (char, String, Vec<Unit>, Vec<(Vec<u8>, (i8, i8))>);

/// A bracket leg (≥ 2) as one unit: W/F leap or R/B slide.
fn unit_atom(leg: &BracketLeg) -> Result<bool, String> {
    let slider = match (leg.atom, leg.range) {
        (Atom::Letter('W' | 'F' | 'K'), Range::Default | Range::Count(1)) => false,
        (Atom::Letter('R' | 'B' | 'Q'), Range::Default | Range::Count(0) | Range::Doubled) => true,
        (Atom::Letter('W' | 'F' | 'K'), Range::Count(0) | Range::Doubled) => true,
        _ => {
            return Err(format!(
                "bracket leg `{}{}`: after the first leg XBoard's a-notation has only single steps and unlimited slides",
                leg.atom,
                range_text(leg.range)
            ));
        }
    };
    Ok(slider)
}

/// The outward continuation directions of a unit atom after a leg with vector `u` (xbetza.md §2.9).
fn outward(atom: Atom, u: (i8, i8)) -> Vec<u8> {
    let cands: Vec<u8> = match atom {
        Atom::Letter('W' | 'R') => vec![0, 2, 4, 6],
        Atom::Letter('F' | 'B') => vec![1, 3, 5, 7],
        _ => (0..8).collect(),
    };
    let cos = |k: u8| {
        let v = unit(k);
        let dot = f64::from(u.0) * f64::from(v.0) + f64::from(u.1) * f64::from(v.1);
        dot / (f64::from(v.0).hypot(f64::from(v.1)) * f64::from(u.0).hypot(f64::from(u.1)))
    };
    let best = cands.iter().map(|&k| cos(k)).fold(f64::MIN, f64::max);
    cands
        .into_iter()
        .filter(|&k| cos(k) > best - 1e-9)
        .collect()
}

fn bracket(b: &Bracket) -> Result<String, String> {
    if !b.outer.dirs.is_empty() {
        return Err("direction letters outside brackets cannot be written for XBoard".into());
    }
    if b.outer
        .mods
        .iter()
        .any(|m| !matches!(m, Modality::M | Modality::C))
    {
        return Err("only m and c outside brackets can be written for XBoard".into());
    }
    let init = b.initial.to_string();
    let first = &b.legs[0];
    if first
        .prefix
        .mods
        .iter()
        .any(|m| !matches!(m, Modality::M | Modality::C | Modality::P | Modality::G))
    {
        return Err("bracket legs may carry only m, c, p, g for XBoard".into());
    }
    // Leg 1 as units: (absolute directions of the first unit, its atom letter, later units' turns,
    // and the whole leg's vector for every concrete direction).
    let (first_letter, first_dirs, mut units, leg1_paths): FirstLeg = {
        let l = atom_letter(first.atom).ok_or("XBoard has no (a,b) atom")?;
        let steps = |v: &[u8]| -> Vec<Unit> {
            v.iter()
                .map(|&t| Unit {
                    slider: false,
                    turns: t,
                })
                .collect()
        };
        let spelled: Option<(char, Vec<Set>)> = match l {
            'N' => Some(('W', vec![bits(&[1, 7])])),
            'D' => Some(('W', vec![bits(&[0])])),
            'A' => Some(('F', vec![bits(&[0])])),
            'H' => Some(('W', vec![bits(&[0]), bits(&[0])])),
            'G' => Some(('F', vec![bits(&[0]), bits(&[0])])),
            'C' | 'L' => Some(('W', vec![bits(&[0]), bits(&[1, 7])])),
            'Z' | 'J' => Some(('W', vec![bits(&[1, 7]), bits(&[0])])),
            _ => None,
        };
        if let Some((base, turns)) = spelled {
            if !first.prefix.dirs.is_empty() || first.range != Range::Default {
                return Err(format!(
                    "a first bracket leg {l} with directions or a range cannot be written for XBoard"
                ));
            }
            // Every concrete first leg: the compass indices of its unit steps and its vector.
            let starts: Vec<u8> = if base == 'W' {
                vec![0, 2, 4, 6]
            } else {
                vec![1, 3, 5, 7]
            };
            let mut paths = vec![];
            for s in starts {
                let mut partial: Vec<Vec<u8>> = vec![vec![s]];
                for t in &turns {
                    partial = partial
                        .into_iter()
                        .flat_map(|p| {
                            let last = *p.last().expect("non-empty");
                            (0..8u8).filter(move |r| t & (1 << r) != 0).map(move |r| {
                                let mut q = p.clone();
                                q.push((last + r) % 8);
                                q
                            })
                        })
                        .collect();
                }
                for p in partial {
                    let v = p
                        .iter()
                        .fold((0i8, 0i8), |a, &k| (a.0 + unit(k).0, a.1 + unit(k).1));
                    paths.push((p, v));
                }
            }
            let mut u = vec![Unit {
                slider: false,
                turns: 0,
            }];
            u.extend(steps(&turns));
            (base, String::new(), u, paths)
        } else {
            let slider = match (l, first.range) {
                ('W' | 'F', Range::Default | Range::Count(1)) => false,
                ('R' | 'B', Range::Default | Range::Count(0) | Range::Doubled) => true,
                ('W' | 'F', Range::Count(0) | Range::Doubled) => true,
                _ => {
                    return Err(format!(
                        "a first bracket leg `{}` cannot be written for XBoard",
                        first.atom
                    ));
                }
            };
            let orth = matches!(l, 'W' | 'R');
            let (class, natural) = if orth {
                (Class::Orthogonal, ORTH)
            } else {
                (Class::Diagonal, DIAG)
            };
            let set = dir_set(class, &first.prefix.dirs, natural) & natural;
            let paths = (0..8u8)
                .filter(|k| set & (1 << k) != 0)
                .map(|k| (vec![k], unit(k)))
                .collect();
            let letter = match (orth, slider) {
                (true, false) => 'W',
                (true, true) => 'R',
                (false, false) => 'F',
                (false, true) => 'B',
            };
            (
                letter,
                encode(class, set, natural),
                vec![Unit { slider, turns: 0 }],
                paths,
            )
        }
    };
    // Continuation conditions at the end of each bracket leg but the last.
    let cond_of = |i: usize| -> Result<Cond, String> {
        let leg = &b.legs[i];
        let hop = leg.prefix.has(Modality::P) || leg.prefix.has(Modality::G);
        if b.seps[i] == Sep::MayStop {
            if hop {
                return Err(
                    "a hop on a leg where the move may also stop cannot be written for XBoard"
                        .into(),
                );
            }
            return Ok(Cond::Empty);
        }
        Ok(match (hop, leg.prefix.has(Modality::M)) {
            (true, true) => Cond::Any,
            (true, false) => Cond::Occupied,
            _ => Cond::Empty,
        })
    };
    let stop_mods = |leg: &BracketLeg| -> BTreeSet<Modality> {
        let own: BTreeSet<Modality> = leg
            .prefix
            .mods
            .iter()
            .copied()
            .filter(|m| matches!(m, Modality::M | Modality::C))
            .collect();
        if own.is_empty() {
            b.outer.mods.clone()
        } else {
            own
        }
    };
    // Where each bracket leg ends in the unit list, and the conditions between units.
    let mut leg_end = vec![units.len() - 1];
    let mut conds: Vec<Cond> = vec![Cond::Any; units.len() - 1];
    // Concrete paths: absolute unit indices and the previous bracket leg's vector.
    let mut paths: Vec<(Vec<u8>, (i8, i8))> = leg1_paths;
    for i in 1..b.legs.len() {
        let leg = &b.legs[i];
        if leg
            .prefix
            .mods
            .iter()
            .any(|m| !matches!(m, Modality::M | Modality::C | Modality::P | Modality::G))
        {
            return Err("bracket legs may carry only m, c, p, g for XBoard".into());
        }
        let slider = unit_atom(leg)?;
        conds.push(cond_of(i - 1)?);
        let mut turns: Option<Set> = None;
        let mut next_paths = vec![];
        for (p, u) in &paths {
            let last = *p.last().expect("non-empty");
            let abs: Vec<u8> = if leg.prefix.dirs.is_empty() {
                outward(leg.atom, *u)
            } else {
                if units.len() > 1 {
                    return Err("relative directions after a spelled-out first leg cannot be written for XBoard".into());
                }
                let rel = dir_set(Class::Compass, &leg.prefix.dirs, 0);
                (0..8u8)
                    .filter(|r| rel & (1 << r) != 0)
                    .map(|r| (last + r) % 8)
                    .collect()
            };
            let rel: Set = abs.iter().fold(0, |s, &k| s | 1 << ((k + 8 - last) % 8));
            match turns {
                None => turns = Some(rel),
                Some(t) if t != rel => {
                    return Err(format!(
                        "`{}`: the outward continuation turns differently on mirrored paths; XBoard's a-notation cannot say that",
                        Move::Bracket(b.clone())
                    ));
                }
                _ => {}
            }
            for k in abs {
                let mut q = p.clone();
                q.push(k);
                next_paths.push((q, unit(k)));
            }
        }
        paths = next_paths;
        units.push(Unit {
            slider,
            turns: turns.unwrap_or(0),
        });
        leg_end.push(units.len() - 1);
    }
    // Emit one chain per square where the move may end.
    let mut out = String::new();
    for (i, leg) in b.legs.iter().enumerate() {
        let last = i + 1 == b.legs.len();
        if !last && b.seps[i] == Sep::Pass {
            continue;
        }
        let stop = stop_mods(leg);
        if i == 0 {
            // The first leg alone: the atom as written.
            out += &format!(
                "{init}{}{}{}",
                prefix_text(&first_dirs_for(first)?, &stop),
                first.atom,
                range_text(first.range)
            );
            continue;
        }
        let end = leg_end[i];
        let mut s = init.clone();
        for (j, u) in units[..=end].iter().enumerate() {
            if j > 0 {
                s.push('a');
            }
            let dirs = if j == 0 {
                first_dirs.clone()
            } else {
                encode(Class::Compass, u.turns, 0xFF)
            };
            let mods: BTreeSet<Modality> = if j == end {
                stop.clone()
            } else {
                let toggle = units[j + 1].slider != u.slider;
                match (conds[j], toggle) {
                    (Cond::Empty, false) => [Modality::M].into(),
                    (Cond::Empty, true) => [Modality::Y].into(),
                    (Cond::Occupied, false) => [Modality::P].into(),
                    (Cond::Occupied, true) => [Modality::G].into(),
                    (Cond::Any, false) => [Modality::M, Modality::P].into(),
                    (Cond::Any, true) => {
                        return Err(
                            "a leap followed by a change of range cannot be written for XBoard"
                                .into(),
                        );
                    }
                }
            };
            s += &prefix_text(&dirs, &mods);
        }
        s.push(first_letter);
        out += &s;
    }
    Ok(out)
}

/// The first bracket leg written alone (`F` of `t[FR]`), directions re-encoded for XBoard.
fn first_dirs_for(first: &BracketLeg) -> Result<String, String> {
    if first.prefix.dirs.is_empty() {
        return Ok(String::new());
    }
    let class = first.atom.class();
    match class {
        Class::Orthogonal | Class::Diagonal => {
            let natural = if class == Class::Orthogonal {
                ORTH
            } else {
                DIAG
            };
            Ok(encode(
                class,
                dir_set(class, &first.prefix.dirs, natural) & natural,
                natural,
            ))
        }
        _ => Err("directions on a first bracket leg K/Q/N cannot be written for XBoard".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::betza::parse;

    fn x(s: &str) -> String {
        to_xboard(&parse(s).unwrap()).unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn documented_equivalences() {
        assert_eq!(x("t[FR]"), "FyafsF");
        assert_eq!(x("[F?R]"), "FyafsF");
        assert_eq!(x("t[NB]"), "NmpafsyafW");
        assert_eq!(x("[W?B]"), "WyafsW");
        assert_eq!(x("[F-B]"), "yafF");
        assert_eq!(x("[F-R]"), "yafsF");
        assert_eq!(x("t[WF]"), "WmafsW");
        assert_eq!(x("[W?F]"), "WmafsW");
        assert_eq!(x("[W-F]"), "mafsW");
    }

    #[test]
    fn plain_pieces() {
        assert_eq!(x("NN"), "N0");
        assert_eq!(x("KimAimD"), "KimAimD");
        assert_eq!(x("mfWcfF"), "fmWfcF");
        assert_eq!(x("fmWfceFifmnD"), "fmWfceFifmnD");
        assert_eq!(x("HC"), "HC");
        assert_eq!(x("FfW"), "FfW");
        assert_eq!(x("KisO2"), "KisO2");
        assert_eq!(x("mRcpR"), "mRcpR");
    }

    #[test]
    fn compass_directions_are_expanded() {
        assert_eq!(x("fK"), "fW");
        assert_eq!(x("fsK"), "fF");
        assert_eq!(x("fhK"), "fWfF");
        assert_eq!(x("bQ"), "bR");
        assert_eq!(x("fQ3"), "fR3");
    }

    #[test]
    fn diagonal_tokens_are_unambiguous() {
        assert_eq!(x("fsF"), "fF");
        assert_eq!(x("lvB"), "lB");
        assert_eq!(x("rvF"), "rF");
        assert_eq!(x("frF"), "frF");
    }

    #[test]
    fn lame_long_leapers_are_spelled_out() {
        assert_eq!(x("nZ"), "mafsmafW");
        assert_eq!(x("nH"), "mafmafW");
        assert_eq!(x("mnC"), "mafmafsmW");
        assert_eq!(x("nN"), "nN");
    }

    #[test]
    fn inexpressible_is_an_error() {
        assert!(x("(4,1)").starts_with("error"));
        assert!(x("[N?R]").starts_with("error"));
        assert!(x("[F?R3]").starts_with("error"));
    }
}
