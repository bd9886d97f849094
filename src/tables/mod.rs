//! Compiled step tables: each piece's Betza tree turned into legs on the mailbox, for both colours,
//! plus the attack instances check detection uses and the rule flags the executor needs.

pub mod exec;
pub mod regions;

use crate::geometry::{CELLS, cell};
pub use crate::legs::{Cont, Path, Stop};
use crate::piece::Kind;
use crate::side::Side;
use crate::variant::{PromotionTarget, RoyalLoss, Variant};
pub use exec::{AttackTable, DIFF_BASE, Instance, Program, XLeg};

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
    /// Royal or castling: the piece whose virginity carries the rights field (`king` in FEN terms).
    pub king: bool,
    /// Regions that confine the piece or change its moves; then `attacks` is the union of its forms.
    pub region: Option<Box<regions::RegionTables>>,
    /// `initial-ranks`: its `i` moves are had on these ranks (from 0, the side's own edge) instead
    /// of by virginity; a double step sets e.p. only from the last of them.
    pub initial_ranks: Option<(u8, u8)>,
    /// The kind it becomes on promoting (`promotes`), where the variant has `piece-promotion`.
    pub promotes_to: Option<Kind>,
    /// With `immobile forbidden`: per side, per cell, whether the piece has no move from there on
    /// an empty board (it must not be left there). Filled by `Game::new`.
    pub stuck: Option<Box<[Vec<bool>; 2]>>,
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
    /// Attack forms per side: one per piece type, then one per type that moves otherwise in a
    /// region (`in REGION BETZA`).
    pub types: usize,
    /// Per piece type: its in-region form, if it has one.
    pub in_form: Vec<usize>,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct FlatInstance {
    pub first: u32,
    pub empty: u16,
    pub occupied: u16,
    /// Squares that must hold a piece of the attacked side, after the empty and occupied ones.
    pub enemy: u16,
    pub initial: bool,
}

impl FlatAttacks {
    fn build(pieces: &[PieceTables]) -> FlatAttacks {
        // A piece with region tables is listed by its exact forms, not by their union.
        let mut forms: Vec<&[AttackTable; 2]> = pieces
            .iter()
            .map(|p| p.region.as_ref().map_or(&p.attacks, |r| &r.attacks))
            .collect();
        let mut in_form = vec![0; pieces.len()];
        for (ty, p) in pieces.iter().enumerate() {
            if let Some(r) = p
                .region
                .as_ref()
                .filter(|r| r.cells.is_some() || r.along.is_some())
            {
                in_form[ty] = forms.len();
                forms.push(&r.in_attacks);
            }
        }
        let types = forms.len();
        let mut f = FlatAttacks {
            types,
            in_form,
            ..Default::default()
        };
        f.index = vec![0; 2 * types * exec::DIFF_SIZE];
        for side in 0..2 {
            for (ty, form) in forms.iter().enumerate() {
                let table = &form[side];
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
                            enemy: inst.enemy.len() as u16,
                            initial: inst.initial,
                        });
                        f.offsets.extend(
                            inst.empty
                                .iter()
                                .chain(inst.occupied.iter())
                                .chain(inst.enemy.iter()),
                        );
                    }
                }
            }
        }
        f
    }
}

/// `honour-count` with its letters resolved to kinds (see [`crate::variant::HonourCount`]).
#[derive(Debug, Clone)]
pub struct HonourTables {
    /// The board's honour in moves (0: none).
    pub board: u16,
    /// Kinds whose presence on the board stops counting (`no-pawns`); empty without it.
    pub pawns: Vec<Kind>,
    pub from_pieces: bool,
    /// (kinds with the least number of each, moves), in order.
    pub pieces: Vec<(Vec<(Kind, u16)>, u16)>,
}

