//! Leg trees placed on the mailbox: cell offsets per colour, fast paths split out, and the attack
//! instances that check detection reads.

use crate::geometry::offset;
use crate::legs::{Cont, Leg, Path, Stop};

/// One leg on the mailbox. `children` index the same program's `legs`.
#[derive(Debug, Clone)]
pub struct XLeg {
    pub dx: i8,
    pub dy: i8,
    pub step: i16,
    pub max: u8,
    pub skip: u8,
    pub stop: u8,
    pub cont: Cont,
    pub lame: Box<[i16]>,
    pub jump: Box<[i16]>,
    pub children: Box<[u16]>,
    pub cylinder: bool,
    pub sets_ep: bool,
}

/// Everything one piece type of one colour can do.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// Single-step leaps without conditions: (offset, stop bits).
    pub leaps: Vec<(i16, u8)>,
    /// Plain sliders: (offset, max steps with 0 = unlimited, stop bits).
    pub slides: Vec<(i16, u8, u8)>,
    /// A leap that may stop and, from an empty square, slides on: `t[FR]`, `t[NB]`, `[W?B]`.
    pub bent: Vec<Bent>,
    /// Everything else, as roots into `legs`.
    pub complex: Vec<u16>,
    /// Roots of initial-only paths (the piece has never moved).
    pub initial: Vec<u16>,
    pub legs: Vec<XLeg>,
    /// Castling: (direction −1/+1, king distance).
    pub castles: Vec<(i8, u8)>,
    /// Some path can pass its own start square: generation treats that square as empty.
    pub revisits_origin: bool,
    /// Two paths can reach the same square with the same kind of move: deduplicate.
    pub may_duplicate: bool,
}

/// One first step (offset, stop bits) and the plain slides that follow it from an empty square.
#[derive(Debug, Clone)]
pub struct Bent {
    pub step: i16,
    pub stop: u8,
    pub slides: Vec<(i16, u8, u8)>,
}

fn plain(leg: &Leg) -> bool {
    leg.next.is_empty()
        && leg.lame.is_empty()
        && leg.jump.is_empty()
        && leg.skip == 0
        && !leg.cylinder
        && !leg.sets_ep
        && !leg.stop.has(Stop::EP)
}

/// A way one piece type attacks: the squares it needs empty or occupied, relative to the attacker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    pub empty: Box<[i16]>,
    pub occupied: Box<[i16]>,
    /// Squares that must hold a piece of the attacked side (a locust capture on the way).
    pub enemy: Box<[i16]>,
    pub initial: bool,
}

/// Attack instances of one piece type and colour, indexed by the cell difference target − attacker.
#[derive(Debug, Clone)]
pub struct AttackTable {
    /// (first instance, count) per difference + `DIFF_BASE`.
    pub index: Vec<(u32, u16)>,
    pub instances: Vec<Instance>,
    /// Attacks cannot be listed by difference (cylinder moves): use the move generator instead.
    pub by_generation: bool,
}

/// Cell differences range over ±(15 rows + 15 files).
pub const DIFF_BASE: i16 = 15 * crate::geometry::STRIDE + 15;
pub const DIFF_SIZE: usize = (2 * DIFF_BASE + 1) as usize;

fn flip(v: (i8, i8), black: bool) -> (i8, i8) {
    if black { (-v.0, -v.1) } else { v }
}

fn place(leg: &Leg, black: bool, legs: &mut Vec<XLeg>) -> u16 {
    let (dx, dy) = flip(leg.step, black);
    let at = legs.len();
    legs.push(XLeg {
        dx,
        dy,
        step: offset(dx, dy),
        max: leg.max,
        skip: leg.skip,
        stop: leg.stop.0,
        cont: leg.cont,
        lame: leg
            .lame
            .iter()
            .map(|&v| flip(v, black))
            .map(|(x, y)| offset(x, y))
            .collect(),
        jump: leg
            .jump
            .iter()
            .map(|&v| flip(v, black))
            .map(|(x, y)| offset(x, y))
            .collect(),
        children: Box::new([]),
        cylinder: leg.cylinder,
        sets_ep: leg.sets_ep,
    });
    let children: Box<[u16]> = leg.next.iter().map(|n| place(n, black, legs)).collect();
    legs[at].children = children;
    at as u16
}

