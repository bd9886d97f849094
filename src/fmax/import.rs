//! Fairy-Max `fmax.ini` → acedrex variant files, one per `Game:` block.
//!
//! Rays are decompiled into XBetza (White's view): leapers and sliders into atoms with direction
//! letters, bent rays into brackets, lame rays into `n`, special modes into `i` moves and castling,
//! hoppers into `p`/`g`. A block using something with no acedrex reading (multi-path, bifurcators,
//! king-of-the-hill, gating, expendable royalty, ...) is reported, not guessed.

use super::rays::{Ray, vector_of};
use crate::betza::directions::COMPASS;
use crate::betza::xboard::{direction_text, relative_text};
use crate::betza::{Atom, Class};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// A bent ray: first step and second step, White's view.
type Bent = ((i32, i32), (i32, i32));

/// Reads an fmax.ini. Returns (file name, variant file text) per translated `Game:` block, and one
/// line per block that was not translated, with the reason.
pub fn import(text: &str) -> (Vec<(String, String)>, Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut files: Vec<(String, String)> = Vec::new();
    let mut skipped = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(header) = line.strip_prefix("Game:") else {
            continue;
        };
        let fields: Vec<&str> = header.split('#').map(str::trim).collect();
        let name = fields[0]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string();
        let description = i
            .checked_sub(1)
            .map(|j| lines[j])
            .filter(|l| l.starts_with("//"))
            .map(|l| l.trim_start_matches('/').trim());
        let parent = fields.get(2).copied().filter(|p| !p.is_empty());
        match block(&name, parent, description, &lines[i + 1..]) {
            Ok(text) => {
                let mut file = sanitize(&name);
                let base = file.clone();
                let mut n = 2;
                while files.iter().any(|(f, _)| *f == format!("{file}.txt")) {
                    file = format!("{base}-{n}");
                    n += 1;
                }
                files.push((format!("{file}.txt"), text.replace('\u{0}', &file)));
            }
            Err(why) => skipped.push(format!("{name}: {why}")),
        }
    }
    (files, skipped)
}

/// A variant name acedrex accepts: lower case, `[a-z0-9_-]`.
fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    s.trim_matches('-').to_string()
}

struct FmType {
    letter: char,
    value: i32,
    rays: Vec<Ray>,
}

