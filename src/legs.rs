//! Betza syntax tree → geometry-free leg trees for White (forward = +y). Black uses the same trees
//! rotated by 180°. What each direction letter selects is `betza::directions`.

use crate::betza::{self, Atom, Bracket, Chain, Class, Dir, Initial, Modality, Prefix, Range, Sep};

/// What the square where a move may end must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Stop(pub u8);

impl Stop {
    pub const NONE: Stop = Stop(0);
    pub const EMPTY: u8 = 1;
    pub const ENEMY: u8 = 2;
    pub const OWN: u8 = 4;
    /// The en-passant square (empty; captures the piece that created it).
    pub const EP: u8 = 8;
    pub fn any(self) -> bool {
        self.0 != 0
    }
    pub fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

/// What the square reached by a leg must hold for the path to go on with the next legs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Cont {
    #[default]
    Never,
    Empty,
    Occupied,
    /// `t` with `p`/`g` (XBoard's tame hop): a piece of the mover's own side.
    Own,
    Any,
    /// `c`/`d` on a leg that does not end the move (a locust capture): an enemy (`enemy`) or own
    /// (`own`) piece there is taken and the move goes on; with `m` (`empty`) an empty square
    /// lets it go on too, and with `p` (`hop`) any piece may be hopped over, not taken (the Lion
    /// Dog's `mcp`: each way is a move of its own).
    Take {
        enemy: bool,
        own: bool,
        empty: bool,
        hop: bool,
    },
}

impl Cont {
    /// Whether the leg takes the piece on the square it goes on from.
    pub fn takes(self) -> bool {
        matches!(self, Cont::Take { .. })
    }
}

/// One leg: repeat `step` up to `max` times (0 = unlimited); every square reached may end the move
/// (`stop`) and/or continue with `next` (`cont`). A rider stops at the first occupied square.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Leg {
    pub step: (i8, i8),
    pub max: u8,
    /// `j` on a slider: the first `skip` squares are jumped over without being looked at.
    pub skip: u8,
    /// `n` on a multi-square leaper: squares (relative to the leg's start) that must be empty.
    pub lame: Vec<(i8, i8)>,
    /// `j` on a multi-square leaper: squares that must be occupied.
    pub jump: Vec<(i8, i8)>,
    pub stop: Stop,
    pub cont: Cont,
    pub next: Vec<Leg>,
    /// `o`: files wrap around.
    pub cylinder: bool,
    /// A lame leap that leaves en-passant rights on the squares it passes.
    pub sets_ep: bool,
}

/// One compiled move family of a piece.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Path {
    Legs {
        initial: bool,
        leg: Leg,
    },
    /// `O<n>`: the king moves `n` squares towards the corner piece in `dir` (−1 left, +1 right).
    Castle {
        dir: i8,
        n: u8,
    },
}

/// A construct the notation has but the executor does not.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unsupported(pub String);

/// Compiles a piece to its paths (White's view).
pub fn compile(b: &betza::Betza) -> Result<Vec<Path>, Unsupported> {
    let mut paths = Vec::new();
    let atoms = b.moves.iter().flat_map(|m| match m {
        betza::Move::Chain(c) => vec![c.atom],
        betza::Move::Bracket(br) => br.legs.iter().map(|l| l.atom).collect(),
    });
    for atom in atoms {
        if let Some((x, y)) = atom.vector()
            && x.max(y) >= crate::geometry::MAX_SIDE
        {
            return unsupported(format!(
                "a ({x},{y}) leap: boards have at most {0} files and ranks, expected components up to {1}",
                crate::geometry::MAX_SIDE,
                crate::geometry::MAX_SIDE - 1
            ));
        }
    }
    for m in &b.moves {
        match m {
            betza::Move::Chain(c) => chain(c, &mut paths)?,
            betza::Move::Bracket(br) => bracket(br, &mut paths)?,
        }
    }
    let most = crate::position::MAX_LOCUSTS;
    if paths
        .iter()
        .any(|p| matches!(p, Path::Legs { leg, .. } if most_takes(leg) > most))
    {
        return unsupported(format!(
            "a move may take at most {most} pieces on the way (`c`/`d` legs before the last)"
        ));
    }
    Ok(merge_paths(paths))
}

/// The most locust captures along one path of the leg tree.
fn most_takes(leg: &Leg) -> usize {
    usize::from(leg.cont.takes()) + leg.next.iter().map(most_takes).max().unwrap_or(0)
}