/// Places compiled paths for one colour. Every step fits the guard band: `legs::compile` refuses
/// longer ones.
pub fn program(paths: &[Path], black: bool, files: u8, ranks: u8) -> Program {
    let mut p = Program::default();
    let (targets, revisits) = enumerate_targets(paths, files, ranks);
    p.revisits_origin = revisits;
    for path in paths {
        match path {
            Path::Castle { dir, n } => p.castles.push((if black { -dir } else { *dir }, *n)),
            Path::Legs { initial, leg } => {
                let simple = leg.next.is_empty()
                    && leg.lame.is_empty()
                    && leg.jump.is_empty()
                    && leg.skip == 0
                    && !leg.cylinder
                    && !leg.sets_ep
                    && (leg.max == 1 || !leg.stop.has(Stop::EP))
                    && !initial;
                let (dx, dy) = flip(leg.step, black);
                // The fast path reads the origin as occupied, so pieces that cross it use the walker.
                let bent = !initial
                    && !revisits
                    && leg.max == 1
                    && leg.cont == Cont::Empty
                    && leg.lame.is_empty()
                    && leg.jump.is_empty()
                    && !leg.cylinder
                    && !leg.sets_ep
                    && !leg.stop.has(Stop::EP)
                    && !leg.next.is_empty()
                    && leg.next.iter().all(plain);
                if bent {
                    let slides = leg
                        .next
                        .iter()
                        .map(|n| {
                            let (x, y) = flip(n.step, black);
                            (offset(x, y), n.max, n.stop.0)
                        })
                        .collect();
                    p.bent.push(Bent {
                        step: offset(dx, dy),
                        stop: leg.stop.0,
                        slides,
                    });
                } else if simple && leg.max == 1 {
                    p.leaps.push((offset(dx, dy), leg.stop.0));
                } else if simple {
                    p.slides.push((offset(dx, dy), leg.max, leg.stop.0));
                } else {
                    let root = place(leg, black, &mut p.legs);
                    if *initial {
                        p.initial.push(root)
                    } else {
                        p.complex.push(root)
                    }
                }
            }
        }
    }
    p.may_duplicate = targets;
    p
}

/// One concrete walk of a path on an open board.
struct Walk {
    target: (i8, i8),
    stop: u8,
    empty: Vec<(i8, i8)>,
    occupied: Vec<(i8, i8)>,
    /// Squares that must hold an enemy piece, taken on the way (`Cont::Take`).
    enemy: Vec<(i8, i8)>,
    /// Where the walk takes pieces on its way (path order): with the target, what tells two
    /// moves apart.
    locust: Vec<(i8, i8)>,
    initial: bool,
    /// The walk hops over an own piece (a tame hop): no attack instance describes it.
    tame: bool,
}

/// The conditions a walk collects on its way.
#[derive(Default)]
struct Conditions {
    empty: Vec<(i8, i8)>,
    occupied: Vec<(i8, i8)>,
    enemy: Vec<(i8, i8)>,
    locust: Vec<(i8, i8)>,
    tame: usize,
}

/// The most walks listed per piece and colour. Chained riders multiply their lengths (`WpaaaaQ`);
/// beyond this the piece's attacks come from the move generator and its moves are deduplicated,
/// which is slower but exact.
const MAX_WALKS: usize = 50_000;

/// Every walk of the paths on an open board, or `None` when there are more than `MAX_WALKS`.
fn walks(paths: &[Path], files: u8, ranks: u8) -> Option<Vec<Walk>> {
    let mut out = Vec::new();
    for path in paths {
        if let Path::Legs { initial, leg } = path {
            walk_leg(
                leg,
                (0, 0),
                &mut Conditions::default(),
                *initial,
                files as i8,
                ranks as i8,
                &mut out,
            );
        }
    }
    (out.len() <= MAX_WALKS).then_some(out)
}

