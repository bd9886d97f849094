//! Fairy-Max's ray encoding (xbetza.md §5.2–5.6): `step,mode[,step2]` on a 16-wide board, and an
//! interpreter of its ray loop (§5.5, after `D()` in fairymax.c) that both directions of the
//! translation are checked against.

use std::fmt;

/// One ray: the first step (board-index difference, row 0 = the last rank, so White's forward is
/// −16) and the mode word, whose bits 12–31 hold the toggle field (second step = step ^ field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ray {
    pub step: i32,
    pub mode: i32,
}

/// Board-index difference of a White step (dx to the right, dy forward).
pub fn step_of(v: (i32, i32)) -> i32 {
    v.0 - 16 * v.1
}

/// (dx, dy) of a White step; inverse of [`step_of`] for |dx| ≤ 7.
pub fn vector_of(step: i32) -> (i32, i32) {
    let dy = -(step + 8).div_euclid(16);
    (step + 16 * dy, dy)
}

impl Ray {
    /// A ray from its low mode bits (bits 0–11) and an optional different second step.
    pub fn new(step: i32, low: i32, step2: Option<i32>) -> Ray {
        let field = step2.map_or(0, |s| s ^ step);
        Ray {
            step,
            mode: (low & 0xFFF).wrapping_add(field.wrapping_shl(12)),
        }
    }

    /// The step after the toggle.
    pub fn second(self) -> i32 {
        self.step ^ (self.mode >> 12)
    }

    pub fn low(self) -> i32 {
        self.mode & 0xFFF
    }

    /// The same ray for the other colour (rotated by 180°).
    pub fn negated(self) -> Ray {
        let second = self.second();
        Ray::new(
            -self.step,
            self.low(),
            (second != self.step).then_some(-second),
        )
    }

    /// Reads `step,mode[,step2]` as Fairy-Max does (`%d,%x,%d`, mode += (step2 ^ step) << 12).
    pub fn parse(text: &str) -> Option<Ray> {
        let mut parts = text.split(',');
        let step: i32 = parts.next()?.trim().parse().ok()?;
        let mode = u32::from_str_radix(parts.next()?.trim(), 16).ok()? as i32;
        let mut mode = mode;
        if let Some(s2) = parts.next() {
            let s2: i32 = s2.trim().parse().ok()?;
            mode = mode.wrapping_add((s2 ^ step).wrapping_shl(12));
        }
        if parts.next().is_some() {
            return None;
        }
        Some(Ray { step, mode })
    }
}

impl fmt::Display for Ray {
    /// `step,MODE` or `step,MODE,step2` (the readable form Debian's fmax.ini uses for bent rays).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{:X}", self.step, self.low())?;
        if self.second() != self.step {
            write!(f, ",{}", self.second())?;
        }
        Ok(())
    }
}

/// A square's content for the interpreter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Own,
    Enemy,
}

/// A board for [`moves`]: files × ranks, `cells[rank][file]` with rank 0 = White's first rank.
#[derive(Debug, Clone)]
pub struct Board {
    pub files: i32,
    pub ranks: i32,
    pub cells: Vec<Vec<Cell>>,
}

impl Board {
    pub fn empty(files: i32, ranks: i32) -> Board {
        Board {
            files,
            ranks,
            cells: vec![vec![Cell::Empty; files as usize]; ranks as usize],
        }
    }
}

