//! acedrex variants → one `fmax.ini` that Fairy-Max and ShaMax load (xbetza.md §5).
//!
//! Each piece is compiled to its leg trees (legs) and every tree becomes rays by §5.9. What
//! Fairy-Max cannot say is an error naming the variant and piece; where a close approximation exists
//! (end rules, a start position that is not "back rank + full pawn rank") it is a warning.

use super::rays::{Ray, step_of};
use crate::betza;
use crate::explore::{Probe, destinations_in, probe_game};
use crate::legs::{self, Cont, Leg, Path, Stop};
use crate::side::Side;
use crate::variant::{BareKing, Outcome, PromotionTarget, Variant};
use std::fmt::Write;

/// Why variants cannot be written as one `fmax.ini`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error("two variants have the XBoard name `{0}`")]
    DuplicateName(String),
    #[error("the built-in chess variant is missing")]
    NoChess,
    #[error("variant {variant}: {reason}")]
    Variant {
        variant: String,
        reason: Inexpressible,
    },
}

/// What of a variant Fairy-Max cannot say.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Inexpressible {
    #[error("board {files}x{ranks}: Fairy-Max has at most 14 files and 16 ranks")]
    Board { files: u8, ranks: u8 },
    #[error("Fairy-Max needs exactly one pawn type (types 1 and 2 fill the pawn ranks)")]
    PawnTypes,
    #[error("the pawn is not a piece")]
    PawnNotAPiece,
    #[error("no royal piece")]
    NoRoyal,
    /// An end rule or royal set-up Fairy-Max's exported blocks cannot carry.
    #[error("{0}: not expressible in an exported Fairy-Max block")]
    Rule(&'static str),
    #[error("piece {letter} ({name}): {reason}")]
    Compile {
        letter: char,
        name: String,
        reason: legs::Unsupported,
    },
    /// A move with no Fairy-Max ray (the reason says which).
    #[error("piece {letter} ({name}) {betza}: {reason}")]
    Move {
        letter: char,
        name: String,
        betza: String,
        reason: String,
    },
    #[error(
        "piece {letter} ({name}): a sideways leap of {lateral} on {files} files wraps round Fairy-Max's 16-wide board"
    )]
    Wraps {
        letter: char,
        name: String,
        lateral: i32,
        files: u8,
    },
    #[error("piece {letter} ({name}): only Fairy-Max's pawns capture en passant")]
    EnPassant { letter: char, name: String },
    #[error(
        "promotion by file exists in Fairy-Max only with pawns on the 4th rank and a 1-rank zone"
    )]
    ByFile,
    #[error("Fairy-Max pawns always promote; this variant has no promotion choice")]
    NoChoice,
    #[error("with pawns on the 4th rank Fairy-Max promotes by file only, not by choice")]
    ChoiceOnFourthRank,
    #[error("pawns on rank {rank} with a {zone}-rank promotion zone are not expressible")]
    Zone { rank: u8, zone: u8 },
    #[error("the default promotion piece {0} must move alike for both colours (Fairy-Max type 7)")]
    AsymmetricDefault(char),
    #[error("more than 15 Fairy-Max piece types (an asymmetric piece needs two)")]
    TooManyTypes,
    #[error("no piece type to fill Fairy-Max's numbering with")]
    NoFiller,
    #[error("{0} ray slots; Fairy-Max holds 255")]
    TooManyRays(usize),
    /// A piece whose moves cannot be counted for its value.
    #[error("{0}")]
    Mobility(String),
}

/// Writes a complete `fmax.ini` for `variants`: the version line, a default block, one `Game:` block
/// per variant (plus `normal` chess, which Fairy-Max loads on every `new`, when none is given) and the
/// closing line Fairy-Max needs. Returns the text and warnings about rules it plays differently.
pub fn export(variants: &[Variant]) -> Result<(String, Vec<String>), ExportError> {
    let mut warnings = Vec::new();
    let mut blocks = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for v in variants {
        if names.contains(&v.xboard_name.as_str()) {
            return Err(ExportError::DuplicateName(v.xboard_name.clone()));
        }
        names.push(&v.xboard_name);
        blocks.push(block(v, &mut warnings).map_err(|e| in_variant(v, e))?);
    }
    if !names.contains(&"normal") {
        let chess = crate::variant::builtin("chess").ok_or(ExportError::NoChess)?;
        let mut ignore = Vec::new();
        blocks.push(block(&chess, &mut ignore).map_err(|e| in_variant(&chess, e))?);
    }
    let normal = blocks
        .iter()
        .find(|b| b.name == "normal")
        .expect("normal block added above");
    let mut out = String::from("version 4.8(w)\n");
    // The block Fairy-Max reads at start-up, before any `new` or `variant`: no Game: line.
    out += &normal.body;
    out += "\n// Written by acedrex (acedrex fmax). Format: docs xbetza.md section 5, or Debian's fmax.ini header.\n";
    for b in &blocks {
        // XBoard knows `normal` itself; a setup command for it would only confuse tools that read the
        // first `setup` line after `new` (as Debian's file, none).
        let gui = if b.name == "normal" {
            String::new()
        } else {
            format!(" # {} # {}", b.piece_to_char, b.parent)
        };
        let _ = write!(
            out,
            "\n// {}\nGame: {}{gui}\n{}",
            b.description, b.name, b.body
        );
        out += "#\n";
        for line in &b.betza {
            let _ = writeln!(out, "# {line}");
        }
    }
    // A `# ...` reader at end of file never stops (fscanf returns EOF): end on a plain line.
    out += "\n// end\n";
    Ok((out, warnings))
}