/// Everything the executor needs to play a variant.
#[derive(Debug, Clone)]
pub struct Tables {
    pub files: u8,
    pub ranks: u8,
    pub pieces: Vec<PieceTables>,
    /// Promotion choices (piece types) for a pawn of each colour arriving on a cell; empty = none.
    pub promotions: [Vec<Vec<Kind>>; 2],
    /// `promotion-optional`: a pawn moving onto a promotion cell may also stay a pawn.
    pub promotion_optional: bool,
    /// `promotion-limit`, per kind: a pawn promotes to it only while its side has fewer on the
    /// board (`u16::MAX`: no limit).
    pub promotion_limit: Vec<u16>,
    /// Some kind has a promotion limit.
    pub promotion_limited: bool,
    /// `honour-count`.
    pub honour: Option<HonourTables>,
    /// Some piece captures en passant (`e`), so double steps leave e.p. rights.
    pub en_passant: bool,
    pub castling: bool,
    /// Some piece kind is royal.
    pub has_royal: bool,
    /// Some piece can attack its own square (a path that leaves and comes back, `WabW`).
    pub self_attack: bool,
    pub castle_through_check: bool,
    /// `castling-partner any` (Chess960): the castling king ends on its start file (White's,
    /// Black's) moved by its `O` distance, the partner beside it on the inner side.
    pub castle_any: Option<[u8; 2]>,
    /// `castling-rook`: the partner is the first piece beyond the king, of the partner kind, not
    /// necessarily in the corner.
    pub castle_inner: bool,
    /// `castling-files`: the files the castling king lands on towards the a-file and towards
    /// the last file, for both colours, wherever it stands.
    pub castle_files: Option<[u8; 2]>,
    pub royal_initial_safe: bool,
    /// `royal-in-check takes-checker`: a royal piece in check may only take its one checker.
    pub royal_takes_checker: bool,
    /// Per kind: its unmoved back-rank pieces are named by file in the rights field.
    pub rights_by_file: Vec<bool>,
    /// `promotion-move`: pawns that promote by a move of their own.
    pub promotion_move: Option<Box<PromotionMoveTables>>,
    pub flat_attacks: FlatAttacks,
    /// One royal kind, one royal piece per side in every reachable position: the royal's cell is
    /// tracked and the fast legality paths apply. Otherwise royal pieces are found by kind.
    pub classic: bool,
    pub royal_loss: RoyalLoss,
    /// The kinds that are royal.
    pub royal_kinds: Vec<Kind>,
    /// Which sides start with royal pieces (a side that has none, as in horde, cannot lose them).
    pub royal_sides: [bool; 2],
    /// Legality needs the move played out and the general test (several royals, no giving check).
    pub full_legality: bool,
    /// No move may repeat an earlier position (`repetition forbidden`).
    pub repetition_forbidden: bool,
    /// Some rule can end the game by the move just made (royal capture, extinction, goal, checks).
    pub rule_ends: bool,
    pub extinct_kinds: Vec<Kind>,
    pub extinct_at_most: u16,
    /// `opponent-at-least`: extinction strikes only while the opponent has this many of the kind.
    pub extinct_opponent: u16,
    /// Extinction counts the whole army (`extinction all`).
    pub extinct_all: bool,
    /// The extinct side wins (the anti-chess family) instead of losing.
    pub extinct_wins: bool,
    /// A bared side wins at once (`bare-king bared-wins`).
    pub bared_wins: bool,
    /// A bared side, either one, draws at once (`bare-king draw`).
    pub bare_draw: bool,
    /// A side that can capture must (`must-capture yes`).
    pub must_capture: bool,
    /// Some kind has `initial-ranks` (else initial moves go by virginity alone).
    pub initial_by_rank: bool,
    /// Per kind: whether it wins by reaching a goal cell.
    pub goal_kind: Vec<bool>,
    /// Per side, per cell: a goal square.
    pub goal_cells: [Vec<bool>; 2],
    pub goal_reply: bool,
    pub checks_to_win: Option<u8>,
    /// Whether a move may give check.
    pub giving_check: bool,
    pub hand: HandTables,
    /// Some piece has region tables (confined, or moving otherwise in a region).
    pub regions: bool,
    /// Royal pieces may not face each other on an open file (`facing-royals forbidden`).
    pub facing_royals: bool,
    /// `piece-promotion`: per side, per cell, whether it lies in the promotion zone.
    pub piece_zone: Option<Box<[Vec<bool>; 2]>>,
    pub piece_promotion_forced: bool,
    /// Only captures promote (`piece-promotion ... on-capture`).
    pub piece_promotion_on_capture: bool,
    /// Promoted pieces turn back under the same rule (`piece-promotion ... flip`).
    pub piece_flip: bool,
    /// Non-captures promote only on entering the zone (`piece-promotion ... on-entry`).
    pub piece_promotion_on_entry: bool,
    /// Cells remember the kind a promoted piece was (a capture returns that to hand; FEN writes
    /// `+P` or `Q~`).
    pub track_origin: bool,
    /// A side not in check may pass (`pass yes`).
    pub pass: bool,
    /// Some piece can come back to its own square (a Lion's pass, igui): such passes are one move.
    pub moves_in_place: bool,
    /// Royal pieces facing each other must part, or a pass ends the game (`bikjang yes`).
    pub bikjang: bool,
    /// `lion-trade`, per kind: (a protected kind, a kind whose capture on the way does not count).
    pub lion_trade: Option<Vec<(bool, bool)>>,
    /// `checkmate-series`, per kind masks for `Position::checked_by`.
    pub checkmate_series: Option<CheckmateSeriesTables>,
    /// `contagion`, per kind: (a kind that turns its taker into itself, a kind that stays itself).
    pub contagion: Option<Vec<(bool, bool)>>,
}