/// The longest file or rank component of any step of the paths (0 for castling alone).
pub fn longest_step(paths: &[Path]) -> u8 {
    fn leg_max(leg: &Leg) -> u8 {
        let own = leg.step.0.unsigned_abs().max(leg.step.1.unsigned_abs());
        let lame = leg.lame.iter().chain(&leg.jump);
        let lame = lame.map(|v| v.0.unsigned_abs().max(v.1.unsigned_abs()));
        leg.next.iter().map(leg_max).chain(lame).fold(own, u8::max)
    }
    paths
        .iter()
        .map(|p| match p {
            Path::Legs { leg, .. } => leg_max(leg),
            Path::Castle { n, .. } => *n,
        })
        .max()
        .unwrap_or(0)
}

// ---- directions -------------------------------------------------------------------------------

use crate::betza::directions::{ALL, COMPASS, Set, bits, dir_set, lame_path, oblique};

fn members(s: Set) -> impl Iterator<Item = usize> {
    (0..8).filter(move |k| s & (1 << k) != 0)
}

/// The directions an atom can take on its first leg: (index in its own system, vector).
fn first_leg_vectors(atom: Atom, dirs: &[Dir]) -> Vec<(usize, (i8, i8))> {
    let class = atom.class();
    let (a, b) = atom
        .vector()
        .map(|(a, b)| (a as i8, b as i8))
        .unwrap_or((1, 1));
    let natural = match class {
        Class::Orthogonal => bits(&[0, 2, 4, 6]),
        Class::Diagonal => bits(&[1, 3, 5, 7]),
        _ => ALL,
    };
    let set = dir_set(class, dirs, natural) & natural;
    members(set)
        .map(|k| {
            let v = match class {
                Class::Oblique => oblique(a, b, k),
                Class::Compass => COMPASS[k],
                _ => {
                    let (x, y) = COMPASS[k];
                    (x * a, y * a)
                }
            };
            (k, v)
        })
        .collect()
}

/// Continuation directions relative to the previous leg's index `prev` (xbetza.md §2.8).
fn relative_vectors(atom: Atom, dirs: &[Dir], prev: usize) -> Vec<(usize, (i8, i8))> {
    let class = atom.class();
    let default = match class {
        Class::Orthogonal | Class::Diagonal => bits(&[0, 2, 6]),
        _ => ALL & !bits(&[4]),
    };
    let set = dir_set(Class::Compass, dirs, default);
    let len = atom.vector().map(|(a, _)| a as i8).unwrap_or(1);
    members(set)
        .map(|r| {
            let k = (prev + r) % 8;
            let v = match (class, atom.vector()) {
                (Class::Oblique, Some((a, b))) => oblique(a as i8, b as i8, k),
                _ => (COMPASS[k].0 * len, COMPASS[k].1 * len),
            };
            (k, v)
        })
        .collect()
}

/// Bracket continuation without direction letters: the atom's unit directions closest to `u`.
fn outward_vectors(atom: Atom, u: (i8, i8)) -> Vec<(usize, (i8, i8))> {
    let cands = first_leg_vectors(atom, &[]);
    let cos = |v: (i8, i8)| {
        let dot = (u.0 as f64) * (v.0 as f64) + (u.1 as f64) * (v.1 as f64);
        dot / ((v.0 as f64).hypot(v.1 as f64) * (u.0 as f64).hypot(u.1 as f64))
    };
    let best = cands.iter().map(|&(_, v)| cos(v)).fold(f64::MIN, f64::max);
    cands
        .into_iter()
        .filter(|&(_, v)| cos(v) > best - 1e-9)
        .collect()
}

// ---- legs -------------------------------------------------------------------------------------

fn base_max(atom: Atom, range: Range) -> u8 {
    match range {
        Range::Default => u8::from(!atom.slides_by_default()),
        Range::Count(n) => n,
        Range::Doubled => 0,
    }
}

fn unsupported<T>(what: impl Into<String>) -> Result<T, Unsupported> {
    Err(Unsupported(what.into()))
}