fn in_variant(v: &Variant, reason: Inexpressible) -> ExportError {
    ExportError::Variant {
        variant: v.name.clone(),
        reason,
    }
}

struct Block {
    name: String,
    parent: String,
    description: String,
    piece_to_char: String,
    /// Board line, setup lines and piece lines.
    body: String,
    /// `X& betza` lines for the GUI.
    betza: Vec<String>,
}

/// One Fairy-Max piece type: a piece for both colours, or its White or Black version.
#[derive(Debug, Clone)]
struct Type {
    piece: usize,
    rays: Vec<Ray>,
    white: bool,
    black: bool,
}

/// One variant → its `Game:` block: checks, rays per piece, setup, type numbering, values, text.
fn block(v: &Variant, warnings: &mut Vec<String>) -> Result<Block, Inexpressible> {
    let (pawn, royal) = pawn_and_royal(v)?;
    let white_rays = white_rays(v, pawn, warnings)?;
    en_passant_warnings(v, pawn, &white_rays, warnings);
    let setup = start_setup(v, pawn, warnings);
    let (suffix, by_file) = board_suffix(v, &setup, warnings)?;
    let numbering = number_types(v, pawn, royal, &white_rays, warnings)?;
    let values = values(v, royal, by_file, numbering.stalemate_trick)?;
    let body = body(v, pawn, &suffix, &setup, &numbering, &values);
    // The same table as `acedrex xboard` sends, so that XBoard shows the same pictures.
    let piece_to_char = crate::protocol::piece_to_char::PieceToChar::of(v).table;
    let betza = xboard_betza(v, warnings);
    rule_warnings(v, warnings);
    Ok(Block {
        name: v.xboard_name.clone(),
        parent: v.xboard_parent.clone(),
        description: if v.description.is_empty() {
            v.name.clone()
        } else {
            v.description.clone()
        },
        piece_to_char,
        body,
        betza,
    })
}

/// The board fits Fairy-Max's, and there is one pawn type and a royal piece: their indices.
fn pawn_and_royal(v: &Variant) -> Result<(usize, usize), Inexpressible> {
    if v.files > 14 || v.ranks > 16 {
        return Err(Inexpressible::Board {
            files: v.files,
            ranks: v.ranks,
        });
    }
    let [pawn_letter] = v.promotion.pawns[..] else {
        return Err(Inexpressible::PawnTypes);
    };
    let pawn = v
        .piece_index(pawn_letter)
        .ok_or(Inexpressible::PawnNotAPiece)?;
    let royal = v
        .pieces
        .iter()
        .position(|p| p.royal)
        .ok_or(Inexpressible::NoRoyal)?;
    rules_fit(v)?;
    regions_fit(v)?;
    Ok((pawn, royal))
}

/// Fairy-Max has no regions: a confined piece or one that moves otherwise in a region, and the
/// facing-royals rule, would be lost.
fn regions_fit(v: &Variant) -> Result<(), Inexpressible> {
    let r = &v.regions;
    if !r.confine.is_empty() || !r.moves.is_empty() {
        return Err(Inexpressible::Rule(
            "pieces confined to or moving otherwise in a region",
        ));
    }
    if r.facing_royals_forbidden {
        return Err(Inexpressible::Rule("facing-royals forbidden"));
    }
    Ok(())
}

/// Fairy-Max plays one royal piece a side and none of the newer end rules: exporting such a
/// variant would silently play another game.
fn rules_fit(v: &Variant) -> Result<(), Inexpressible> {
    let royal_kinds = v.pieces.iter().filter(|p| p.royal).count();
    let royals_of = |side| {
        v.start
            .squares()
            .filter(|(_, placed)| placed.side == side)
            .filter(|(_, placed)| {
                v.piece_index(placed.letter)
                    .is_some_and(|i| v.pieces[i].royal)
            })
            .count()
    };
    let rules = &v.end;
    let refused = if royal_kinds > 1 || Side::BOTH.iter().any(|&s| royals_of(s) > 1) {
        Some("several royal pieces")
    } else if rules.extinction.is_some() {
        Some("extinction")
    } else if rules.goal.is_some() {
        Some("goal squares")
    } else if rules.checks_to_win.is_some() {
        Some("checks-to-win")
    } else if !rules.giving_check {
        Some("giving-check forbidden")
    } else if v.hand.hands {
        Some("pieces in hand")
    } else {
        None
    };
    refused.map_or(Ok(()), |r| Err(Inexpressible::Rule(r)))
}

