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
    pub in_attacks: [AttackTable; 2],
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
    let facing = rules.facing_royals_forbidden && p.royal;
    let mut union = p.paths.clone();
    if let Some(m) = moves {
        union.extend(m.paths.iter().cloned());
    }
    if facing {
        union.extend(facing_paths());
    }
    if confine.is_none() && moves.is_none() && !facing {
        return (None, union);
    }
    let (f, r) = (v.files, v.ranks);
    let both = |paths: &[Path], make: fn(&[Path], bool, u8, u8) -> AttackTable| {
        [make(paths, false, f, r), make(paths, true, f, r)]
    };
    let in_paths = moves.map_or(&[][..], |m| &m.paths[..]);
    let tables = RegionTables {
        confine,
        cells: moves.map(|m| mask(v, &rules.regions[m.region])),
        program: [
            exec::program(in_paths, false, f, r),
            exec::program(in_paths, true, f, r),
        ],
        attacks: both(&p.paths, exec::attack_table),
        in_attacks: both(in_paths, exec::attack_table),
    };
    (Some(tables), union)
}