fn walk_leg(
    leg: &Leg,
    start: (i8, i8),
    cond: &mut Conditions,
    initial: bool,
    files: i8,
    ranks: i8,
    out: &mut Vec<Walk>,
) {
    if out.len() > MAX_WALKS {
        return;
    }
    let (e0, o0) = (cond.empty.len(), cond.occupied.len());
    let limit = if leg.max == 0 { 16 } else { leg.max as i32 };
    let mut pos = start;
    for j in 1..=limit {
        pos = (pos.0 + leg.step.0, pos.1 + leg.step.1);
        if pos.0.abs() >= files || pos.1.abs() >= ranks {
            break;
        }
        if j as u8 > leg.skip {
            let (e1, o1) = (cond.empty.len(), cond.occupied.len());
            cond.empty
                .extend(leg.lame.iter().map(|&(x, y)| (start.0 + x, start.1 + y)));
            cond.occupied
                .extend(leg.jump.iter().map(|&(x, y)| (start.0 + x, start.1 + y)));
            if leg.stop.any() {
                out.push(Walk {
                    target: pos,
                    stop: leg.stop.0,
                    empty: cond.empty.clone(),
                    occupied: cond.occupied.clone(),
                    enemy: cond.enemy.clone(),
                    locust: cond.locust.clone(),
                    initial,
                    tame: cond.tame > 0,
                });
            }
            let mut go_on = |cond: &mut Conditions| {
                for n in &leg.next {
                    walk_leg(n, pos, cond, initial, files, ranks, out);
                }
            };
            match leg.cont {
                Cont::Never => {}
                Cont::Take {
                    enemy, empty, hop, ..
                } => {
                    // Only an enemy's capture on the way attacks: a path through an own piece
                    // (`d`) needs the attacker's own piece there, which no instance lists.
                    if enemy {
                        cond.enemy.push(pos);
                        cond.locust.push(pos);
                        go_on(cond);
                        cond.locust.pop();
                        cond.enemy.pop();
                    }
                    if empty {
                        cond.empty.push(pos);
                        go_on(cond);
                        cond.empty.pop();
                    }
                    if hop {
                        cond.occupied.push(pos);
                        go_on(cond);
                        cond.occupied.pop();
                    }
                }
                c => {
                    let (e2, o2) = (cond.empty.len(), cond.occupied.len());
                    match c {
                        Cont::Empty => cond.empty.push(pos),
                        Cont::Occupied => cond.occupied.push(pos),
                        Cont::Own => {
                            cond.occupied.push(pos);
                            cond.tame += 1;
                        }
                        _ => {}
                    }
                    go_on(cond);
                    if c == Cont::Own {
                        cond.tame -= 1;
                    }
                    cond.empty.truncate(e2);
                    cond.occupied.truncate(o2);
                }
            }
            cond.empty.truncate(e1);
            cond.occupied.truncate(o1);
            // A rider goes on only over an empty square.
            cond.empty.push(pos);
        }
    }
    cond.empty.truncate(e0);
    cond.occupied.truncate(o0);
}