/// `checkmate-series`, per kind.
#[derive(Clone, Debug)]
pub struct CheckmateSeriesTables {
    /// Its check makes the series of checks a mate.
    pub series: Vec<bool>,
    /// It may give mate alone (not a `not-by` kind): a mate needs a check by one of these.
    pub may_mate: Vec<bool>,
}

/// Hands and drops, per kind.
#[derive(Debug, Clone, Default)]
pub struct HandTables {
    /// The game has hands: drops are generated, and FEN has holdings.
    pub on: bool,
    pub captures_to_hand: bool,
    /// Promoted pieces remember the pawn they were, and a capture returns that to hand.
    pub demote: bool,
    /// Per side, per kind: the ranks where it may be dropped, bit `r` for rank `r` from 0.
    pub drop_ranks: [Vec<u32>; 2],
    /// Per kind: not dropped on a file with an own piece of the kind (`drop-one-per-file`).
    pub one_per_file: Vec<bool>,
    /// Per kind: its drop may not checkmate (`drop-no-mate`).
    pub no_mate: Vec<bool>,
    /// Per kind: the promoted form it may also be dropped as (`drop-promoted yes`).
    pub drop_promoted: Vec<Option<Kind>>,
    /// No drop may give check (`drop-checks forbidden`).
    pub no_checks: bool,
    /// Per kind: it may enter by gating (`gating`).
    pub gate: Vec<bool>,
    /// Some kind may enter by gating.
    pub gating: bool,
    /// `pins-hold`: a gating move must be legal without its gated piece too.
    pub gate_pins_hold: bool,
    /// Pieces in hand may be dropped.
    pub drops: bool,
    /// While a side holds pieces it must drop one if it can (`must-drop yes`).
    pub must_drop: bool,
    /// Per kind: a piece of it in hand brings `must-drop` into force (every kind without
    /// `must-drop LETTERS`).
    pub must_drop_kind: Vec<bool>,
    /// Per kind: dropped on both square colours (`drop-opposite-colours`).
    pub opposite_colours: Vec<bool>,
    /// `drop-castling`: per side, the cell where a dropped castling piece stands unmoved (0: none).
    pub castle_home: [u16; 2],
}

/// `promotion-move`, compiled.
#[derive(Debug, Clone)]
pub struct PromotionMoveTables {
    /// Per kind: it may promote so.
    pub kinds: Vec<bool>,
    /// The kind it becomes.
    pub to: Kind,
    /// Per side, per cell: where it may (`None`: anywhere).
    pub cells: Option<[Vec<bool>; 2]>,
    /// Anywhere while it is its side's only piece of the promoting kinds.
    pub last_anywhere: bool,
    /// Only while its side has fewer of `to` on the board (0: no limit).
    pub limit: u16,
    /// Such a move may neither give check nor leave the new piece attacking an enemy piece.
    pub no_attack: bool,
}