fn block(
    name: &str,
    parent: Option<&str>,
    description: Option<&str>,
    rest: &[&str],
) -> Result<String, String> {
    if name == "seirawan" {
        return Err(
            "Seirawan gating is switched on by the name in fairymax.c; acedrex has no gating"
                .into(),
        );
    }
    let mut it = rest.iter().map(|l| l.trim()).filter(|l| !l.is_empty());
    let board = it.next().ok_or("no board line")?;
    let (size, zone_text) = board
        .split_once('=')
        .map_or((board, None), |(a, b)| (a, Some(b)));
    let (w, h) = size.split_once('x').ok_or("bad board line")?;
    let (files, ranks): (usize, usize) = (
        w.trim().parse().map_err(|_| "bad width")?,
        h.trim().parse().map_err(|_| "bad height")?,
    );
    let n: i32 = zone_text
        .map_or(Ok(1), |z| z.trim().parse())
        .map_err(|_| "bad zone")?;
    let (mut zone, mut prank) = (n - 1, if n - 1 != 0 { n - 1 } else { 1 });
    if zone < 0 {
        prank = -1 - zone;
        zone = 0;
    }
    if prank < 1 || prank as usize * 2 + 2 > ranks {
        return Err(format!("pawn rank {} does not fit the board", prank + 1));
    }
    let setup = |line: Option<&&str>| -> Result<Vec<usize>, String> {
        let v: Vec<usize> = line
            .ok_or("missing setup line")?
            .split_whitespace()
            .map(|t| t.parse().map_err(|_| format!("bad setup number {t}")))
            .collect::<Result<_, _>>()?;
        if v.len() != files {
            return Err(format!(
                "a setup line has {} numbers for {files} files",
                v.len()
            ));
        }
        Ok(v)
    };
    let white_setup = setup(it.next().as_ref())?;
    let black_setup = setup(it.next().as_ref())?;
    let mut types: Vec<FmType> = vec![FmType {
        letter: ' ',
        value: 0,
        rays: vec![],
    }];
    for line in it {
        let mut toks = line.split_whitespace();
        let Some(first) = toks.next() else { continue };
        let Some((c, value)) = first
            .split_once(':')
            .filter(|(c, _)| c.chars().count() == 1)
        else {
            break;
        };
        let value: i32 = value
            .parse()
            .map_err(|_| format!("bad value in `{line}`"))?;
        let rays: Vec<Ray> = toks
            .map(|t| Ray::parse(t).ok_or_else(|| format!("bad ray `{t}`")))
            .collect::<Result<_, _>>()?;
        types.push(FmType {
            letter: c.chars().next().expect("one char").to_ascii_uppercase(),
            value,
            rays,
        });
    }
    let count = types.len() - 1;
    if count < 2 {
        return Err("fewer than two piece types (Fairy-Max's types 1 and 2 are the pawns)".into());
    }
    if types.get(3).is_some_and(|t| t.value == -2) {
        return Err("type 3 with value -2 is Fairy-Max's king-of-the-hill rule".into());
    }
    if let Some(t) = types.iter().find(|t| t.value <= -666) {
        return Err(format!(
            "piece {} is an iron (uncapturable) piece",
            t.letter
        ));
    }
    for &t in white_setup.iter().chain(&black_setup) {
        if t > count {
            return Err(format!(
                "the setup uses piece type {t}, but only {count} are defined"
            ));
        }
    }
    let stalemate_loses = types.get(9).is_some_and(|t| t.value == -2);

    // Which (type, colour) can occur: setup, pawns, promotion (7, or 9 for Black by the pm rule,
    // or by file), and every letter a player may type as promotion choice.
    let promotable = |t: usize| t > 2 && types[t].value != -1 && types[t].value % 10 != 3;
    let white_type = |c: char| (1..=count).find(|&t| types[t].letter == c);
    let black_type = |c: char| (1..=count).rev().find(|&t| types[t].letter == c);
    let mut uses: BTreeSet<(usize, bool)> = BTreeSet::new();
    uses.extend(white_setup.iter().filter(|&&t| t > 0).map(|&t| (t, true)));
    uses.extend(black_setup.iter().filter(|&&t| t > 0).map(|&t| (t, false)));
    uses.insert((1, true));
    uses.insert((2, false));
    let by_file = prank == 3;
    let white_default = if by_file { None } else { Some(7) };
    let pm = !black_setup.contains(&7) && black_setup.contains(&9) && white_setup.contains(&7);
    let black_default = if by_file {
        None
    } else if pm {
        Some(9)
    } else {
        Some(7)
    };
    let mut optional: BTreeSet<(usize, bool)> = BTreeSet::new();
    if !by_file {
        for t in [white_default, black_default].into_iter().flatten() {
            if t > count {
                return Err(format!("pawns promote to type {t}, which is not defined"));
            }
        }
        uses.insert((7, true));
        uses.insert((black_default.expect("set"), false));
        for t in (3..=count).filter(|&t| promotable(t)) {
            {
                let c = types[t].letter;
                optional.insert((white_type(c).expect("exists"), true));
                optional.insert((black_type(c).expect("exists"), false));
            }
        }
    }

    // Each use as White-view rays; distinct ray sets under one letter get fresh letters.
    let view = |t: usize, white: bool| -> Vec<Ray> {
        let mut r: Vec<Ray> = if white {
            types[t].rays.clone()
        } else {
            types[t].rays.iter().map(|r| r.negated()).collect()
        };
        r.sort();
        r.dedup();
        r
    };
    struct Piece {
        letter: char,
        rays: Vec<Ray>,
        betza: String,
        value: i32,
        royal: bool,
    }
    let mut pieces: Vec<Piece> = Vec::new();
    let mut piece_of: BTreeMap<(usize, bool), usize> = BTreeMap::new();
    let mut dropped: Vec<String> = Vec::new();
    let mut used_letters: BTreeSet<char> = types.iter().map(|t| t.letter).collect();
    let all: Vec<((usize, bool), bool)> = uses
        .iter()
        .map(|&u| (u, true))
        .chain(
            optional
                .iter()
                .filter(|u| !uses.contains(u))
                .map(|&u| (u, false)),
        )
        .collect();
    for ((t, white), required) in all {
        let rays = view(t, white);
        if let Some(i) = pieces
            .iter()
            .position(|p| p.rays == rays && p.value == types[t].value)
        {
            piece_of.insert((t, white), i);
            continue;
        }
        let betza = match decompile(&rays, t <= 2) {
            Ok(b) => b,
            Err(why) if required => {
                return Err(format!("piece {} (type {t}): {why}", types[t].letter));
            }
            Err(why) => {
                dropped.push(format!(
                    "piece {} (type {t}, a promotion choice only): {why}",
                    types[t].letter
                ));
                continue;
            }
        };
        let mut letter = types[t].letter;
        if pieces.iter().any(|p| p.letter == letter) {
            letter = ('A'..='Z')
                .find(|c| !used_letters.contains(c))
                .ok_or("more than 26 piece kinds")?;
            used_letters.insert(letter);
        }
        piece_of.insert((t, white), pieces.len());
        pieces.push(Piece {
            letter,
            rays,
            betza,
            value: types[t].value,
            royal: types[t].value < 0,
        });
    }
    if piece_of[&(1, true)] != piece_of[&(2, false)] {
        return Err(
            "the Black pawn (type 2) does not move as the White pawn (type 1) turned round".into(),
        );
    }
    let royals: Vec<&Piece> = pieces.iter().filter(|p| p.royal).collect();
    if royals.len() != 1 {
        return Err(format!(
            "{} royal piece kinds; acedrex has exactly one",
            royals.len()
        ));
    }
    for (setup, white) in [(&white_setup, true), (&black_setup, false)] {
        let kings = setup
            .iter()
            .filter(|&&t| t > 0 && piece_of.get(&(t, white)).is_some_and(|&i| pieces[i].royal))
            .count();
        if kings > 1 && royals[0].value < -4 {
            return Err("several expendable royal pieces per side (lose with the last)".into());
        }
    }

    // Start position.
    let letter_of = |t: usize, white: bool| -> char {
        let c = pieces[piece_of[&(t, white)]].letter;
        if white { c } else { c.to_ascii_lowercase() }
    };
    let rank = |row: Vec<Option<char>>| -> String {
        let mut s = String::new();
        let mut empty = 0;
        for c in row {
            match c {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        let _ = write!(s, "{empty}");
                        empty = 0;
                    }
                    s.push(c);
                }
            }
        }
        if empty > 0 {
            let _ = write!(s, "{empty}");
        }
        s
    };
    let pr = prank as usize;
    let mut rows: Vec<String> = Vec::new(); // rank `ranks` first
    for r in (0..ranks).rev() {
        let row: Vec<Option<char>> = (0..files)
            .map(|f| {
                if r == 0 {
                    (white_setup[f] > 0).then(|| letter_of(white_setup[f], true))
                } else if r == ranks - 1 {
                    (black_setup[f] > 0).then(|| letter_of(black_setup[f], false))
                } else if r == pr {
                    Some(letter_of(1, true))
                } else if r == ranks - 1 - pr {
                    Some(letter_of(2, false))
                } else {
                    None
                }
            })
            .collect();
        rows.push(rank(row));
    }
    let royal = royals[0];
    let castles = royal.betza.contains('O');
    let royal_initial = royal.rays.iter().any(|r| r.low() & 0xF == 4);
    let rights = if castles {
        "KQkq"
    } else if royal_initial {
        "Kk"
    } else {
        "-"
    };

    // Promotion.
    let pawn = pieces[piece_of[&(1, true)]].letter;
    let promotion = if by_file {
        let letters: String = (0..files)
            .map(|f| {
                let t = if f > 0 && white_setup[f] > 0 && types[white_setup[f]].value < 0 {
                    white_setup[f - 1]
                } else {
                    white_setup[f]
                };
                if t == 0 {
                    Err(format!(
                        "file {} starts empty, so its pawn promotion is undefined",
                        (b'a' + f as u8) as char
                    ))
                } else {
                    Ok(letter_of(t, true))
                }
            })
            .collect::<Result<_, _>>()?;
        format!("promotion {pawn} zone {} by-file {letters}", zone + 1)
    } else {
        let mut letters = vec![letter_of(7, true)];
        for &(t, white) in &optional {
            if let Some(&i) = piece_of.get(&(t, white)) {
                let c = pieces[i].letter;
                if !letters.contains(&c) && !pieces[i].royal && c != pawn {
                    letters.push(c);
                }
            }
        }
        format!(
            "promotion {pawn} zone {} choice {}",
            zone + 1,
            letters.into_iter().collect::<String>()
        )
    };

    // The file.
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Imported from Fairy-Max's fmax.ini, block `Game: {name}` (acedrex fmax-import)."
    );
    for d in &dropped {
        let _ = writeln!(out, "# Left out: {d}");
    }
    out += "variant \u{0}\n";
    // acedrex's XBoard names are lower case; Fairy-Max lists only such names anyway.
    let _ = writeln!(out, "xboard \u{0} {}", parent.unwrap_or("fairy"));
    if let Some(d) = description.filter(|d| !d.is_empty()) {
        let _ = writeln!(out, "description {d}");
    }
    let _ = writeln!(out, "board {files}x{ranks}");
    let mut names: BTreeSet<String> = BTreeSet::new();
    for p in &pieces {
        let mut pname = if p.letter == pawn {
            Some("pawn".to_string())
        } else {
            piece_name(&p.betza, p.royal)
        }
        .unwrap_or_else(|| format!("piece-{}", p.letter.to_ascii_lowercase()));
        if !names.insert(pname.clone()) {
            pname = format!("{pname}-{}", p.letter.to_ascii_lowercase());
            names.insert(pname.clone());
        }
        let _ = write!(out, "piece {} {pname} {}", p.letter, p.betza);
        if p.royal {
            out += " royal";
        } else {
            let _ = write!(out, " value {}", p.value);
        }
        out.push('\n');
    }
    let _ = writeln!(out, "start {} w {rights} - 0 1", rows.join("/"));
    let _ = writeln!(out, "{promotion}");
    out += "castling through-check no\nroyal-initial-moves free\n";
    let _ = writeln!(
        out,
        "stalemate {}",
        if stalemate_loses {
            "stalemated-loses"
        } else {
            "draw"
        }
    );
    out += "bare-king off\nrepetition 3\nmove-count 100\n";
    Ok(out)
}