/// Builds one leg from its vector, range and letters. `last`: the leg that ends the move.
fn make_leg(
    v: (i8, i8),
    max: u8,
    p: &Prefix,
    last: bool,
    stop_override: Option<Stop>,
) -> Result<Option<Leg>, Unsupported> {
    let hop = p.has(Modality::P) || p.has(Modality::G);
    // `t` on a hop that goes on is XBoard's tame hop, over an own piece only; on a last leg it
    // means a move that may not take a royal piece, which the generator does not know.
    let tame = p.has(Modality::T);
    if tame && (last || !hop || p.has(Modality::M)) {
        return unsupported(
            "the `t` modality (tame) is supported on a hop that goes on (`tp`, `tg`) only",
        );
    }
    for m in [Modality::X, Modality::U] {
        if p.has(m) {
            return unsupported(format!(
                "the `{}` modality is not supported by the move generator",
                m.to_char()
            ));
        }
    }
    let unit = v.0.abs() <= 1 && v.1.abs() <= 1;
    let mut leg = Leg {
        step: v,
        max,
        skip: 0,
        lame: vec![],
        jump: vec![],
        stop: Stop::NONE,
        cont: Cont::Never,
        next: vec![],
        cylinder: p.has(Modality::O),
        sets_ep: false,
    };
    if p.has(Modality::N) && !unit {
        if max != 1 {
            return unsupported("`n` (lame) on a rider is not supported");
        }
        leg.lame = lame_path(v);
        leg.sets_ep = true;
    }
    if p.has(Modality::J) {
        if unit && max != 1 {
            leg.skip = 1;
        } else if unit {
            return Ok(None); // `j` on a W/F leaper: nothing to jump over
        } else if max == 1 {
            leg.jump = lame_path(v);
        } else {
            return unsupported("`j` on a non-unit rider is not supported");
        }
    }
    if last {
        let mut stop = 0;
        for (m, bit) in [
            (Modality::M, Stop::EMPTY),
            (Modality::C, Stop::ENEMY),
            (Modality::D, Stop::OWN),
            (Modality::E, Stop::EP),
        ] {
            if p.has(m) {
                stop |= bit;
            }
        }
        if stop == 0 {
            stop = Stop::EMPTY | Stop::ENEMY;
        }
        leg.stop = stop_override.unwrap_or(Stop(stop));
    } else {
        if p.has(Modality::E) {
            return unsupported("`e` is only meaningful on the last leg");
        }
        let (enemy, own) = (p.has(Modality::C), p.has(Modality::D));
        if enemy || own {
            if tame || p.has(Modality::G) {
                return unsupported(
                    "a leg that takes (`c`/`d`) may also hop with `p`, not with `g` or `t`",
                );
            }
            leg.cont = Cont::Take {
                enemy,
                own,
                empty: p.has(Modality::M),
                hop,
            };
            return Ok(Some(leg));
        }
        leg.cont = match (hop, p.has(Modality::M)) {
            (true, _) if tame => Cont::Own,
            (true, true) => Cont::Any,
            (true, false) => Cont::Occupied,
            _ => Cont::Empty,
        };
    }
    Ok(Some(leg))
}

fn toggled(max: u8) -> u8 {
    if max == 1 { 0 } else { 1 }
}

fn chain(c: &Chain, out: &mut Vec<Path>) -> Result<(), Unsupported> {
    if c.initial == Initial::Twice {
        return unsupported("`ii` (XBoard's second-rank initial move) is not supported; use `i`");
    }
    if c.atom == Atom::Castle {
        if c.legs.len() > 1 {
            return unsupported("castling `O` cannot have more legs");
        }
        let n = match c.range {
            Range::Count(n) if n >= 1 => n,
            Range::Default => 2,
            _ => return unsupported("castling needs a distance of at least 1, e.g. O2"),
        };
        let sides = dir_set(Class::Orthogonal, &c.legs[0].dirs, bits(&[2, 6]));
        for k in members(sides & bits(&[2, 6])) {
            out.push(Path::Castle {
                dir: if k == 2 { 1 } else { -1 },
                n,
            });
        }
        return Ok(());
    }
    let base = base_max(c.atom, c.range);
    let hop_last = {
        let p = &c.legs[c.legs.len() - 1];
        p.has(Modality::P) || p.has(Modality::G)
    };
    // Build each full path leg by leg, depth first.
    fn build(
        c: &Chain,
        i: usize,
        prev: Option<usize>,
        max: u8,
        hop_last: bool,
    ) -> Result<Vec<Leg>, Unsupported> {
        let p = &c.legs[i];
        let last = i + 1 == c.legs.len();
        let vecs = match prev {
            None => first_leg_vectors(c.atom, &p.dirs),
            Some(k) => relative_vectors(c.atom, &p.dirs, k),
        };
        let mut legs = Vec::new();
        for (k, v) in vecs {
            if last && hop_last {
                if let Some(l) = hopper(v, max, p)? {
                    legs.push(l);
                }
                continue;
            }
            let Some(mut leg) = make_leg(v, max, p, last, None)? else {
                continue;
            };
            if !last {
                let toggle = p.has(Modality::Y) || p.has(Modality::G);
                let next_max = if toggle { toggled(max) } else { max };
                leg.next = build(c, i + 1, Some(k), next_max, hop_last)?;
            }
            legs.push(leg);
        }
        Ok(legs)
    }
    for leg in build(c, 0, None, base, hop_last)? {
        out.push(Path::Legs {
            initial: c.initial == Initial::Once,
            leg,
        });
    }
    Ok(())
}