/// Every piece's rays, White's view; approximations become warnings.
fn white_rays(
    v: &Variant,
    pawn: usize,
    warnings: &mut Vec<String>,
) -> Result<Vec<Vec<Ray>>, Inexpressible> {
    let mut white_rays = Vec::new();
    for (i, p) in v.pieces.iter().enumerate() {
        let paths = legs::compile(&p.betza).map_err(|reason| Inexpressible::Compile {
            letter: p.letter,
            name: p.name.clone(),
            reason,
        })?;
        let mut notes = Vec::new();
        let rays =
            piece_rays(&paths, i == pawn, &mut notes).map_err(|reason| Inexpressible::Move {
                letter: p.letter,
                name: p.name.clone(),
                betza: p.betza_text.clone(),
                reason,
            })?;
        for n in notes {
            warnings.push(format!("{}: piece {} ({}): {n}", v.name, p.letter, p.name));
        }
        let lateral = rays
            .iter()
            .flat_map(|r| [r.step, r.second()])
            .map(|s| super::rays::vector_of(s).0.abs())
            .max()
            .unwrap_or(0);
        if i32::from(v.files) + lateral > 16 {
            return Err(Inexpressible::Wraps {
                letter: p.letter,
                name: p.name.clone(),
                lateral,
                files: v.files,
            });
        }
        if i != pawn && has_ep(&p.betza) {
            return Err(Inexpressible::EnPassant {
                letter: p.letter,
                name: p.name.clone(),
            });
        }
        white_rays.push(rays);
    }
    Ok(white_rays)
}

/// Fairy-Max ties en passant to the pawn's double step: say where that differs.
fn en_passant_warnings(
    v: &Variant,
    pawn: usize,
    white_rays: &[Vec<Ray>],
    warnings: &mut Vec<String>,
) {
    let en_passant = v.pieces.iter().any(|p| has_ep(&p.betza));
    let double_step = white_rays[pawn].iter().any(|r| r.low() & 0xFF == 0x24);
    if en_passant && !double_step {
        warnings.push(format!(
            "{}: no pawn double step, so no en-passant captures arise in Fairy-Max either",
            v.name
        ));
    }
    if !en_passant && double_step {
        warnings.push(format!("{}: Fairy-Max's pawn double step leaves e.p. rights, so its pawns can capture en passant (not in this variant)", v.name));
    }
}

/// Start position: back rank + full pawn rank per side, as Fairy-Max sets it up.
fn start_setup(v: &Variant, pawn: usize, warnings: &mut Vec<String>) -> Setup {
    let setup = parse_setup(v, pawn).unwrap_or_else(|why| {
        warnings.push(format!(
            "{}: the start position cannot be set up in Fairy-Max ({why}); exported with the first-rank pieces and pawns on the second rank",
            v.name
        ));
        fallback_setup(v, pawn)
    });
    if setup.black.iter().any(Option::is_none) {
        warnings.push(format!(
            "{}: Black's first rank has an empty square, which Fairy-Max writes as '`' in the FEN it sends XBoard",
            v.name
        ));
    }
    setup
}

/// Board line suffix from pawn rank and promotion zone (§5.1), and whether pawns promote by file.
fn board_suffix(
    v: &Variant,
    setup: &Setup,
    warnings: &mut Vec<String>,
) -> Result<(String, bool), Inexpressible> {
    let pawn_rank = setup.pawn_rank; // 1-based from the own side
    let zone = v.promotion.zone;
    match &v.promotion.to {
        PromotionTarget::ByFile(letters) => {
            if pawn_rank != 4 || zone != 1 {
                return Err(Inexpressible::ByFile);
            }
            if let Err(why) = check_by_file(v, &setup.white, letters) {
                warnings.push(format!("{}: {why}", v.name));
            }
            Ok(("=-3".to_string(), true))
        }
        PromotionTarget::Choice(letters) => {
            if letters.is_empty() {
                return Err(Inexpressible::NoChoice);
            }
            let s = match (pawn_rank, zone) {
                (2, 1) => String::new(),
                (r, z) if r == z => format!("={z}"),
                (4, 1) => return Err(Inexpressible::ChoiceOnFourthRank),
                (r, 1) => format!("=-{}", r - 1),
                (rank, zone) => return Err(Inexpressible::Zone { rank, zone }),
            };
            Ok((s, false))
        }
    }
}

/// Fairy-Max's piece types, by number: 1/2 the pawns, 7 the default promotion, 9 the royal when
/// stalemate must lose; an asymmetric piece takes two.
struct Numbering {
    slots: Vec<Option<Type>>,
    /// The highest type used.
    count: usize,
    /// The royal is type 9 with value -2: Fairy-Max then scores stalemate as a loss.
    stalemate_trick: bool,
}