fn piece_name(betza: &str, royal: bool) -> Option<String> {
    if royal {
        return Some("king".into());
    }
    let n = match betza {
        "N" => "knight",
        "B" => "bishop",
        "R" => "rook",
        "Q" => "queen",
        "F" => "ferz",
        "W" => "wazir",
        "A" => "alfil",
        "D" => "dabbaba",
        "K" => "commoner",
        "BN" | "NB" => "archbishop",
        "RN" | "NR" => "chancellor",
        "Z" => "zebra",
        "C" => "camel",
        _ => return None,
    };
    Some(n.into())
}

// ---- rays → XBetza ---------------------------------------------------------------------------

/// An (a,b) leap vector (a ≥ b) → atom letter.
fn atom_of(a: i32, b: i32) -> Atom {
    match (a, b) {
        (1, 0) => Atom::Letter('W'),
        (1, 1) => Atom::Letter('F'),
        (2, 0) => Atom::Letter('D'),
        (2, 1) => Atom::Letter('N'),
        (2, 2) => Atom::Letter('A'),
        (3, 0) => Atom::Letter('H'),
        (3, 1) => Atom::Letter('C'),
        (3, 2) => Atom::Letter('Z'),
        (3, 3) => Atom::Letter('G'),
        _ => Atom::Pair(a as u8, b as u8),
    }
}