/// `p`/`g` on the last leg: slide to the first occupied square, hop it, then go on (`g`: one step).
fn hopper(v: (i8, i8), max: u8, p: &Prefix) -> Result<Option<Leg>, Unsupported> {
    if max == 1 {
        return Ok(None); // a hopping leaper has nothing to hop over (xbetza.md §2.6)
    }
    let mut land = p.clone();
    land.mods.remove(&Modality::P);
    land.mods.remove(&Modality::G);
    land.mods.remove(&Modality::T);
    let after = if p.has(Modality::G) { 1 } else { max };
    let Some(landing) = make_leg(v, after, &land, true, None)? else {
        return Ok(None);
    };
    let mut screen = Prefix {
        dirs: vec![],
        mods: [Modality::P].into(),
    };
    for m in [Modality::O, Modality::T] {
        if p.has(m) {
            screen.mods.insert(m);
        }
    }
    let Some(mut leg) = make_leg(v, max, &screen, false, None)? else {
        return Ok(None);
    };
    leg.next = vec![landing];
    Ok(Some(leg))
}

fn bracket(b: &Bracket, out: &mut Vec<Path>) -> Result<(), Unsupported> {
    if !b.outer.dirs.is_empty() {
        return unsupported(
            "direction letters outside brackets are not supported; write them on the first leg inside",
        );
    }
    if b.initial == Initial::Twice {
        return unsupported("`ii` is not supported; use `i`");
    }
    let mut outer_stop = 0;
    for (m, bit) in [
        (Modality::M, Stop::EMPTY),
        (Modality::C, Stop::ENEMY),
        (Modality::D, Stop::OWN),
    ] {
        if b.outer.has(m) {
            outer_stop |= bit;
        }
    }
    let outer_stop = if outer_stop == 0 {
        Stop(Stop::EMPTY | Stop::ENEMY)
    } else {
        Stop(outer_stop)
    };
    for m in &b.outer.mods {
        if !matches!(m, Modality::M | Modality::C | Modality::D) {
            return unsupported(format!(
                "`{}` outside brackets is not supported",
                m.to_char()
            ));
        }
    }
    fn build(
        b: &Bracket,
        i: usize,
        prev: Option<(usize, (i8, i8))>,
        outer: Stop,
    ) -> Result<Vec<Leg>, Unsupported> {
        let bl = &b.legs[i];
        let last = i + 1 == b.legs.len();
        let vecs = match prev {
            None => first_leg_vectors(bl.atom, &bl.prefix.dirs),
            Some((k, _)) if !bl.prefix.dirs.is_empty() => {
                relative_vectors(bl.atom, &bl.prefix.dirs, k)
            }
            Some((_, u)) => outward_vectors(bl.atom, u),
        };
        let own_stop = bl
            .prefix
            .mods
            .iter()
            .any(|m| matches!(m, Modality::M | Modality::C | Modality::D | Modality::E));
        let may_stop = last || b.seps[i] == Sep::MayStop;
        let max = base_max(bl.atom, bl.range);
        let mut legs = Vec::new();
        for (k, v) in vecs {
            let leg = if may_stop {
                let stop = if own_stop { None } else { Some(outer) };
                let Some(mut leg) = make_leg(v, max, &bl.prefix, true, stop)? else {
                    continue;
                };
                if !last {
                    leg.cont = Cont::Empty;
                }
                leg
            } else {
                let Some(leg) = make_leg(v, max, &bl.prefix, false, None)? else {
                    continue;
                };
                leg
            };
            let mut leg = leg;
            if !last {
                leg.next = build(b, i + 1, Some((k, v)), outer)?;
            }
            legs.push(leg);
        }
        Ok(legs)
    }
    for leg in build(b, 0, None, outer_stop)? {
        out.push(Path::Legs {
            initial: b.initial == Initial::Once,
            leg,
        });
    }
    Ok(())
}

// ---- normalisation ----------------------------------------------------------------------------