fn number_types(
    v: &Variant,
    pawn: usize,
    royal: usize,
    white_rays: &[Vec<Ray>],
    warnings: &mut Vec<String>,
) -> Result<Numbering, Inexpressible> {
    let promo_default = match &v.promotion.to {
        PromotionTarget::Choice(l) => v.piece_index(l[0]),
        PromotionTarget::ByFile(_) => None,
    };
    // Each colour's rays: Black's are White's turned round, but for `castling-files`, where each
    // side's castling distance follows from its royal piece's start file.
    let mut sided: Vec<[Vec<Ray>; 2]> = Vec::new();
    for (i, white) in white_rays.iter().enumerate() {
        let black: Vec<Ray> = white.iter().map(|r| r.negated()).collect();
        sided.push(match v.castling.files {
            Some(files) => [
                castle_on_files(v, i, files, true, white)?,
                castle_on_files(v, i, files, false, &black)?,
            ],
            None => [white.clone(), black],
        });
    }
    let symmetric = |i: usize| {
        let mut a = sided[i][0].clone();
        let mut b = sided[i][1].clone();
        a.sort();
        b.sort();
        a == b
    };
    let mut entries: Vec<Type> = Vec::new();
    for i in (0..v.pieces.len()).filter(|&i| i != pawn) {
        let black_rays = sided[i][1].clone();
        if symmetric(i) {
            entries.push(Type {
                piece: i,
                rays: sided[i][0].clone(),
                white: true,
                black: true,
            });
        } else {
            entries.push(Type {
                piece: i,
                rays: sided[i][0].clone(),
                white: true,
                black: false,
            });
            entries.push(Type {
                piece: i,
                rays: black_rays,
                white: false,
                black: true,
            });
        }
    }
    let mut slots: Vec<Option<Type>> = vec![None; 16];
    slots[1] = Some(Type {
        piece: pawn,
        rays: white_rays[pawn].clone(),
        white: true,
        black: false,
    });
    slots[2] = Some(Type {
        piece: pawn,
        rays: white_rays[pawn].iter().map(|r| r.negated()).collect(),
        white: false,
        black: true,
    });
    if let Some(d) = promo_default {
        if !symmetric(d) {
            return Err(Inexpressible::AsymmetricDefault(v.pieces[d].letter));
        }
        let at = entries.iter().position(|e| e.piece == d).expect("listed");
        slots[7] = Some(entries.remove(at));
    }
    let mut stalemate_trick = false;
    if v.end.stalemated == Outcome::Loss {
        if symmetric(royal) && promo_default != Some(royal) {
            let at = entries
                .iter()
                .position(|e| e.piece == royal)
                .expect("listed");
            slots[9] = Some(entries.remove(at));
            stalemate_trick = true;
        } else {
            warnings.push(format!("{}: a stalemated side loses here, but Fairy-Max scores stalemate as a draw (ShaMax: as a loss)", v.name));
        }
    }
    let mut free = (3..16)
        .filter(|&t| slots[t].is_none())
        .collect::<Vec<_>>()
        .into_iter();
    for e in entries {
        let t = free.next().ok_or(Inexpressible::TooManyTypes)?;
        slots[t] = Some(e);
    }
    let count = slots.iter().rposition(Option::is_some).unwrap_or(0);
    // Gaps below type 7 or 9 get copies of a symmetric piece: same letter, value and moves, so
    // whichever copy Fairy-Max picks for a letter it plays the same.
    let filler = [7, 9]
        .into_iter()
        .chain(3..16)
        .filter_map(|t| slots[t].clone())
        .find(|t| t.white && t.black && !v.pieces[t.piece].royal);
    let filler = filler.ok_or(Inexpressible::NoFiller);
    for slot in slots.iter_mut().take(count).skip(3) {
        if slot.is_none() {
            *slot = Some(filler.clone()?);
        }
    }
    let total_rays: usize = slots.iter().flatten().map(|t| t.rays.len() + 1).sum();
    if total_rays > 255 {
        return Err(Inexpressible::TooManyRays(total_rays));
    }
    Ok(Numbering {
        slots,
        count,
        stalemate_trick,
    })
}

/// Values per piece: the file's, else a mobility estimate; the last digit 3 bars a type as
/// promotion choice.
fn values(
    v: &Variant,
    royal: usize,
    by_file: bool,
    stalemate_trick: bool,
) -> Result<Vec<i32>, Inexpressible> {
    let choices: Vec<usize> = match &v.promotion.to {
        PromotionTarget::Choice(l) => l.iter().filter_map(|&c| v.piece_index(c)).collect(),
        PromotionTarget::ByFile(_) => vec![],
    };
    let knight = mobility(v, "N")?;
    let mut values = Vec::new();
    for (i, p) in v.pieces.iter().enumerate() {
        let value = if i == royal {
            if stalemate_trick { -2 } else { -1 }
        } else {
            let base = match p.value {
                Some(x) => x,
                None => (300.0 * mobility(v, &p.betza_text)? / knight).round() as i32,
            }
            .max(10);
            let allowed = by_file || choices.contains(&i);
            match (allowed, base % 10 == 3) {
                (true, true) => base + 1,
                (false, false) => base - base % 10 + 3,
                _ => base,
            }
        };
        values.push(value);
    }
    Ok(values)
}