impl HandTables {
    fn build(v: &Variant, pieces: &[PieceTables]) -> HandTables {
        let h = &v.hand;
        if !h.hands {
            return HandTables::default();
        }
        let kinds = pieces.len();
        let all = (1u32 << v.ranks) - 1;
        let mut drop_ranks = [vec![all; kinds], vec![all; kinds]];
        for (letters, first, last) in &h.drop_ranks {
            for &c in letters {
                let Some(k) = v.piece_index(c) else { continue };
                for side in Side::BOTH {
                    let mut mask = 0;
                    for n in *first..=*last {
                        // Rank n counted from the side's own edge.
                        let r = match side {
                            Side::White => n - 1,
                            Side::Black => v.ranks - n,
                        };
                        mask |= 1 << r;
                    }
                    drop_ranks[side.index()][k] = mask;
                }
            }
        }
        let per_kind = |letters: &[char]| -> Vec<bool> {
            (0..kinds)
                .map(|k| letters.contains(&v.pieces[k].letter))
                .collect()
        };
        HandTables {
            on: true,
            captures_to_hand: h.captures_to_hand,
            demote: h.demote,
            drop_ranks,
            one_per_file: per_kind(&h.one_per_file),
            no_mate: per_kind(&h.no_mate),
            drop_promoted: pieces
                .iter()
                .map(|p| p.promotes_to.filter(|_| h.drop_promoted))
                .collect(),
            no_checks: h.drop_checks_forbidden,
            gate: per_kind(&h.gate),
            gating: !h.gate.is_empty(),
            gate_pins_hold: h.gate_pins_hold,
            drops: h.drops,
            must_drop: h.must_drop,
            must_drop_kind: if h.must_drop_kinds.is_empty() {
                vec![true; kinds]
            } else {
                per_kind(&h.must_drop_kinds)
            },
            opposite_colours: per_kind(&h.opposite_colours),
            castle_home: h.drop_castling.as_ref().map_or([0, 0], |&((f, r), _)| {
                [cell(f, r), cell(f, v.ranks - 1 - r)]
            }),
        }
    }
}

