//! Regions compiled for one piece type: the cells its moves may end on (`confine`), the cells where
//! it moves by other Betza (`in REGION BETZA`) with that program, and exact attack tables for both
//! forms. The piece's own `attacks` then hold their union (and a royal's facing lines), which is what
//! the filters that only ask "may this attack?" need.

use super::exec::{self, AttackTable, Program};
use crate::geometry::{CELLS, cell};
use crate::legs::{Cont, Leg, Path, Stop};
use crate::side::Side;
use crate::variant::{Region, Variant};

#[derive(Debug, Clone)]
pub struct RegionTables {
    /// Per side (0 White, 1 Black): cells the piece's moves and attacks may end on.
    pub confine: Option<[Box<[bool]>; 2]>,
    /// Per side: cells on which the piece moves by `program` instead of its own.
    pub cells: Option<[Box<[bool]>; 2]>,
    pub program: [Program; 2],
    /// Exact attacks outside `cells` (the piece's own moves) and inside them.
    pub attacks: [AttackTable; 2],
    /// Inside `cells`; for a piece with `along` moves, its own moves and those together.
    pub in_attacks: [AttackTable; 2],
    /// `along REGION BETZA`: per side, the region's cells, and the program run from them.
    pub along: Option<Along>,
    /// Per piece kind: the piece's moves never pass over it (`no-jump-over`); empty when none.
    pub no_jump_over: Vec<bool>,
    /// Per piece kind: the piece never captures it (`no-capture`); empty when none.
    pub no_capture: Vec<bool>,
}

/// Extra moves along a region: run from its cells, kept when they pass and end on them.
#[derive(Debug, Clone)]
pub struct Along {
    pub cells: [Box<[bool]>; 2],
    pub program: [Program; 2],
}

impl RegionTables {
    /// Whether an `along` move of `side` from `from` to `to` keeps to the region: both ends on its
    /// cells, and on a line every square between them too.
    pub fn along_path(&self, side: Side, from: u16, to: u16) -> bool {
        let Some(a) = &self.along else { return false };
        let cells = &a.cells[side.index()];
        cells[from as usize] && cells[to as usize] && between(from, to).all(|sq| cells[sq as usize])
    }

    /// Whether a move from `from` to `to` passes over a piece kind it may not (`kind_at` tells
    /// what stands on a cell).
    pub fn jumps_forbidden(
        &self,
        from: u16,
        to: u16,
        kind_at: impl Fn(u16) -> Option<usize>,
    ) -> bool {
        !self.no_jump_over.is_empty()
            && between(from, to).any(|sq| kind_at(sq).is_some_and(|k| self.no_jump_over[k]))
    }

    /// Whether the piece may not capture a piece of kind `k`.
    pub fn spares(&self, k: usize) -> bool {
        self.no_capture.get(k).copied().unwrap_or(false)
    }
}

/// The cells strictly between two cells on one file, rank or diagonal (none otherwise).
pub fn between(from: u16, to: u16) -> impl Iterator<Item = u16> {
    let (dx, dy) = crate::geometry::delta(from, to);
    let (dx, dy) = (i16::from(dx), i16::from(dy));
    let n = dx.abs().max(dy.abs());
    let line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
    let step = dx.signum() + dy.signum() * crate::geometry::STRIDE;
    (1..if line { n } else { 1 }).map(move |i| (from as i16 + i * step) as u16)
}

fn mask(v: &Variant, region: &Region) -> [Box<[bool]>; 2] {
    let one = |side: Side| {
        let mut m = vec![false; CELLS];
        for f in 0..v.files {
            for r in 0..v.ranks {
                m[cell(f, r) as usize] = region.contains(side, (f, r), v.ranks);
            }
        }
        m.into_boxed_slice()
    };
    [one(Side::White), one(Side::Black)]
}

/// The lines along which a royal piece attacks another under `facing-royals forbidden`: forward and
/// back along its file, to the first piece. Only the filters read these; the check test has its own.
pub fn facing_paths() -> Vec<Path> {
    [(0, 1), (0, -1)]
        .into_iter()
        .map(|step| Path::Legs {
            initial: false,
            leg: Leg {
                step,
                max: 0,
                skip: 0,
                lame: vec![],
                jump: vec![],
                stop: Stop(Stop::ENEMY),
                cont: Cont::Never,
                next: vec![],
                cylinder: false,
                sets_ep: false,
            },
        })
        .collect()
}

/// The region tables of piece `index`, when regions concern it; and the union of its attack paths.
pub fn build(v: &Variant, index: usize) -> (Option<RegionTables>, Vec<Path>) {
    let p = &v.pieces[index];
    let rules = &v.regions;
    let confine = rules
        .confine
        .iter()
        .find(|(l, _)| *l == p.letter)
        .map(|&(_, r)| mask(v, &rules.regions[r]));
    let moves = rules.moves.iter().find(|m| m.letter == p.letter);
    let along = rules.along.iter().find(|m| m.letter == p.letter);
    let kinds = |list: &[(char, Vec<char>)]| -> Vec<bool> {
        match list.iter().find(|(l, _)| *l == p.letter) {
            None => Vec::new(),
            Some((_, letters)) => v
                .pieces
                .iter()
                .map(|q| letters.contains(&q.letter))
                .collect(),
        }
    };
    let (no_jump_over, no_capture) = (kinds(&rules.no_jump_over), kinds(&rules.no_capture));
    let facing = rules.facing_royals_forbidden && p.royal;
    let mut union = p.paths.clone();
    if let Some(m) = moves.or(along) {
        union.extend(m.paths.iter().cloned());
    }
    if facing {
        union.extend(facing_paths());
    }
    let hops = !no_jump_over.is_empty() || !no_capture.is_empty();
    if confine.is_none() && moves.is_none() && along.is_none() && !facing && !hops {
        return (None, union);
    }
    let (f, r) = (v.files, v.ranks);
    let both = |paths: &[Path], make: fn(&[Path], bool, u8, u8) -> AttackTable| {
        [make(paths, false, f, r), make(paths, true, f, r)]
    };
    let in_paths = moves.map_or(&[][..], |m| &m.paths[..]);
    // Standing on an `along` cell the piece attacks by its own moves and the along ones.
    let along_paths: Vec<Path> = along
        .map(|m| p.paths.iter().chain(&m.paths).cloned().collect())
        .unwrap_or_default();
    let tables = RegionTables {
        along: along.map(|m| Along {
            cells: mask(v, &rules.regions[m.region]),
            program: [
                exec::program(&m.paths, false, f, r),
                exec::program(&m.paths, true, f, r),
            ],
        }),
        no_jump_over,
        no_capture,
        confine,
        cells: moves.map(|m| mask(v, &rules.regions[m.region])),
        program: [
            exec::program(in_paths, false, f, r),
            exec::program(in_paths, true, f, r),
        ],
        attacks: both(&p.paths, exec::attack_table),
        in_attacks: if along.is_some() {
            both(&along_paths, exec::attack_table)
        } else {
            both(in_paths, exec::attack_table)
        },
    };
    (Some(tables), union)
}