/// (atom, direction index in the atom's own numbering) of a White step.
fn classify(v: (i32, i32)) -> (Atom, u8) {
    let (dx, dy) = v;
    let (a, b) = (dx.abs().max(dy.abs()), dx.abs().min(dy.abs()));
    let atom = atom_of(a, b);
    let k = if b == 0 || a == b {
        COMPASS
            .iter()
            .position(|&(x, y)| (i32::from(x), i32::from(y)) == (dx.signum(), dy.signum()))
            .expect("non-zero") as u8
    } else {
        (0..8)
            .position(|k| {
                let (x, y) = crate::betza::directions::oblique(a as i8, b as i8, k);
                (i32::from(x), i32::from(y)) == (dx, dy)
            })
            .expect("oblique") as u8
    };
    (atom, k)
}

fn compass(v: (i32, i32)) -> Option<u8> {
    let (a, b) = (v.0.abs(), v.1.abs());
    if !(a == b || a == 0 || b == 0) || (a == 0 && b == 0) {
        return None;
    }
    Some(classify(v).1)
}

fn stop_letters(bits: i32) -> &'static str {
    match bits & 3 {
        1 => "c",
        2 => "m",
        _ => "",
    }
}

/// A family of moves that share everything but their direction.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    /// Text before the direction letters (`i`).
    pre: String,
    /// Modality letters after the direction letters.
    mods: String,
    /// Atom letter or `(a,b)`.
    atom: String,
    class: u8,
    /// Range suffix.
    range: String,
}