/// Board line, the two setup lines and one line per type.
fn body(
    v: &Variant,
    pawn: usize,
    suffix: &str,
    setup: &Setup,
    numbering: &Numbering,
    values: &[i32],
) -> String {
    let Numbering { slots, count, .. } = numbering;
    let count = *count;
    // Letters: lower case = centralise (minor and leaping pieces), upper case = rook-like or heavy.
    let letter = |t: &Type| -> char {
        let p = &v.pieces[t.piece];
        let heavy = values[t.piece] >= 800
            || t.rays.iter().any(|r| {
                r.low() == 3 && r.second() == r.step && [1, -1, 16, -16].contains(&r.step)
            });
        if heavy && !p.royal && t.piece != pawn {
            p.letter
        } else {
            p.letter.to_ascii_lowercase()
        }
    };
    let mut body = format!("{}x{}{suffix}\n", v.files, v.ranks);
    let type_of = |piece: Option<usize>, white: bool| -> usize {
        match piece {
            None => 0,
            Some(p) => (1..=count)
                .find(|&t| {
                    slots[t]
                        .as_ref()
                        .is_some_and(|s| s.piece == p && if white { s.white } else { s.black })
                })
                .expect("every piece has a type"),
        }
    };
    let line = |row: &[Option<usize>], white: bool| {
        row.iter()
            .map(|&p| type_of(p, white).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    body += &line(&setup.white, true);
    body.push('\n');
    body += &line(&setup.black, false);
    body.push('\n');
    for t in slots[1..=count].iter().flatten() {
        let rays: Vec<String> = t.rays.iter().map(Ray::to_string).collect();
        let _ = writeln!(body, "{}:{} {}", letter(t), values[t.piece], rays.join(" "));
    }
    body
}

/// XBoard-dialect Betza lines (`X& betza`) for the GUI; a piece XBoard cannot be told is a warning.
fn xboard_betza(v: &Variant, warnings: &mut Vec<String>) -> Vec<String> {
    let mut betza = Vec::new();
    for p in &v.pieces {
        match betza::to_xboard(&p.betza) {
            Ok(text) => betza.push(format!("{}& {text}", p.letter)),
            Err(e) => warnings.push(format!(
                "{}: piece {} ({}): XBoard is not told how it moves: {e}",
                v.name, p.letter, p.name
            )),
        }
    }
    betza
}

fn has_ep(b: &betza::Betza) -> bool {
    b.moves.iter().any(|m| match m {
        betza::Move::Chain(c) => c.legs.last().is_some_and(|p| p.has(betza::Modality::E)),
        betza::Move::Bracket(br) => br.legs.iter().any(|l| l.prefix.has(betza::Modality::E)),
    })
}

fn rule_warnings(v: &Variant, warnings: &mut Vec<String>) {
    let mut w = |s: String| warnings.push(format!("{}: {s}", v.name));
    if v.end.contagion.is_some() {
        w(
            "a piece that takes a `contagion` kind becomes one here; Fairy-Max has no such rule"
                .into(),
        );
    }
    match v.end.stalemated {
        Outcome::Win => {
            w("a stalemated side wins here; Fairy-Max scores stalemate as a draw".into())
        }
        Outcome::Draw | Outcome::Loss => {}
    }
    match v.end.bare_king {
        BareKing::Off => {}
        b => w(format!(
            "bare king {}: Fairy-Max has no bare-king rule (ShaMax: a bared king loses at once, no bare-back draw)",
            if b == BareKing::Immediate {
                "immediate"
            } else {
                "bare-back"
            }
        )),
    }
    if v.end.repetition != Some(3) {
        w("Fairy-Max draws at the third repetition".into());
    }
    if v.end.move_count != Some(100) {
        w(
            "Fairy-Max's move-count draw is its `Claim draw after` option (default 50 moves)"
                .into(),
        );
    }
    if v.castling.any_file {
        w(
            "Chess960 castling is not expressible in Fairy-Max; it castles only with corner pieces"
                .into(),
        );
    }
    if v.shuffle.is_some() {
        w("shuffled starts: the exported block holds only the `start` arrangement".into());
    }
    if v.dice.is_some() {
        w("dice are not expressible in Fairy-Max; it plays without".into());
    }
    if v.castling.through_check {
        w("Fairy-Max never castles through check".into());
    }
    if v.royal_initial_moves_safe {
        w("Fairy-Max's initial royal leap ignores check (E4 rays)".into());
    }
}

// ---- setup ------------------------------------------------------------------------------------

struct Setup {
    /// Piece index per file on each side's first rank.
    white: Vec<Option<usize>>,
    black: Vec<Option<usize>>,
    /// The pawns' rank, counted from the own side (2 = orthodox).
    pawn_rank: u8,
}

/// The start position's ranks, rank 1 first: each a list of (piece index, white) per file.
fn placement(v: &Variant) -> Vec<Vec<Option<(usize, bool)>>> {
    let mut ranks = vec![vec![None; v.files as usize]; v.ranks as usize];
    for ((f, r), p) in v.start.squares() {
        let white = p.side == crate::side::Side::White;
        ranks[r as usize][f as usize] = v.piece_index(p.letter).map(|i| (i, white));
    }
    ranks
}

fn parse_setup(v: &Variant, pawn: usize) -> Result<Setup, String> {
    let ranks = placement(v);
    let h = v.ranks as usize;
    let full = |r: usize, white: bool| ranks[r].iter().all(|&c| c == Some((pawn, white)));
    let pr = (1..h / 2)
        .find(|&r| full(r, true))
        .ok_or("no rank is filled with White pawns")?;
    if !full(h - 1 - pr, false) {
        return Err(format!("Black's pawns do not fill rank {}", h - pr));
    }
    for (r, row) in ranks.iter().enumerate() {
        for (f, c) in row.iter().enumerate() {
            let ok = match c {
                None => true,
                Some((p, white)) if *p == pawn => {
                    (r == pr && *white) || (r == h - 1 - pr && !*white)
                }
                Some((_, white)) => (r == 0 && *white) || (r == h - 1 && !*white),
            };
            if !ok {
                return Err(format!(
                    "{}{} holds a piece outside the back rank and the pawn rank",
                    (b'a' + f as u8) as char,
                    r + 1
                ));
            }
        }
    }
    Ok(Setup {
        white: ranks[0].iter().map(|c| c.map(|(p, _)| p)).collect(),
        black: ranks[h - 1].iter().map(|c| c.map(|(p, _)| p)).collect(),
        pawn_rank: pr as u8 + 1,
    })
}

fn fallback_setup(v: &Variant, pawn: usize) -> Setup {
    let ranks = placement(v);
    let keep = |row: &Vec<Option<(usize, bool)>>, white: bool| {
        row.iter()
            .map(|c| c.filter(|&(p, w)| p != pawn && w == white).map(|(p, _)| p))
            .collect()
    };
    Setup {
        white: keep(&ranks[0], true),
        black: keep(&ranks[v.ranks as usize - 1], false),
        pawn_rank: 2,
    }
}

/// Fairy-Max's by-file promotion: the piece that started on the file, the king's file taking the
/// piece on its a-side (fairymax.c InitGame).
fn check_by_file(v: &Variant, white: &[Option<usize>], letters: &[char]) -> Result<(), String> {
    let mut differ = Vec::new();
    for (f, &want) in letters.iter().enumerate() {
        let mut at = white.get(f).copied().flatten();
        if at.is_some_and(|p| v.pieces[p].royal) && f > 0 {
            at = white[f - 1];
        }
        let got = at.map_or('-', |p| v.pieces[p].letter);
        if got != want {
            differ.push(format!(
                "{} to {got} instead of {want}",
                (b'a' + f as u8) as char
            ));
        }
    }
    if differ.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "Fairy-Max promotes to the piece that started on the file (the king's file: its a-side neighbour), so on {}",
            differ.join(", ")
        ))
    }
}

