//! Compiled step tables: each piece's Betza tree turned into legs on the mailbox, for both colours,
//! plus the attack instances check detection uses and the rule flags the executor needs.

pub mod exec;
pub mod legs;

use crate::geometry::{CELLS, MAX_SIDE, cell};
use crate::variant::{PromotionTarget, Variant};
pub use exec::{AttackTable, DIFF_BASE, Instance, Program, XLeg};
pub use legs::{Cont, Path, Stop};

/// One piece type, compiled.
#[derive(Debug, Clone)]
pub struct PieceTables {
    pub letter: char,
    pub paths: Vec<Path>,
    /// Index 0 White, 1 Black.
    pub program: [Program; 2],
    pub attacks: [AttackTable; 2],
    pub royal: bool,
    pub pawn: bool,
    /// Its virginity is part of the position (it has initial moves, castles, or is a castling partner).
    pub rights: bool,
}

/// All attack instances of a variant in flat arrays, for the check test's inner loop: one `u32` per
/// (side, piece type, cell difference) holding `first instance << 8 | count`.
#[derive(Debug, Clone, Default)]
pub struct FlatAttacks {
    pub index: Vec<u32>,
    pub instances: Vec<FlatInstance>,
    /// Empty-square offsets then occupied-square offsets of each instance.
    pub offsets: Vec<i16>,
    /// Per (side, type): attacks must come from the move generator instead.
    pub by_generation: Vec<bool>,
    pub types: usize,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct FlatInstance {
    pub first: u32,
    pub empty: u16,
    pub occupied: u16,
    pub initial: bool,
}

impl FlatAttacks {
    fn build(pieces: &[PieceTables]) -> FlatAttacks {
        let types = pieces.len();
        let mut f = FlatAttacks {
            types,
            ..Default::default()
        };
        f.index = vec![0; 2 * types * exec::DIFF_SIZE];
        for side in 0..2 {
            for (ty, p) in pieces.iter().enumerate() {
                let table = &p.attacks[side];
                let too_many = table.index.iter().any(|&(_, n)| n > 255);
                f.by_generation.push(table.by_generation || too_many);
                for (d, &(first, n)) in table.index.iter().enumerate() {
                    if n == 0 || too_many {
                        continue;
                    }
                    f.index[(side * types + ty) * exec::DIFF_SIZE + d] =
                        (f.instances.len() as u32) << 8 | n as u32;
                    for inst in &table.instances[first as usize..first as usize + n as usize] {
                        f.instances.push(FlatInstance {
                            first: f.offsets.len() as u32,
                            empty: inst.empty.len() as u16,
                            occupied: inst.occupied.len() as u16,
                            initial: inst.initial,
                        });
                        f.offsets
                            .extend(inst.empty.iter().chain(inst.occupied.iter()));
                    }
                }
            }
        }
        f
    }
}

/// Everything the executor needs to play a variant.
#[derive(Debug, Clone)]
pub struct Tables {
    pub files: u8,
    pub ranks: u8,
    pub pieces: Vec<PieceTables>,
    /// Promotion choices (piece types) for a pawn of each colour arriving on a cell; empty = none.
    pub promotions: [Vec<Vec<u8>>; 2],
    /// Some piece captures en passant (`e`), so double steps leave e.p. rights.
    pub en_passant: bool,
    pub castling: bool,
    pub castle_through_check: bool,
    pub royal_initial_safe: bool,
    pub flat_attacks: FlatAttacks,
}

impl Tables {
    /// Compiles a validated variant. Errors name the piece.
    pub fn build(v: &Variant) -> Result<Tables, String> {
        if v.files == 0 || v.ranks == 0 || v.files > MAX_SIDE || v.ranks > MAX_SIDE {
            return Err(format!(
                "board {}x{} is outside 1x1..{MAX_SIDE}x{MAX_SIDE}",
                v.files, v.ranks
            ));
        }
        if v.pieces.len() > 31 {
            return Err("more than 31 piece types".into());
        }
        let mut pieces = Vec::new();
        for p in &v.pieces {
            let err = |e: String| format!("piece {} ({}): {e}", p.letter, p.name);
            let paths = legs::compile(&p.betza).map_err(|e| err(e.0))?;
            let program = [
                exec::program(&paths, false, v.files, v.ranks).map_err(err)?,
                exec::program(&paths, true, v.files, v.ranks).map_err(err)?,
            ];
            let attacks = [
                exec::attack_table(&paths, false, v.files, v.ranks),
                exec::attack_table(&paths, true, v.files, v.ranks),
            ];
            let rights = !program[0].initial.is_empty() || !program[0].castles.is_empty();
            pieces.push(PieceTables {
                letter: p.letter,
                paths,
                program,
                attacks,
                royal: p.royal,
                pawn: v.promotion.pawns.contains(&p.letter),
                rights,
            });
        }
        let castling = pieces.iter().any(|p| !p.program[0].castles.is_empty());
        if castling {
            // Castling partners are the pieces that start in the corners.
            let start = v.start_fen.split('/').next().unwrap_or("");
            for row in [
                start,
                v.start_fen
                    .split(' ')
                    .next()
                    .unwrap_or("")
                    .rsplit('/')
                    .next()
                    .unwrap_or(""),
            ] {
                for c in [row.chars().next(), row.chars().last()]
                    .into_iter()
                    .flatten()
                {
                    if let Some(i) = v.piece_index(c) {
                        pieces[i].rights = true;
                    }
                }
            }
        }
        let en_passant = pieces.iter().any(|p| {
            fn has_ep(leg: &legs::Leg) -> bool {
                leg.stop.has(Stop::EP) || leg.next.iter().any(has_ep)
            }
            p.paths
                .iter()
                .any(|path| matches!(path, Path::Legs { leg, .. } if has_ep(leg)))
        });
        let mut promotions = [vec![Vec::new(); CELLS], vec![Vec::new(); CELLS]];
        for f in 0..v.files {
            for r in 0..v.ranks {
                for (side, zone_rank) in [(0usize, v.ranks - 1 - r), (1, r)] {
                    if zone_rank >= v.promotion.zone {
                        continue;
                    }
                    let letters: Vec<char> = match &v.promotion.to {
                        PromotionTarget::Choice(l) => l.clone(),
                        PromotionTarget::ByFile(l) => {
                            l.get(f as usize).copied().into_iter().collect()
                        }
                    };
                    promotions[side][cell(f, r) as usize] = letters
                        .iter()
                        .filter_map(|&c| v.piece_index(c))
                        .map(|i| i as u8)
                        .collect();
                }
            }
        }
        let flat_attacks = FlatAttacks::build(&pieces);
        Ok(Tables {
            flat_attacks,
            files: v.files,
            ranks: v.ranks,
            pieces,
            promotions,
            en_passant,
            castling,
            castle_through_check: v.castling.through_check,
            royal_initial_safe: v.royal_initial_moves_safe,
        })
    }
}