fn class_code(c: Class) -> u8 {
    match c {
        Class::Orthogonal => 0,
        Class::Diagonal => 1,
        Class::Oblique => 2,
        Class::Compass => 3,
    }
}

fn class_of(code: u8) -> Class {
    [
        Class::Orthogonal,
        Class::Diagonal,
        Class::Oblique,
        Class::Compass,
    ][code as usize]
}

/// Decompiles one piece's White-view rays into XBetza.
pub(crate) fn decompile(rays: &[Ray], pawn: bool) -> Result<String, String> {
    let mut families: BTreeMap<Key, u8> = BTreeMap::new();
    let mut add = |pre: &str, mods: String, v: (i32, i32), range: String| {
        let (atom, k) = classify(v);
        let key = Key {
            pre: pre.into(),
            mods,
            atom: atom.to_string(),
            class: class_code(atom.class()),
            range,
        };
        *families.entry(key).or_default() |= 1 << k;
    };
    let mut bent: BTreeMap<(i32, i32), Vec<Bent>> = BTreeMap::new();
    let mut castles: Vec<((i32, i32), (i32, i32))> = Vec::new();
    for &ray in rays {
        let low = ray.low() & 0xF;
        let tog = (ray.low() >> 4) & 0xF;
        let count = (ray.low() >> 10) & 3;
        let cyl = ray.low() & 0x100 != 0;
        let u = vector_of(ray.step);
        let v = vector_of(ray.second());
        if ray.low() & 0x200 != 0 {
            return Err(format!(
                "ray {ray}: multi-path moves (the Falcon) have no XBetza reading here"
            ));
        }
        let o = if cyl { "o" } else { "" };
        if cyl && !(low & 8 == 0 && low != 4 && (low & 4 != 0 || (tog == 0 && count == 0))) {
            return Err(format!(
                "ray {ray}: only plain leaps and slides can be cylindrical here"
            ));
        }
        match low {
            5..=7 => add("", format!("{}{o}", stop_letters(low)), u, String::new()),
            1..=3 if tog == 0 && count == 0 && v == u => {
                add("", format!("{}{o}", stop_letters(low)), u, "0".into())
            }
            1..=3 if tog == 4 && v == u => {
                add("", stop_letters(low).into(), u, (count + 2).to_string())
            }
            0 if tog == 0 => {}
            0..=3 if tog & 8 == 0 => {
                let l2 = low ^ tog;
                let k = count + 1;
                if low == 0 && l2 & 4 != 0 {
                    // Lame leap: k empty squares along u, then v.
                    let total = (u.0 * k + v.0, u.1 * k + v.1);
                    let path: Vec<(i32, i32)> = (1..=k).map(|i| (u.0 * i, u.1 * i)).collect();
                    if lame_path(total) != path {
                        return Err(format!("ray {ray}: a lame leap off the reference path"));
                    }
                    add("", format!("{}n", stop_letters(l2)), total, String::new());
                } else if k == 1 && l2 & 8 == 0 {
                    if compass(v).is_none() {
                        return Err(format!(
                            "ray {ray}: a continuation that is not a single step or straight slide"
                        ));
                    }
                    bent.entry((low, l2)).or_default().push((u, v));
                } else {
                    return Err(format!(
                        "ray {ray}: a path that turns after more than one step is not translated"
                    ));
                }
            }
            8..=11 if tog & 8 != 0 && count == 0 => {
                let l2 = low ^ tog;
                if v != u {
                    return Err(format!(
                        "ray {ray}: a hop that changes direction (bifurcator)"
                    ));
                }
                if low & 3 != 0 {
                    add("", stop_letters(low).into(), u, "0".into());
                }
                let kind = if l2 & 4 != 0 { "g" } else { "p" };
                add("", format!("{}{kind}", stop_letters(l2)), u, "0".into());
            }
            4 => match tog {
                2 if pawn && count == 0 => add("i", "mn".into(), (2 * u.0, 2 * u.1), String::new()),
                2 if pawn && count == 1 => add("i", "mn".into(), (3 * u.0, 3 * u.1), String::new()),
                2 | 3 if !pawn && count == 0 => castles.push((u, v)),
                0xE | 0xF if count == 0 => {
                    let total = (u.0 + v.0, u.1 + v.1);
                    add(
                        "i",
                        if tog == 0xE { "m" } else { "" }.into(),
                        total,
                        String::new(),
                    );
                }
                _ => {
                    return Err(format!(
                        "ray {ray}: a special mode without an XBetza reading (e.g. the C24 pawn kludge)"
                    ));
                }
            },
            _ => return Err(format!("ray {ray}: mode {:X} is not translated", ray.low())),
        }
    }
    let mut out = String::new();
    // Castling (§5.6): the king lands on u + v, u a sideways step; `isO2` when both sides agree.
    let mut left: Vec<i32> = Vec::new();
    let mut right: Vec<i32> = Vec::new();
    for &(u, v) in &castles {
        if u.1 != 0 || v.1 != 0 || u.0.abs() != 1 || v.0 * u.0 <= 0 || v.0.abs() > 3 {
            return Err("castling other than 2 to 4 squares sideways".into());
        }
        let n = 1 + v.0.abs();
        if u.0 < 0 { left.push(n) } else { right.push(n) }
    }
    // K and Q for full W+F (R+B) families with the same letters.
    let mut merged: BTreeSet<Key> = BTreeSet::new();
    let mut text_parts: Vec<(Key, String)> = Vec::new();
    for (key, &set) in &families {
        let pair = match (key.atom.as_str(), key.range.as_str()) {
            ("W", "") => Some(("F", "", "K")),
            ("W", "0") => Some(("F", "0", "Q")),
            _ => None,
        };
        if let Some((other, range, both)) = pair {
            let other_key = Key {
                atom: other.into(),
                class: 1,
                range: range.into(),
                ..key.clone()
            };
            if set == 0b0101_0101 && families.get(&other_key) == Some(&0b1010_1010) {
                merged.insert(key.clone());
                merged.insert(other_key);
                text_parts.push((key.clone(), format!("{}{}{both}", key.pre, key.mods)));
            }
        }
    }
    for (key, &set) in &families {
        if merged.contains(key) {
            continue;
        }
        let (atom, range) = match (key.atom.as_str(), key.range.as_str()) {
            ("W", "0") => ("R".to_string(), String::new()),
            ("F", "0") => ("B".to_string(), String::new()),
            (a, r) => (a.to_string(), r.to_string()),
        };
        let dirs = direction_text(class_of(key.class), set);
        text_parts.push((
            key.clone(),
            format!("{}{dirs}{}{atom}{range}", key.pre, key.mods),
        ));
    }
    // Plain moves first, then initial ones.
    text_parts.sort_by_key(|(k, _)| k.pre.clone());
    for (_, t) in &text_parts {
        out += t;
    }
    for ((leg1, leg2), pairs) in &bent {
        out += &bracket_text(*leg1, *leg2, pairs)?;
    }
    match (left.as_slice(), right.as_slice()) {
        ([], []) => {}
        ([l], [r]) if l == r => {
            let _ = write!(out, "isO{l}");
        }
        _ => {
            for l in left {
                let _ = write!(out, "ilO{l}");
            }
            for r in right {
                let _ = write!(out, "irO{r}");
            }
        }
    }
    if out.is_empty() {
        return Err("a piece without moves".into());
    }
    Ok(out)
}