// ---- values and GUI table ---------------------------------------------------------------------

/// Average number of destinations of a moved piece over every square of the empty board.
fn mobility(v: &Variant, betza_text: &str) -> Result<f64, Inexpressible> {
    let game = probe_game(betza_text, v.files, v.ranks)
        .map_err(|e| Inexpressible::Mobility(e.to_string()))?;
    let mut total = 0usize;
    let mut squares = 0usize;
    for f in 0..v.files {
        for r in 0..v.ranks {
            let at = format!("{}{}", (b'a' + f) as char, r + 1);
            let probe = Probe {
                files: v.files,
                ranks: v.ranks,
                at,
                friends: vec![],
                enemies: vec![],
                black: false,
                moved: true,
            };
            total += destinations_in(&game, &probe)
                .map_err(|e| Inexpressible::Mobility(e.to_string()))?
                .len();
            squares += 1;
        }
    }
    Ok((total as f64 / squares as f64).max(0.1))
}

// ---- leg trees → rays (§5.9) --------------------------------------------------------------

/// Low mode bits for the stop kinds of a leg: 1 capture, 2 non-capture.
fn stop_bits(stop: Stop, pawn: bool) -> Result<i32, String> {
    if stop.has(Stop::OWN) {
        return Err("capturing own pieces (d) is not expressible".into());
    }
    if stop.has(Stop::EP) && !(pawn && stop.has(Stop::ENEMY)) {
        return Err("en passant (e) is expressible only on a pawn's capture".into());
    }
    Ok(i32::from(stop.has(Stop::ENEMY)) | if stop.has(Stop::EMPTY) { 2 } else { 0 })
}

/// Fairy-Max's castling ray: towards `d` (±1), the king moving `n` (2 to 4) squares.
fn castle_ray(d: i32, n: i32) -> Result<Ray, String> {
    let step2 = match n {
        2 => None,
        3 => Some(2 * d),
        4 => Some(3 * d),
        _ => return Err(format!("castling over {n} squares (Fairy-Max: 2 to 4)")),
    };
    Ok(Ray::new(d, 0x34, step2))
}