/// Destinations (file, rank, capture) of a piece on `from` moving by `rays`, given in board
/// orientation (a Black piece's rays as Fairy-Max holds them). `pawn`: Fairy-Max types 1/2. Castling
/// and en passant need game state and are not generated; `C24` is refused.
pub fn moves(
    rays: &[Ray],
    board: &Board,
    from: (i32, i32),
    moved: bool,
    pawn: bool,
) -> Result<Vec<(i32, i32, bool)>, String> {
    let bw = board.files;
    let bh = board.ranks;
    let be = (bh - 1) * 16 + bw - 1;
    let index = |f: i32, r: i32| 16 * (bh - 1 - r) + f;
    let at = |y: i32| -> Cell {
        if y == index(from.0, from.1) {
            return Cell::Own; // the mover stays on its square while Fairy-Max scans (a cylinder ray ends there)
        }
        board.cells[(bh - 1 - (y >> 4)) as usize][(y & 15) as usize]
    };
    let occupied = |y: i32| y >= 0 && y <= be && (y & 15) < bw && at(y) != Cell::Empty;
    let x = index(from.0, from.1);
    let mut out = Vec::new();
    for ray in rays {
        let (mut r, mut flag) = (ray.step, ray.mode);
        let mut rg = (flag >> 10) & 3;
        if pawn && rg > 2 && flag & 15 == 4 {
            return Err(format!(
                "ray {ray}: the C24 pawn kludge depends on the promotion table"
            ));
        }
        let mut y = x;
        for guard in 0.. {
            if guard > 64 {
                return Err(format!("ray {ray} does not end"));
            }
            y += r;
            if flag & 0x100 != 0 {
                y = if (y & 15) > 13 {
                    y + bw
                } else if (y & 15) >= bw {
                    y - bw
                } else {
                    y
                };
            }
            if y < 0 || y > be || (y & 15) >= bw {
                break;
            }
            if flag & 0x200 != 0 {
                let t2 = flag >> 12;
                if occupied(x + t2) {
                    if occupied(y - 2 * t2) || occupied(y - t2) {
                        break;
                    }
                } else if occupied(x + 2 * t2) && occupied(y - t2) {
                    break;
                }
            }
            let cell = at(y);
            let mut t = cell != Cell::Empty;
            if flag & if t { 1 } else { 2 } != 0 {
                if cell == Cell::Own {
                    break;
                }
                out.push(((y & 15), bh - 1 - (y >> 4), t));
            }
            let platform = t && (rg & 2 == 0 || cell == Cell::Own);
            let v = r ^ (flag >> 12);
            if flag & 15 != 4 || moved || (!pawn && flag & 128 == 0) {
                // Ends a leaper; a low-4 ray of a moved piece; castling (not modelled here).
                if flag & 4 != 0 {
                    t = true;
                }
            } else if flag & 64 != 0 {
                if flag & 128 != 0 {
                    t = false;
                }
                flag &= 63;
            }
            if platform && flag & 8 != 0 {
                if rg & 1 != 0 {
                    y -= r;
                }
                t = false;
                r = v;
                flag ^= (flag >> 4) & 15;
            } else if flag & 128 == 0 {
                let fire = rg == 0;
                rg -= 1;
                if fire {
                    r = v;
                    flag ^= (flag >> 4) & 15;
                }
            }
            if t {
                break;
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let r = Ray::parse("17,3,16").unwrap();
        assert_eq!(r.second(), 16);
        assert_eq!(r.to_string(), "17,3,16");
        assert_eq!(Ray::parse("17,1003").unwrap(), r);
        assert_eq!(Ray::parse("15,FFFF0003").unwrap().second(), -1);
        assert_eq!(r.negated().to_string(), "-17,3,-16");
        assert_eq!(vector_of(-15), (1, 1));
        assert_eq!(vector_of(14), (-2, -1));
        assert_eq!(vector_of(-33), (-1, 2));
        assert_eq!(step_of((1, 2)), -31);
    }

    #[test]
    fn aanca_from_f6() {
        // Debian's Grande-Acedrex aanca, White, from f6 on an empty 12x12 board: 40 squares.
        let rays: Vec<Ray> = "17,3,16 15,3,16 -15,3,-16 -17,3,-16 17,3,1 -15,3,1 -17,3,-1 15,3,-1"
            .split_whitespace()
            .map(|t| Ray::parse(t).unwrap())
            .collect();
        let m = moves(&rays, &Board::empty(12, 12), (5, 5), false, false).unwrap();
        assert_eq!(m.len(), 40);
    }
}