/// (may two walks end on the same square with overlapping stop kinds, does a walk cross its origin)
fn enumerate_targets(paths: &[Path], files: u8, ranks: u8) -> (bool, bool) {
    let Some(ws) = walks(paths, files, ranks) else {
        return (true, true);
    };
    let revisits = ws
        .iter()
        .any(|w| w.empty.contains(&(0, 0)) || w.occupied.contains(&(0, 0)) || w.target == (0, 0));
    // Two walks to one target (over the same locust squares) whose stop kinds overlap. A walk
    // that ends on a square it took on its way makes the capture of that square's piece (the
    // generator writes it so), which an ordinary walk there may make too.
    let mut seen = std::collections::HashMap::new();
    let mut dup = false;
    for w in &ws {
        let (mut locust, mut stop) = (w.locust.clone(), w.stop);
        if locust.contains(&w.target) {
            locust.retain(|&v| v != w.target);
            stop = Stop::ENEMY;
        }
        locust.sort_unstable();
        let stops: &mut u8 = seen.entry((w.target, locust)).or_insert(0);
        dup |= *stops & stop != 0;
        *stops |= stop;
    }
    // On a cylinder a sideways ride and its opposite one meet round the joined edge, and
    // the open-board walks above cannot see that.
    let cylinder = paths
        .iter()
        .any(|p| matches!(p, Path::Legs { leg, .. } if has_cylinder(leg)));
    (dup || cylinder, revisits)
}

/// Attack instances: the walks that can capture on their target.
pub fn attack_table(paths: &[Path], black: bool, files: u8, ranks: u8) -> AttackTable {
    let listed = walks(paths, files, ranks);
    let by_generation = listed.is_none()
        || paths
            .iter()
            .any(|p| matches!(p, Path::Legs { leg, .. } if has_cylinder(leg) || has_tame(leg)));
    let mut per_diff: Vec<Vec<Instance>> = vec![Vec::new(); DIFF_SIZE];
    let cellify = |v: &(i8, i8)| {
        let (x, y) = flip(*v, black);
        offset(x, y)
    };
    let mut list = |target: (i8, i8), empty: &[(i8, i8)], enemy: &[(i8, i8)], w: &Walk| {
        let inst = Instance {
            empty: empty
                .iter()
                .filter(|&&v| v != (0, 0))
                .map(cellify)
                .collect(),
            occupied: w.occupied.iter().map(cellify).collect(),
            enemy: enemy.iter().map(cellify).collect(),
            initial: w.initial,
        };
        let d = cellify(&target) + DIFF_BASE;
        let slot = &mut per_diff[d as usize];
        if !slot.contains(&inst) {
            slot.push(inst);
        }
    };
    for w in listed.unwrap_or_default() {
        // A tame hop's attacks come from the move generator (`has_tame`).
        if w.occupied.contains(&(0, 0)) || w.tame {
            continue;
        }
        // A walk back onto a square it took on its way takes that piece there: an attack on it
        // (listed below, as the square it takes on).
        if w.stop & Stop::ENEMY != 0 && !w.locust.contains(&w.target) {
            list(w.target, &w.empty, &w.enemy, &w);
        }
        // A locust move attacks each square it takes on too, when the rest of its path is open:
        // it ends on an empty square, or on an enemy's (or back on a square it took on).
        for &at in &w.locust {
            let enemy: Vec<_> = w.enemy.iter().copied().filter(|&v| v != at).collect();
            let back = w.locust.contains(&w.target);
            if w.stop & Stop::EMPTY != 0 || back {
                let mut empty = w.empty.clone();
                if !back {
                    empty.push(w.target);
                }
                list(at, &empty, &enemy, &w);
            }
            if w.stop & Stop::ENEMY != 0 && w.target != (0, 0) && !back {
                let mut both = enemy.clone();
                both.push(w.target);
                list(at, &w.empty, &both, &w);
            }
        }
    }
    let mut index = vec![(0u32, 0u16); DIFF_SIZE];
    let mut instances = Vec::new();
    for (d, list) in per_diff.into_iter().enumerate() {
        index[d] = (instances.len() as u32, list.len() as u16);
        instances.extend(list);
    }
    AttackTable {
        index,
        instances,
        by_generation,
    }
}

fn has_cylinder(leg: &Leg) -> bool {
    leg.cylinder || leg.next.iter().any(has_cylinder)
}

/// A tame hop (`Cont::Own`) needs the attacker's own piece as its platform, which attack
/// instances do not describe: such a piece's attacks come from the move generator.
fn has_tame(leg: &Leg) -> bool {
    leg.cont == Cont::Own || leg.next.iter().any(has_tame)
}