/// `castling-files`: one colour's rays of piece `i` (board directions) with its castling rays
/// rebuilt so the king lands on the two files from where that colour's piece starts.
fn castle_on_files(
    v: &Variant,
    i: usize,
    files: [u8; 2],
    white: bool,
    rays: &[Ray],
) -> Result<Vec<Ray>, Inexpressible> {
    if !rays.iter().any(|r| r.low() == 0x34) {
        return Ok(rays.to_vec());
    }
    let p = &v.pieces[i];
    let side = if white { Side::White } else { Side::Black };
    let Some(((file, _), _)) = v
        .start
        .squares()
        .find(|(_, s)| s.side == side && s.letter == p.letter)
    else {
        return Ok(rays.to_vec());
    };
    let mut out = Vec::new();
    for r in rays {
        if r.low() != 0x34 {
            out.push(*r);
            continue;
        }
        let d = r.step.signum();
        let n = if d < 0 {
            i32::from(file) - i32::from(files[0])
        } else {
            i32::from(files[1]) - i32::from(file)
        };
        out.push(castle_ray(d, n).map_err(|reason| Inexpressible::Move {
            letter: p.letter,
            name: p.name.clone(),
            betza: p.betza_text.clone(),
            reason: format!("castling-files: {reason}"),
        })?);
    }
    Ok(out)
}

fn st(v: (i8, i8)) -> i32 {
    step_of((i32::from(v.0), i32::from(v.1)))
}

/// All rays of one piece, White's view. `notes` collects harmless differences.
fn piece_rays(paths: &[Path], pawn: bool, notes: &mut Vec<String>) -> Result<Vec<Ray>, String> {
    let mut out = Vec::new();
    let mut initial_single: Vec<i32> = Vec::new();
    for path in paths {
        match path {
            Path::Castle { dir, n } => out.insert(0, castle_ray(i32::from(*dir), i32::from(*n))?),
            Path::Legs { initial: true, leg } => {
                initial_rays(leg, pawn, &mut out, &mut initial_single)?
            }
            Path::Legs {
                initial: false,
                leg,
            } => leg_rays(leg, pawn, notes, &mut out)?,
        }
    }
    for s in initial_single {
        if !out
            .iter()
            .any(|r| r.step == s && r.second() == s && r.low() & 2 != 0 && r.low() & 0xF0 == 0)
        {
            return Err("an initial single step that is not also a permanent move".into());
        }
    }
    Ok(out)
}

fn cylinder(leg: &Leg) -> Result<i32, String> {
    fn all(leg: &Leg, c: bool) -> bool {
        leg.cylinder == c && leg.next.iter().all(|n| all(n, c))
    }
    if !all(leg, leg.cylinder) {
        return Err("a move only partly on the cylinder".into());
    }
    Ok(if leg.cylinder { 0x100 } else { 0 })
}

fn initial_rays(
    leg: &Leg,
    pawn: bool,
    out: &mut Vec<Ray>,
    single: &mut Vec<i32>,
) -> Result<(), String> {
    if !leg.next.is_empty() || leg.skip > 0 || !leg.jump.is_empty() || leg.cylinder {
        return Err(
            "initial moves other than a leap, a pawn push or castling are not expressible".into(),
        );
    }
    let stop = stop_bits(leg.stop, pawn)?;
    let (dx, dy) = leg.step;
    if pawn {
        // 24 / 424: the blockable double / triple push of types 1 and 2 (non-capture).
        if stop != 2 {
            return Err("a pawn's initial move must be a non-capturing push".into());
        }
        let u = (dx.signum(), dy.signum());
        let straight = (dx == 0 || dy == 0 || dx.abs() == dy.abs()) && u != (0, 0);
        let k = dx.abs().max(dy.abs());
        let lame_ok = leg
            .lame
            .iter()
            .enumerate()
            .all(|(i, &s)| s == (u.0 * (i as i8 + 1), u.1 * (i as i8 + 1)));
        let pushes: Vec<i8> = match leg.max {
            1 if straight
                && lame_ok
                && leg.lame.len() as i8 == k - 1
                && (u.0.abs() + u.1.abs() <= 2) =>
            {
                vec![k]
            }
            n @ 2..=3 if (dx.abs() <= 1 && dy.abs() <= 1) && leg.lame.is_empty() => {
                (1..=n as i8).collect()
            }
            _ => {
                return Err(
                    "a pawn's initial move must be a straight push of 2 or 3 squares".into(),
                );
            }
        };
        let unit_step = st(u);
        for p in pushes {
            match p {
                1 => single.push(unit_step),
                2 => out.insert(0, Ray::new(unit_step, 0x24, None)),
                3 => out.insert(0, Ray::new(unit_step, 0x424, None)),
                _ => return Err("a pawn push longer than 3 squares".into()),
            }
        }
        return Ok(());
    }
    // E4 / F4: an initial jump r + v of a piece that never moved (first square may be occupied).
    if leg.max != 1 || !leg.lame.is_empty() {
        return Err("an initial slide or lame initial leap of a non-pawn is not expressible (Fairy-Max's initial leaps jump)".into());
    }
    let mode = match stop {
        2 => 0xE4,
        3 => 0xF4,
        _ => return Err("an initial capture-only leap is not expressible".into()),
    };
    if dx.abs() <= 1 && dy.abs() <= 1 {
        return Err("an initial single-step leap is not expressible (E4/F4 take two steps)".into());
    }
    let r = first_step((dx, dy));
    let v = (dx - r.0, dy - r.1);
    out.push(Ray::new(st(r), mode, (v != r).then(|| st(v))));
    Ok(())
}

