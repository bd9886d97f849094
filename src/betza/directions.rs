//! What direction letters select, per symmetry class (xbetza.md §2.3): the meaning shared by the leg
//! compiler and the XBoard-dialect printer. Sets are bit masks over 8 direction indices: the compass
//! (0 f, 1 fr, 2 r, 3 br, 4 b, 5 bl, 6 l, 7 fl) for orthogonal, diagonal and K/Q atoms, and the oblique
//! order (0 rf, 1 fr, 2 br, 3 rb, 4 lb, 5 bl, 6 fl, 7 lf) for N-like atoms.

use super::ast::{Class, Dir, DirLetter};

/// Compass index k (0 f, 1 fr, 2 r, ... 7 fl) → unit vector.
pub const COMPASS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Oblique index (0 rf, 1 fr, 2 br, 3 rb, 4 lb, 5 bl, 6 fl, 7 lf) → vector of an (a,b) leaper, a > b.
pub fn oblique(a: i8, b: i8, k: usize) -> (i8, i8) {
    [
        (b, a),
        (a, b),
        (a, -b),
        (b, -a),
        (-b, -a),
        (-a, -b),
        (-a, b),
        (-b, a),
    ][k % 8]
}

pub type Set = u8; // bit k = direction index k

pub fn bits(ks: &[usize]) -> Set {
    ks.iter().fold(0, |s, &k| s | 1 << k)
}

pub const ALL: Set = 0xFF;

pub fn compass_single(l: DirLetter) -> Set {
    match l {
        DirLetter::F => bits(&[0]),
        DirLetter::R => bits(&[2]),
        DirLetter::B => bits(&[4]),
        DirLetter::L => bits(&[6]),
        DirLetter::V => bits(&[0, 4]),
        DirLetter::S => bits(&[2, 6]),
        DirLetter::H => ALL,
    }
}

pub fn compass_cone(l: DirLetter) -> Set {
    let cone = |k: usize| bits(&[(k + 7) % 8, k, (k + 1) % 8]);
    match l {
        DirLetter::F => cone(0),
        DirLetter::R => cone(2),
        DirLetter::B => cone(4),
        DirLetter::L => cone(6),
        DirLetter::V => cone(0) | cone(4),
        DirLetter::S => cone(2) | cone(6),
        DirLetter::H => ALL,
    }
}

/// Direction set selected by one token, for an atom of class `class` (xbetza.md §2.3).
pub fn token_set(class: Class, d: Dir) -> Set {
    use DirLetter as L;
    match class {
        Class::Orthogonal => d
            .letters()
            .iter()
            .fold(0, |s, &l| s | if l == L::H { 0 } else { compass_single(l) }),
        Class::Diagonal => {
            let one = |l: L| match l {
                L::F => bits(&[7, 1]),
                L::B => bits(&[3, 5]),
                L::L => bits(&[5, 7]),
                L::R => bits(&[1, 3]),
                L::V | L::S | L::H => bits(&[1, 3, 5, 7]),
            };
            match d {
                Dir::Pair(x, y) => one(x) & one(y),
                _ => match d.letters()[0] {
                    L::H => 0,
                    l => one(l),
                },
            }
        }
        Class::Compass => match d {
            Dir::Pair(x, y) if x == y => compass_single(x),
            Dir::Pair(x, L::H) => compass_cone(x),
            Dir::Pair(L::H, y) => compass_cone(y),
            Dir::Pair(x, y) => compass_cone(x) & compass_cone(y),
            _ => compass_single(d.letters()[0]),
        },
        Class::Oblique => {
            let narrow = |l: L| match l {
                L::F => bits(&[0, 7]),
                L::B => bits(&[3, 4]),
                L::R => bits(&[1, 2]),
                L::L => bits(&[5, 6]),
                L::V => bits(&[0, 7, 3, 4]),
                L::S => bits(&[1, 2, 5, 6]),
                L::H => ALL,
            };
            let wide = |l: L| match l {
                L::F => bits(&[0, 1, 6, 7]),
                L::B => bits(&[2, 3, 4, 5]),
                L::R => bits(&[0, 1, 2, 3]),
                L::L => bits(&[4, 5, 6, 7]),
                L::V | L::S | L::H => ALL,
            };
            match d {
                Dir::Pair(x, y) if x == y => narrow(x),
                Dir::Pair(L::H, L::R) => bits(&[0, 2, 4, 6]),
                Dir::Pair(L::H, L::L) => bits(&[1, 3, 5, 7]),
                Dir::Pair(x, L::H) => wide(x),
                Dir::Pair(x, y) => wide(x) & narrow(y),
                _ => narrow(d.letters()[0]),
            }
        }
    }
}

pub fn dir_set(class: Class, dirs: &[Dir], default: Set) -> Set {
    if dirs.is_empty() {
        default
    } else {
        dirs.iter().fold(0, |s, &d| s | token_set(class, d))
    }
}

/// Squares a lame leaper passes (FSF's lame path: along the longer axis until the rest is diagonal).
pub fn lame_path(v: (i8, i8)) -> Vec<(i8, i8)> {
    let (mut x, mut y) = (0i8, 0i8);
    let mut out = Vec::new();
    while (x, y) != v {
        let (rx, ry) = (v.0 - x, v.1 - y);
        let step = if rx.abs() == ry.abs() {
            (rx.signum(), ry.signum())
        } else if rx.abs() > ry.abs() {
            (rx.signum(), 0)
        } else {
            (0, ry.signum())
        };
        x += step.0;
        y += step.1;
        if (x, y) != v {
            out.push((x, y));
        }
    }
    out
}