impl Tables {
    /// Compiles a validated variant: validation has checked everything the executor needs, so this
    /// cannot fail.
    pub fn build(v: &Variant) -> Tables {
        let mut pieces = Vec::new();
        for (index, p) in v.pieces.iter().enumerate() {
            let paths = p.paths.clone();
            let program = [
                exec::program(&paths, false, v.files, v.ranks),
                exec::program(&paths, true, v.files, v.ranks),
            ];
            let (region, attack_paths) = regions::build(v, index);
            let attacks = [
                exec::attack_table(&attack_paths, false, v.files, v.ranks),
                exec::attack_table(&attack_paths, true, v.files, v.ranks),
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
                king: false,
                region: region.map(Box::new),
                initial_ranks: v
                    .end
                    .initial_ranks
                    .as_ref()
                    .filter(|i| i.kinds.contains(&p.letter))
                    .map(|i| (i.first, i.last)),
                promotes_to: p
                    .promotes
                    .filter(|_| v.piece_promotion.is_some())
                    .and_then(|c| v.piece_index(c))
                    .map(|i| Kind(i as u8)),
                stuck: None,
            });
        }
        let castling = pieces.iter().any(|p| !p.program[0].castles.is_empty());
        let moves_in_place = pieces
            .iter()
            .any(|p| p.program.iter().any(|g| g.revisits_origin));
        // `drop-castling`: these kinds are castling partners wherever the start puts them.
        for &c in v.hand.drop_castling.iter().flat_map(|(_, l)| l) {
            if let Some(i) = v.piece_index(c) {
                pieces[i].rights = true;
            }
        }
        if let (true, Some(i)) = (castling, v.castling.rook.and_then(|c| v.piece_index(c))) {
            pieces[i].rights = true;
        } else if castling {
            // Castling partners are the pieces that start in the corners.
            let (f, r) = (v.files - 1, v.ranks - 1);
            for corner in [(0, 0), (f, 0), (0, r), (f, r)] {
                if let Some(i) = v.start.get(corner).and_then(|p| v.piece_index(p.letter)) {
                    pieces[i].rights = true;
                }
            }
        }
        let en_passant = pieces.iter().any(|p| {
            fn has_ep(leg: &crate::legs::Leg) -> bool {
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
                        .map(|i| Kind(i as u8))
                        .collect();
                }
            }
        }
        for p in pieces.iter_mut() {
            p.king = p.royal || !p.program[0].castles.is_empty();
        }
        let kinds = |letters: &[char]| -> Vec<Kind> {
            letters
                .iter()
                .filter_map(|&c| v.piece_index(c))
                .map(|i| Kind(i as u8))
                .collect()
        };
        let royal_letters: Vec<char> = v
            .pieces
            .iter()
            .filter(|p| p.royal)
            .map(|p| p.letter)
            .collect();
        let royal_kinds = kinds(&royal_letters);
        let start_royals = |side: Side| {
            v.start
                .squares()
                .filter(|(_, p)| p.side == side && royal_letters.contains(&p.letter))
                .count()
        };
        let royal_sides = [start_royals(Side::White) > 0, start_royals(Side::Black) > 0];
        let promotes_to_royal = promotions
            .iter()
            .flatten()
            .flatten()
            .any(|k| royal_kinds.contains(k));
        let classic = royal_kinds.len() == 1
            && start_royals(Side::White) == 1
            && start_royals(Side::Black) == 1
            && !promotes_to_royal;
        let end = &v.end;
        let (extinct_kinds, extinct_at_most, extinct_opponent) = match &end.extinction {
            Some(e) => (kinds(&e.kinds), e.at_most, e.opponent_at_least),
            None => (Vec::new(), 0, 0),
        };
        let mut goal_kind = vec![false; pieces.len()];
        let mut goal_cells = [vec![false; CELLS], vec![false; CELLS]];
        if let Some(g) = &end.goal {
            for k in kinds(&g.kinds) {
                goal_kind[k.index()] = true;
            }
            for &(f, r) in &g.squares {
                goal_cells[0][cell(f, r) as usize] = true;
                let black = if g.mirrored { v.ranks - 1 - r } else { r };
                goal_cells[1][cell(f, black) as usize] = true;
            }
        }
        let has_royal = !royal_kinds.is_empty();
        // The node's legality context reads the pieces' `attacks`, which for region pieces and
        // facing royals is the union of their forms: a superset, so it may test more moves, never fewer.
        let regions = pieces.iter().any(|p| p.region.is_some());
        let facing_royals = v.regions.facing_royals_forbidden;
        let lion_trade = end.lion_trade.as_ref().map(|l| {
            v.pieces
                .iter()
                .map(|p| (l.kinds.contains(&p.letter), l.over.contains(&p.letter)))
                .collect::<Vec<_>>()
        });
        let contagion = end.contagion.as_ref().map(|c| {
            v.pieces
                .iter()
                .map(|p| (c.kinds.contains(&p.letter), c.not_by.contains(&p.letter)))
                .collect::<Vec<_>>()
        });
        let checkmate_series = end
            .checkmate_series
            .as_ref()
            .map(|c| CheckmateSeriesTables {
                series: v
                    .pieces
                    .iter()
                    .map(|p| c.kinds.contains(&p.letter))
                    .collect(),
                may_mate: v
                    .pieces
                    .iter()
                    .map(|p| !c.not_by.contains(&p.letter))
                    .collect(),
            });
        // The trading rules judge a capture by what the move leaves attacked: every move is tested.
        let full_legality = (has_royal && !classic)
            || !end.giving_check
            || lion_trade.is_some()
            || end.repetition_forbidden
            || v.hand.drop_checks_forbidden
            || v.hand.must_drop;
        let bared_wins = end.bare_king == crate::variant::BareKing::BaredWins;
        let bare_draw = end.bare_king == crate::variant::BareKing::Draw;
        let rule_ends = (has_royal && !classic)
            || end.pass
            || bared_wins
            || bare_draw
            || end.extinction.is_some()
            || end.goal.is_some()
            || end.checks_to_win.is_some();
        let flat_attacks = FlatAttacks::build(&pieces);
        let hand = HandTables::build(v, &pieces);
        let piece_zone = v.piece_promotion.as_ref().map(|pp| {
            let mut zone = [vec![false; CELLS], vec![false; CELLS]];
            for f in 0..v.files {
                for r in 0..v.ranks {
                    zone[0][cell(f, r) as usize] = v.ranks - 1 - r < pp.zone;
                    zone[1][cell(f, r) as usize] = r < pp.zone;
                }
            }
            Box::new(zone)
        });
        let self_attack = pieces.iter().any(|p| {
            p.attacks
                .iter()
                .any(|t| t.by_generation || t.index[DIFF_BASE as usize].1 != 0)
        });
        let castle_any = (castling && v.castling.any_file).then(|| {
            Side::BOTH.map(|side| {
                v.start
                    .squares()
                    .find(|(_, p)| {
                        p.side == side
                            && v.piece_index(p.letter)
                                .is_some_and(|i| !pieces[i].program[0].castles.is_empty())
                    })
                    .map_or(0, |((f, _), _)| f)
            })
        });
        Tables {
            flat_attacks,
            files: v.files,
            ranks: v.ranks,
            promotion_optional: v.promotion.optional,
            promotion_limit: v
                .pieces
                .iter()
                .map(|p| {
                    v.promotion
                        .limit
                        .iter()
                        .find(|l| l.0 == p.letter)
                        .map_or(u16::MAX, |l| l.1)
                })
                .collect(),
            promotion_limited: !v.promotion.limit.is_empty(),
            honour: v.end.honour.as_ref().map(|h| {
                let kind = |c: char| Kind(v.piece_index(c).expect("validated letter") as u8);
                HonourTables {
                    board: h.board.unwrap_or(0),
                    pawns: if h.no_pawns {
                        v.promotion.pawns.iter().map(|&c| kind(c)).collect()
                    } else {
                        Vec::new()
                    },
                    from_pieces: h.from_pieces,
                    pieces: h
                        .pieces
                        .iter()
                        .map(|(need, n)| (need.iter().map(|&(c, k)| (kind(c), k)).collect(), *n))
                        .collect(),
                }
            }),
            pieces,
            promotions,
            en_passant,
            castling,
            castle_through_check: v.castling.through_check,
            castle_any,
            castle_inner: v.castling.rook.is_some(),
            castle_files: v.castling.files,
            has_royal,
            self_attack,
            royal_initial_safe: v.royal_initial_moves_safe,
            royal_takes_checker: end.royal_takes_checker,
            rights_by_file: v
                .pieces
                .iter()
                .map(|p| v.rights_by_file.contains(&p.letter))
                .collect(),
            promotion_move: v.promotion_move.as_ref().map(|pm| {
                let cells = pm.region.map(|i| {
                    let region = &v.regions.regions[i];
                    let mut cells = [vec![false; CELLS], vec![false; CELLS]];
                    for side in Side::BOTH {
                        for f in 0..v.files {
                            for r in 0..v.ranks {
                                if region.contains(side, (f, r), v.ranks) {
                                    cells[side.index()][cell(f, r) as usize] = true;
                                }
                            }
                        }
                    }
                    cells
                });
                Box::new(PromotionMoveTables {
                    kinds: v
                        .pieces
                        .iter()
                        .map(|p| pm.kinds.contains(&p.letter))
                        .collect(),
                    to: Kind(v.piece_index(pm.to).expect("validated") as u8),
                    cells,
                    last_anywhere: pm.last_anywhere,
                    limit: pm.limit,
                    no_attack: pm.no_attack,
                })
            }),
            classic,
            royal_loss: end.royal_loss,
            royal_kinds,
            royal_sides,
            full_legality,
            repetition_forbidden: end.repetition_forbidden,
            rule_ends,
            extinct_kinds,
            extinct_at_most,
            extinct_opponent,
            extinct_all: end.extinction.as_ref().is_some_and(|e| e.all),
            extinct_wins: end
                .extinction
                .as_ref()
                .is_some_and(|e| e.extinct == crate::variant::Outcome::Win),
            bared_wins,
            bare_draw,
            must_capture: end.must_capture,
            initial_by_rank: end.initial_ranks.is_some(),
            goal_kind,
            goal_cells,
            goal_reply: end.goal.as_ref().is_some_and(|g| g.reply),
            checks_to_win: end.checks_to_win,
            giving_check: end.giving_check,
            track_origin: hand.demote || piece_zone.is_some(),
            hand,
            regions,
            facing_royals,
            piece_promotion_forced: v.piece_promotion.as_ref().is_some_and(|p| p.forced),
            piece_promotion_on_capture: v.piece_promotion.as_ref().is_some_and(|p| p.on_capture),
            piece_promotion_on_entry: v.piece_promotion.as_ref().is_some_and(|p| p.on_entry),
            piece_flip: v.piece_promotion.as_ref().is_some_and(|p| p.flip),
            piece_zone,
            pass: end.pass && has_royal,
            moves_in_place,
            bikjang: end.bikjang && has_royal,
            lion_trade,
            checkmate_series,
            contagion,
        }
    }
}