/// The first square of the reference lame path: always inside the leap's bounding box.
fn first_step(v: (i8, i8)) -> (i8, i8) {
    if v.0.abs() == v.1.abs() {
        (v.0.signum(), v.1.signum())
    } else if v.0.abs() > v.1.abs() {
        (v.0.signum(), 0)
    } else {
        (0, v.1.signum())
    }
}

fn leg_rays(
    leg: &Leg,
    pawn: bool,
    notes: &mut Vec<String>,
    out: &mut Vec<Ray>,
) -> Result<(), String> {
    let cyl = cylinder(leg)?;
    let u = st(leg.step);
    let s1 = stop_bits(leg.stop, pawn)?;
    if !leg.jump.is_empty() {
        return Err("a leap that must jump over a piece (j) is not expressible".into());
    }
    if leg.sets_ep && leg.max == 1 && leg.next.is_empty() {
        notes.push("the e.p. rights of its lame leap are not kept".into());
    }
    if leg.next.is_empty() {
        if leg.skip > 0 {
            // jR: pass the first square if empty, or hop it if occupied; then slide (§5.9).
            if leg.skip > 1 || leg.max != 0 || !leg.lame.is_empty() {
                return Err("skipping more than one square, or a ranged skipping slider, is not expressible".into());
            }
            out.push(Ray::new(u, cyl | (s1 << 4), None));
            out.push(Ray::new(u, cyl | ((0xC ^ s1) << 4) | 0xC, None));
            return Ok(());
        }
        if !leg.lame.is_empty() {
            // Lame leap: r × k empty squares, then one step v (k ≤ 4).
            let r = leg.lame[0];
            let k = leg.lame.len() as i8;
            let collinear = leg
                .lame
                .iter()
                .enumerate()
                .all(|(i, &s)| s == (r.0 * (i as i8 + 1), r.1 * (i as i8 + 1)));
            if !collinear || k > 4 || leg.max != 1 {
                return Err(
                    "a lame leap whose path turns more than once is not expressible".into(),
                );
            }
            let v = (leg.step.0 - r.0 * k, leg.step.1 - r.1 * k);
            let mode = cyl | (i32::from(k - 1) << 10) | ((4 | s1) << 4);
            out.push(Ray::new(st(r), mode, (v != r).then(|| st(v))));
            return Ok(());
        }
        let mode = match leg.max {
            1 => s1 | 4,
            0 => s1,
            n @ 2..=5 => (i32::from(n - 2) << 10) | 0x40 | s1,
            n => return Err(format!("range {n}: Fairy-Max limits sliders to 5 steps")),
        };
        out.push(Ray::new(u, cyl | mode, None));
        return Ok(());
    }
    if !leg.lame.is_empty() || leg.skip > 0 {
        return Err("a lame or skipping first leg that goes on is not expressible".into());
    }
    for child in &leg.next {
        if !child.next.is_empty()
            || !child.lame.is_empty()
            || child.skip > 0
            || !child.jump.is_empty()
        {
            return Err(
                "a path with more than one change of direction or mode is not expressible".into(),
            );
        }
        let s2 = stop_bits(child.stop, pawn)?;
        let l2 = match child.max {
            1 => s2 | 4,
            0 => s2,
            _ => return Err("a range-limited second leg is not expressible".into()),
        };
        let v = st(child.step);
        match leg.cont {
            Cont::Occupied => {
                // Hopper: slide (or step) to the platform, toggle there.
                let l1 = 8 | s1 | if leg.max == 1 { 4 } else { 0 };
                if leg.max > 1 {
                    return Err("a range-limited hop is not expressible".into());
                }
                let t = l1 ^ l2;
                out.push(Ray::new(u, cyl | (t << 4) | l1, (v != u).then_some(v)));
            }
            Cont::Empty => {
                if leg.max != 1 {
                    return Err("a slide that may turn on any square is not expressible (Fairy-Max turns after a fixed count)".into());
                }
                let t = s1 ^ l2;
                out.push(Ray::new(u, cyl | (t << 4) | s1, (v != u).then_some(v)));
            }
            Cont::Own => return Err("a tame hop (over an own piece only) is not written by the export".into()),
            Cont::Any => return Err("a leap over anything that then goes on is not expressible except as an initial jump".into()),
            Cont::Take { .. } => {
                return Err("a capture before the last leg (a locust capture) is not expressible".into());
            }
            Cont::Never => unreachable!("a leg with continuations has a condition"),
        }
    }
    Ok(())
}