/// Merges legs that walk the same squares, so that `KW` or `FyafsF` visit each square once.
fn merge_legs(legs: Vec<Leg>) -> Vec<Leg> {
    let mut out: Vec<Leg> = Vec::new();
    for leg in legs {
        let same = out.iter_mut().find(|o| {
            o.step == leg.step
                && o.max == leg.max
                && o.skip == leg.skip
                && o.lame == leg.lame
                && o.jump == leg.jump
                && o.cylinder == leg.cylinder
                && o.sets_ep == leg.sets_ep
                && (o.cont == leg.cont || o.cont == Cont::Never || leg.cont == Cont::Never)
        });
        match same {
            Some(o) => {
                o.stop = Stop(o.stop.0 | leg.stop.0);
                if o.cont == Cont::Never {
                    o.cont = leg.cont;
                }
                o.next.extend(leg.next);
            }
            None => out.push(leg),
        }
    }
    for o in &mut out {
        o.next = merge_legs(std::mem::take(&mut o.next));
    }
    out
}

fn merge_paths(paths: Vec<Path>) -> Vec<Path> {
    let mut out = Vec::new();
    for initial in [false, true] {
        let legs: Vec<Leg> = paths
            .iter()
            .filter_map(|p| match p {
                Path::Legs { initial: i, leg } if *i == initial => Some(leg.clone()),
                _ => None,
            })
            .collect();
        out.extend(
            merge_legs(legs)
                .into_iter()
                .map(|leg| Path::Legs { initial, leg }),
        );
    }
    let mut castles: Vec<Path> = paths
        .into_iter()
        .filter(|p| matches!(p, Path::Castle { .. }))
        .collect();
    castles.dedup();
    out.extend(castles);
    out
}

// ---- readable form ----------------------------------------------------------------------------

fn stop_names(s: Stop) -> String {
    let names: Vec<&str> = [
        (Stop::EMPTY, "empty"),
        (Stop::ENEMY, "enemy"),
        (Stop::OWN, "own"),
        (Stop::EP, "e.p."),
    ]
    .into_iter()
    .filter(|&(b, _)| s.has(b))
    .map(|(_, n)| n)
    .collect();
    names.join("|")
}

fn describe_leg(leg: &Leg, depth: usize, out: &mut String) {
    use std::fmt::Write;
    let pad = "  ".repeat(depth);
    let reach = match leg.max {
        1 => "leap".to_string(),
        0 => "ride".to_string(),
        n => format!("ride up to {n}"),
    };
    let _ = write!(out, "{pad}{reach} ({},{})", leg.step.0, leg.step.1);
    if leg.skip > 0 {
        let _ = write!(out, " skipping {}", leg.skip);
    }
    if !leg.lame.is_empty() {
        let _ = write!(out, " if empty {:?}", leg.lame);
    }
    if !leg.jump.is_empty() {
        let _ = write!(out, " if occupied {:?}", leg.jump);
    }
    if leg.cylinder {
        out.push_str(" on a cylinder");
    }
    if leg.stop.any() {
        let _ = write!(out, ", ends on {}", stop_names(leg.stop));
    }
    if leg.sets_ep {
        out.push_str(", leaves e.p. rights");
    }
    if leg.cont != Cont::Never {
        let cond = match leg.cont {
            Cont::Empty => "empty",
            Cont::Occupied => "occupied",
            Cont::Take {
                enemy,
                own,
                empty,
                hop,
            } => match (enemy, own, empty, hop) {
                (true, false, false, false) => "an enemy's, taken",
                (true, false, true, false) => "empty or an enemy's, taken",
                (false, true, false, false) => "an own piece's, taken",
                (false, true, true, false) => "empty or an own piece's, taken",
                (true, true, false, false) => "occupied, taken",
                (_, _, false, true) => "occupied, taken or hopped",
                (_, _, true, true) => "anything, a piece taken or hopped",
                _ => "anything, a piece taken",
            },
            _ => "any",
        };
        let _ = write!(out, ", then from a square that is {cond}:");
    }
    out.push('\n');
    for n in &leg.next {
        describe_leg(n, depth + 1, out);
    }
}

/// The compiled paths, one line per leg, continuation legs indented (White's view; +y = forward).
pub fn describe(paths: &[Path]) -> String {
    let mut out = String::new();
    for p in paths {
        match p {
            Path::Castle { dir, n } => {
                out += &format!(
                    "castle {} {n} squares towards the corner piece\n",
                    if *dir > 0 { "right" } else { "left" }
                )
            }
            Path::Legs { initial, leg } => {
                if *initial {
                    out += "first move only: ";
                }
                describe_leg(leg, 0, &mut out);
            }
        }
    }
    out
}