/// The reference lame path of a leap (squares passed, not the target).
fn lame_path(v: (i32, i32)) -> Vec<(i32, i32)> {
    crate::betza::directions::lame_path((v.0 as i8, v.1 as i8))
        .into_iter()
        .map(|(x, y)| (x as i32, y as i32))
        .collect()
}

/// Outward continuations (unit compass indices) of a W/F-type atom after vector `u` (§2.9).
fn outward(diagonal: bool, u: (i32, i32)) -> BTreeSet<u8> {
    let cands: [u8; 4] = if diagonal { [1, 3, 5, 7] } else { [0, 2, 4, 6] };
    let cos = |k: u8| {
        let w = COMPASS[k as usize];
        let w = (i32::from(w.0), i32::from(w.1));
        f64::from(u.0 * w.0 + u.1 * w.1)
            / (f64::from(w.0).hypot(f64::from(w.1)) * f64::from(u.0).hypot(f64::from(u.1)))
    };
    let best = cands.iter().map(|&k| cos(k)).fold(f64::MIN, f64::max);
    cands
        .into_iter()
        .filter(|&k| cos(k) > best - 1e-9)
        .collect()
}

/// Bent rays (first step u with stop bits `l1`, then v with mode `l2`) as brackets: the outward
/// form where it fits, else one bracket per group of first steps with the same relative turns.
fn bracket_text(l1: i32, l2: i32, pairs: &[Bent]) -> Result<String, String> {
    let sep = if l1 & 3 == 0 { "-" } else { "?" };
    let m1 = stop_letters(l1);
    let m2 = stop_letters(l2);
    let slider = l2 & 4 == 0;
    let second = |diag: bool| match (diag, slider) {
        (false, false) => 'W',
        (true, false) => 'F',
        (false, true) => 'R',
        (true, true) => 'B',
    };
    let mut out = String::new();
    // Group by first-step atom and second-step class.
    let mut by_atom: BTreeMap<(String, bool), Vec<Bent>> = BTreeMap::new();
    for &(u, v) in pairs {
        let diag = v.0 != 0 && v.1 != 0;
        by_atom
            .entry((classify(u).0.to_string(), diag))
            .or_default()
            .push((u, v));
    }
    for ((atom_text, diag), list) in by_atom {
        let atom = classify(list[0].0).0;
        let class = atom.class();
        let (a, b) = atom.vector().expect("leap");
        let (a, b) = (i32::from(a), i32::from(b));
        // Every first step of the atom and its outward continuations.
        let all_u: Vec<(i32, i32)> = (-a..=a)
            .flat_map(|x| (-a..=a).map(move |y| (x, y)))
            .filter(|&(x, y)| (x.abs().max(y.abs()), x.abs().min(y.abs())) == (a, b))
            .collect();
        let mut want: BTreeSet<((i32, i32), u8)> = BTreeSet::new();
        for &u in &all_u {
            for k in outward(diag, u) {
                want.insert((u, k));
            }
        }
        let have: BTreeSet<((i32, i32), u8)> = list
            .iter()
            .map(|&(u, v)| (u, compass(v).expect("checked")))
            .collect();
        if want == have {
            let _ = write!(out, "[{m1}{atom_text}{sep}{m2}{}]", second(diag));
            continue;
        }
        // Per first step: the turn relative to its own direction index (legs numbering).
        let mut groups: BTreeMap<u8, u8> = BTreeMap::new(); // relative turns -> set of first-step indices
        let mut by_u: BTreeMap<u8, u8> = BTreeMap::new();
        for &(u, k) in &have {
            let (_, ku) = classify(u);
            *by_u.entry(ku).or_default() |= 1 << ((k + 8 - ku) % 8);
        }
        for (ku, turns) in by_u {
            *groups.entry(turns).or_default() |= 1 << ku;
        }
        for (turns, firsts) in groups {
            let dirs = direction_text(class, firsts);
            let _ = write!(
                out,
                "[{dirs}{m1}{atom_text}{sep}{}{m2}{}]",
                relative_text(turns),
                second(diag)
            );
        }
    }
    Ok(out)
}
