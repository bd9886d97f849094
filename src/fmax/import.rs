//! Fairy-Max `fmax.ini` → acedrex variant files, one per `Game:` block.
//!
//! Rays are decompiled into XBetza (White's view): leapers and sliders into atoms with direction
//! letters, bent rays into brackets, lame rays into `n`, special modes into `i` moves and castling,
//! hoppers into `p`/`g`, Fairy-Max's king of the hill into `goal`, the `seirawan` block's gating
//! (switched on by that name in fairymax.c) into `gating`. Multi-path rays and the bifurcators'
//! tame hops take the block's own XBetza note. A block using something with no acedrex reading
//! (expendable royalty beyond acedrex's rules, ...) is reported, not guessed.

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

/// Why a `Game:` block was not translated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("gating needs piece types 9 and 10 (the pieces in hand)")]
    GatingTypes,
    #[error("no board line")]
    NoBoard,
    #[error("bad board line")]
    BadBoard,
    #[error("bad width")]
    BadWidth,
    #[error("bad height")]
    BadHeight,
    #[error("bad zone")]
    BadZone,
    #[error("pawn rank {0} does not fit the board")]
    PawnRank(i32),
    #[error("missing setup line")]
    NoSetup,
    #[error("bad setup number {0}")]
    SetupNumber(String),
    #[error("a setup line has {found} numbers for {files} files")]
    SetupLength { found: usize, files: usize },
    #[error("bad value in `{0}`")]
    Value(String),
    #[error("bad ray `{0}`")]
    Ray(String),
    #[error("fewer than two piece types (Fairy-Max's types 1 and 2 are the pawns)")]
    TooFewTypes,
    #[error(
        "type 3 with value -2 is Fairy-Max's king-of-the-hill rule, whose four central squares an odd board lacks"
    )]
    KingOfTheHill,
    #[error("piece {0} is an iron (uncapturable) piece")]
    Iron(char),
    #[error("the setup uses piece type {used}, but only {count} are defined")]
    UndefinedType { used: usize, count: usize },
    #[error("pawns promote to type {0}, which is not defined")]
    UndefinedPromotion(usize),
    #[error("piece {letter} (type {kind}): {why}")]
    Piece {
        letter: char,
        kind: usize,
        why: DecompileError,
    },
    #[error("more than 26 piece kinds")]
    TooManyKinds,
    #[error("no royal piece")]
    NoRoyal,
    #[error("several royal pieces a side, of values that lose with the first and with the last")]
    ExpendableRoyals,
    #[error("file {0} starts empty, so its pawn promotion is undefined")]
    EmptyFile(char),
}

/// Why a piece's rays have no XBetza reading.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecompileError {
    #[error("ray {0}: multi-path moves (the Falcon) have no XBetza reading here")]
    MultiPath(Ray),
    #[error("ray {0}: only plain leaps and slides can be cylindrical here")]
    Cylinder(Ray),
    #[error("ray {0}: a lame leap off the reference path")]
    LamePath(Ray),
    #[error("ray {0}: a continuation that is not a single step or straight slide")]
    Continuation(Ray),
    #[error("ray {0}: a path that turns after more than one step is not translated")]
    LateTurn(Ray),
    #[error("ray {0}: a hop that changes direction (bifurcator)")]
    Bifurcator(Ray),
    #[error("ray {0}: a special mode without an XBetza reading (e.g. the C24 pawn kludge)")]
    SpecialMode(Ray),
    #[error("ray {ray}: mode {mode:X} is not translated")]
    Mode { ray: Ray, mode: i32 },
    #[error("ray {0}: a step longer than any board")]
    OffBoard(Ray),
    #[error("ray {0}: a step that goes nowhere")]
    ZeroStep(Ray),
    #[error("castling other than 2 to 4 squares sideways")]
    Castling,
    #[error("a piece without moves")]
    NoMoves,
}

/// One Fairy-Max piece type: letter, value (negative: royal) and rays, White's view.
struct FmType {
    letter: char,
    value: i32,
    rays: Vec<Ray>,
}

/// The board line `FILESxRANKS[=N]`: size, promotion zone depth minus one, and the pawn rank.
struct Board {
    files: usize,
    ranks: usize,
    zone: i32,
    prank: usize,
}

/// The two back-rank lines: a piece type (0 = empty) per file.
struct Setup {
    white: Vec<usize>,
    black: Vec<usize>,
}

/// Which (type, colour) pairs the variant needs: `required` can occur in play (setup, pawns,
/// default promotion), `optional` only as a promotion choice a player may type.
struct Uses {
    by_file: bool,
    required: BTreeSet<(usize, bool)>,
    optional: BTreeSet<(usize, bool)>,
}

/// An acedrex piece kind: one per distinct White-view ray set.
struct Piece {
    letter: char,
    rays: Vec<Ray>,
    betza: String,
    value: i32,
    royal: bool,
    /// Fairy-Max's pawn mode C24: its moves on the third rank, where it may step two again.
    third_rank: Option<String>,
}

/// The piece kinds and which kind each (type, colour) became.
struct Cast {
    pieces: Vec<Piece>,
    piece_of: BTreeMap<(usize, bool), usize>,
    /// Promotion choices left out, with the reason (written as comments).
    dropped: Vec<String>,
}

impl Cast {
    fn piece(&self, t: usize, white: bool) -> &Piece {
        &self.pieces[self.piece_of[&(t, white)]]
    }

    /// The FEN letter of a (type, colour).
    fn letter_of(&self, t: usize, white: bool) -> char {
        let c = self.piece(t, white).letter;
        if white { c } else { c.to_ascii_lowercase() }
    }

    /// The pawn letters: White's, then Black's when the two pawn types differ (spartan's hoplite).
    fn pawns(&self) -> String {
        let (w, b) = (self.piece(1, true).letter, self.piece(2, false).letter);
        if w == b {
            w.to_string()
        } else {
            format!("{w}{b}")
        }
    }
}

/// One `Game:` block → the text of a variant file (its name left as `\0`, filled in by the caller).
fn block(
    name: &str,
    parent: Option<&str>,
    description: Option<&str>,
    rest: &[&str],
) -> Result<String, ImportError> {
    let mut lines = rest.iter().map(|l| l.trim()).filter(|l| !l.is_empty());
    let board = read_board(lines.next())?;
    let setup = Setup {
        white: read_setup(lines.next(), board.files)?,
        black: read_setup(lines.next(), board.files)?,
    };
    let types = read_types(lines)?;
    refuse_unsupported(&types, &setup)?;
    let uses = uses(&types, &setup, &board)?;
    let cast = cast_pieces(&types, &uses, &read_notes(rest))?;
    let royal_loss = royal_rule(&cast, &setup)?;
    let mut start = start_fen(&board, &setup, &cast);
    // fairymax.c switches Seirawan gating on by the block's name: each side holds one piece of
    // types 9 and 10, which enter on the square a never-moved first-rank piece leaves.
    let gating = (name == "seirawan")
        .then(|| gating(&types, &setup, &cast, &mut start))
        .transpose()?;
    let promotion = promotion_line(&board, &types, &setup, &uses, &cast)?;
    let stalemate_loses = types.get(9).is_some_and(|t| t.value == -2);
    let rules: Vec<String> = royal_loss
        .into_iter()
        .chain(hill(&types, &board, &cast)?)
        .chain(gating)
        .collect();
    Ok(variant_text(
        name,
        parent,
        description,
        &board,
        &cast,
        &start,
        &promotion,
        stalemate_loses,
        &rules,
    ))
}

/// Fairy-Max's king of the hill (type 3 with value -2): that piece wins on reaching one of the
/// four central squares, as a `goal` line.
fn hill(types: &[FmType], board: &Board, cast: &Cast) -> Result<Option<String>, ImportError> {
    if types.get(3).is_none_or(|t| t.value != -2) {
        return Ok(None);
    }
    if board.files % 2 == 1 || board.ranks % 2 == 1 {
        return Err(ImportError::KingOfTheHill);
    }
    let mut letters: Vec<char> = [true, false]
        .into_iter()
        .filter_map(|white| cast.piece_of.get(&(3, white)))
        .map(|&i| cast.pieces[i].letter)
        .collect();
    letters.dedup();
    let (f, r) = (board.files / 2, board.ranks / 2);
    let square = |f: usize, r: usize| format!("{}{}", (b'a' + f as u8) as char, r);
    Ok(Some(format!(
        "goal {} {}-{}",
        letters.into_iter().collect::<String>(),
        square(f - 1, r),
        square(f, r + 1)
    )))
}

fn read_board(line: Option<&str>) -> Result<Board, ImportError> {
    let board = line.ok_or(ImportError::NoBoard)?;
    let (size, zone_text) = board
        .split_once('=')
        .map_or((board, None), |(a, b)| (a, Some(b)));
    let (w, h) = size.split_once('x').ok_or(ImportError::BadBoard)?;
    let (files, ranks): (usize, usize) = (
        w.trim().parse().map_err(|_| ImportError::BadWidth)?,
        h.trim().parse().map_err(|_| ImportError::BadHeight)?,
    );
    let n: i32 = zone_text
        .map_or(Ok(1), |z| z.trim().parse())
        .map_err(|_| ImportError::BadZone)?;
    let (mut zone, mut prank) = (n - 1, if n - 1 != 0 { n - 1 } else { 1 });
    if zone < 0 {
        prank = -1 - zone;
        zone = 0;
    }
    if prank < 1 || prank as usize * 2 + 2 > ranks {
        return Err(ImportError::PawnRank(prank + 1));
    }
    Ok(Board {
        files,
        ranks,
        zone,
        prank: prank as usize,
    })
}

fn read_setup(line: Option<&str>, files: usize) -> Result<Vec<usize>, ImportError> {
    let v: Vec<usize> = line
        .ok_or(ImportError::NoSetup)?
        .split_whitespace()
        .map(|t| t.parse().map_err(|_| ImportError::SetupNumber(t.into())))
        .collect::<Result<_, _>>()?;
    if v.len() != files {
        return Err(ImportError::SetupLength {
            found: v.len(),
            files,
        });
    }
    Ok(v)
}

/// A block's `# X& BETZA` lines: Fairy-Max's XBetza for its pieces, sent to XBoard. `X` is
/// White's letter (upper case) or Black's (lower case); `&` makes it both colours'.
struct Notes(Vec<(char, bool, String)>);

impl Notes {
    fn get(&self, letter: char, white: bool) -> Option<&str> {
        let wanted = if white {
            letter.to_ascii_uppercase()
        } else {
            letter.to_ascii_lowercase()
        };
        self.0
            .iter()
            .find(|(c, both, _)| *c == wanted || (*both && c.eq_ignore_ascii_case(&letter)))
            .map(|(_, _, b)| b.as_str())
    }
}

/// The notes of the block that starts `rest`: its lines up to the first blank one.
fn read_notes(rest: &[&str]) -> Notes {
    let notes = rest
        .iter()
        .map(|l| l.trim())
        .take_while(|l| !l.is_empty())
        .filter_map(|l| {
            let mut toks = l.strip_prefix('#')?.split_whitespace();
            let (who, betza) = (toks.next()?, toks.next()?);
            let both = who.ends_with('&');
            let mut c = who.trim_end_matches('&').chars();
            match (c.next(), c.next()) {
                (Some(c), None) if c.is_ascii_alphabetic() => Some((c, both, betza.to_string())),
                _ => None,
            }
        })
        .collect();
    Notes(notes)
}

/// The piece lines `c:value ray...`, up to the first line that is not one. Index 0 is a
/// placeholder so that Fairy-Max's type numbers index the list.
fn read_types<'a>(lines: impl Iterator<Item = &'a str>) -> Result<Vec<FmType>, ImportError> {
    let mut types: Vec<FmType> = vec![FmType {
        letter: ' ',
        value: 0,
        rays: vec![],
    }];
    for line in lines {
        let mut toks = line.split_whitespace();
        let Some(first) = toks.next() else { continue };
        let Some((c, value)) = first
            .split_once(':')
            .filter(|(c, _)| c.chars().count() == 1)
        else {
            break;
        };
        let value: i32 = value.parse().map_err(|_| ImportError::Value(line.into()))?;
        let rays: Vec<Ray> = toks
            .map(|t| Ray::parse(t).ok_or_else(|| ImportError::Ray(t.into())))
            .collect::<Result<_, _>>()?;
        types.push(FmType {
            letter: c.chars().next().expect("one char").to_ascii_uppercase(),
            value,
            rays,
        });
    }
    Ok(types)
}

/// Fairy-Max rules acedrex does not have, and setups that name undefined types.
fn refuse_unsupported(types: &[FmType], setup: &Setup) -> Result<(), ImportError> {
    let count = types.len() - 1;
    if count < 2 {
        return Err(ImportError::TooFewTypes);
    }
    if let Some(t) = types.iter().find(|t| t.value <= -666) {
        return Err(ImportError::Iron(t.letter));
    }
    if let Some(&used) = setup.white.iter().chain(&setup.black).find(|&&t| t > count) {
        return Err(ImportError::UndefinedType { used, count });
    }
    Ok(())
}

/// Which (type, colour) can occur: setup, pawns, promotion (7, or 9 for Black by the pm rule, or
/// by file), and every letter a player may type as promotion choice.
fn uses(types: &[FmType], setup: &Setup, board: &Board) -> Result<Uses, ImportError> {
    let count = types.len() - 1;
    let promotable = |t: usize| t > 2 && types[t].value != -1 && types[t].value % 10 != 3;
    let white_type = |c: char| (1..=count).find(|&t| types[t].letter == c);
    let black_type = |c: char| (1..=count).rev().find(|&t| types[t].letter == c);
    let (white, black) = (&setup.white, &setup.black);
    let mut required: BTreeSet<(usize, bool)> = BTreeSet::new();
    required.extend(white.iter().filter(|&&t| t > 0).map(|&t| (t, true)));
    required.extend(black.iter().filter(|&&t| t > 0).map(|&t| (t, false)));
    required.insert((1, true));
    required.insert((2, false));
    let by_file = board.prank == 3;
    let mut optional: BTreeSet<(usize, bool)> = BTreeSet::new();
    if !by_file {
        let pm = !black.contains(&7) && black.contains(&9) && white.contains(&7);
        let black_default = if pm { 9 } else { 7 };
        if let Some(t) = [7, black_default].into_iter().find(|&t| t > count) {
            return Err(ImportError::UndefinedPromotion(t));
        }
        required.insert((7, true));
        required.insert((black_default, false));
        for t in (3..=count).filter(|&t| promotable(t)) {
            let c = types[t].letter;
            optional.insert((white_type(c).expect("exists"), true));
            optional.insert((black_type(c).expect("exists"), false));
        }
    }
    Ok(Uses {
        by_file,
        required,
        optional,
    })
}

/// Each use as White-view rays; distinct ray sets under one letter get fresh letters. A required
/// piece without an XBetza reading fails the block; an optional one is dropped.
fn cast_pieces(types: &[FmType], uses: &Uses, notes: &Notes) -> Result<Cast, ImportError> {
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
    let mut cast = Cast {
        pieces: Vec::new(),
        piece_of: BTreeMap::new(),
        dropped: Vec::new(),
    };
    let mut used_letters: BTreeSet<char> = types.iter().map(|t| t.letter).collect();
    let all = uses.required.iter().map(|&u| (u, true)).chain(
        uses.optional
            .iter()
            .filter(|u| !uses.required.contains(u))
            .map(|&u| (u, false)),
    );
    for ((t, white), required) in all {
        let rays = view(t, white);
        if let Some(i) = cast
            .pieces
            .iter()
            .position(|p| p.rays == rays && p.value == types[t].value)
        {
            cast.piece_of.insert((t, white), i);
            continue;
        }
        let betza = match decompile(&rays, t <= 2) {
            Ok(b) => b,
            // A multi-path ray (the Falcon) and a tame hop that turns (the bifurcators) have no
            // ray reading here; the block's own XBetza note for the piece says what it does.
            Err(DecompileError::MultiPath(_) | DecompileError::Bifurcator(_))
                if notes.get(types[t].letter, white).is_some() =>
            {
                notes
                    .get(types[t].letter, white)
                    .expect("checked")
                    .to_string()
            }
            Err(why) if required => {
                return Err(ImportError::Piece {
                    letter: types[t].letter,
                    kind: t,
                    why,
                });
            }
            Err(why) => {
                cast.dropped.push(format!(
                    "piece {} (type {t}, a promotion choice only): {why}",
                    types[t].letter
                ));
                continue;
            }
        };
        // The note serves both colours: one kind, whatever the rays' orientation.
        if let Some(i) = cast
            .pieces
            .iter()
            .position(|p| p.betza == betza && p.value == types[t].value && p.rays != rays)
            .filter(|_| notes.get(types[t].letter, white) == Some(betza.as_str()))
        {
            cast.piece_of.insert((t, white), i);
            continue;
        }
        let mut letter = types[t].letter;
        if cast.pieces.iter().any(|p| p.letter == letter) {
            letter = ('A'..='Z')
                .find(|c| !used_letters.contains(c))
                .ok_or(ImportError::TooManyKinds)?;
            used_letters.insert(letter);
        }
        cast.piece_of.insert((t, white), cast.pieces.len());
        let third_rank = rays.iter().any(|r| is_c24(*r)).then(|| {
            // Its moves without the first-rank (initial) ones, and the double step again.
            let plain = betza.find('i').map_or(betza.as_str(), |i| &betza[..i]);
            format!("{plain}fmnD")
        });
        cast.pieces.push(Piece {
            letter,
            rays,
            betza,
            value: types[t].value,
            royal: types[t].value < 0,
            third_rank,
        });
    }
    Ok(cast)
}

/// Some piece is royal; what several royal pieces a side mean, as a `royal-loss` line. Fairy-Max:
/// with royal value -1 the first one lost loses (acedrex's default `any`); with another value the
/// last one lost loses (`last`), and for types above 7 no move may leave two attacked (`duple`).
fn royal_rule(cast: &Cast, setup: &Setup) -> Result<Option<String>, ImportError> {
    if !cast.pieces.iter().any(|p| p.royal) {
        return Err(ImportError::NoRoyal);
    }
    let mut several: BTreeSet<(bool, bool)> = BTreeSet::new();
    for (line, white) in [(&setup.white, true), (&setup.black, false)] {
        let royal: Vec<(usize, &Piece)> = line
            .iter()
            .filter(|&&t| t > 0)
            .filter_map(|&t| Some((t, &cast.pieces[*cast.piece_of.get(&(t, white))?])))
            .filter(|(_, p)| p.royal)
            .collect();
        if royal.len() > 1 {
            several.extend(royal.iter().map(|(t, p)| (p.value != -1, *t > 7)));
        }
    }
    match several.into_iter().collect::<Vec<_>>().as_slice() {
        [] | [(false, _)] | [(false, _), (false, _)] => Ok(None),
        [(true, false)] => Ok(Some("royal-loss last".into())),
        [(true, true)] => Ok(Some("royal-loss duple".into())),
        _ => Err(ImportError::ExpendableRoyals),
    }
}

/// Fairy-Max's pawn mode C24 (almost-wildebeest): a triple step from the first rank, and a
/// double step from the third.
fn is_c24(r: Ray) -> bool {
    r.low() & 0xF == 4 && (r.low() >> 4) & 0xF == 2 && (r.low() >> 10) & 3 == 3
}

/// The start FEN: back ranks from the setup lines, a full pawn rank each, castling rights when the
/// royal piece castles (or has an initial move).
fn start_fen(board: &Board, setup: &Setup, cast: &Cast) -> String {
    let (files, ranks, pr) = (board.files, board.ranks, board.prank);
    let rows: Vec<String> = (0..ranks)
        .rev()
        .map(|r| {
            let row: Vec<Option<char>> = (0..files)
                .map(|f| {
                    if r == 0 {
                        (setup.white[f] > 0).then(|| cast.letter_of(setup.white[f], true))
                    } else if r == ranks - 1 {
                        (setup.black[f] > 0).then(|| cast.letter_of(setup.black[f], false))
                    } else if r == pr {
                        Some(cast.letter_of(1, true))
                    } else if r == ranks - 1 - pr {
                        Some(cast.letter_of(2, false))
                    } else {
                        None
                    }
                })
                .collect();
            fen_rank(row)
        })
        .collect();
    // Each side's rights from its own royal pieces: castling, or another initial move.
    let rights_of = |line: &[usize], white: bool| -> &str {
        let royals = || {
            line.iter()
                .filter(|&&t| t > 0)
                .map(move |&t| cast.piece(t, white))
                .filter(|p| p.royal)
        };
        match (
            royals().any(|r| r.betza.contains('O')),
            royals().any(|r| r.rays.iter().any(|r| r.low() & 0xF == 4)),
            white,
        ) {
            (true, _, true) => "KQ",
            (true, _, false) => "kq",
            (false, true, true) => "K",
            (false, true, false) => "k",
            _ => "",
        }
    };
    let rights = format!(
        "{}{}",
        rights_of(&setup.white, true),
        rights_of(&setup.black, false)
    );
    let rights = if rights.is_empty() { "-" } else { &rights };
    format!("{} w {rights} - 0 1", rows.join("/"))
}

/// Seirawan gating: the hands (`[HEhe]`) and the gates (every first-rank file, after the
/// castling rights) in `start`; the `gating` line.
fn gating(
    types: &[FmType],
    setup: &Setup,
    cast: &Cast,
    start: &mut String,
) -> Result<String, ImportError> {
    if types.len() <= 10 {
        return Err(ImportError::GatingTypes);
    }
    let (a, b) = (cast.letter_of(9, true), cast.letter_of(10, true));
    let hands = format!(
        "[{a}{b}{}{}]",
        cast.letter_of(9, false),
        cast.letter_of(10, false)
    );
    let gates = |line: &[usize], white: bool| -> String {
        (0..line.len())
            .filter(|&f| line[f] > 0)
            .map(|f| {
                let c = (b'a' + f as u8) as char;
                if white { c.to_ascii_uppercase() } else { c }
            })
            .collect()
    };
    let mut fields: Vec<String> = start.split(' ').map(String::from).collect();
    let rights = fields[2].trim_matches('-');
    let (white_rights, black_rights): (String, String) =
        rights.chars().partition(|c| c.is_ascii_uppercase());
    fields[0] += &hands;
    fields[2] = format!(
        "{white_rights}{}{black_rights}{}",
        gates(&setup.white, true),
        gates(&setup.black, false)
    );
    *start = fields.join(" ");
    Ok(format!("gating {a}{b}"))
}

/// One FEN rank: letters, runs of empty squares as numbers.
fn fen_rank(row: Vec<Option<char>>) -> String {
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
}

/// The `promotion` line: by file (Fairy-Max's pawn rank 4 rule: the piece that started on the
/// file, the royal's file taking its neighbour's) or a choice of type 7 and every promotable kind.
fn promotion_line(
    board: &Board,
    types: &[FmType],
    setup: &Setup,
    uses: &Uses,
    cast: &Cast,
) -> Result<String, ImportError> {
    let pawn = cast.pawns();
    let zone = board.zone + 1;
    if uses.by_file {
        let white = &setup.white;
        let letters: String = (0..board.files)
            .map(|f| {
                let t = if f > 0 && white[f] > 0 && types[white[f]].value < 0 {
                    white[f - 1]
                } else {
                    white[f]
                };
                if t == 0 {
                    Err(ImportError::EmptyFile((b'a' + f as u8) as char))
                } else {
                    Ok(cast.letter_of(t, true))
                }
            })
            .collect::<Result<_, _>>()?;
        return Ok(format!("promotion {pawn} zone {zone} by-file {letters}"));
    }
    let mut letters = vec![cast.letter_of(7, true)];
    for &(t, white) in &uses.optional {
        if let Some(&i) = cast.piece_of.get(&(t, white)) {
            let c = cast.pieces[i].letter;
            if !letters.contains(&c) && !cast.pieces[i].royal && !pawn.contains(c) {
                letters.push(c);
            }
        }
    }
    Ok(format!(
        "promotion {pawn} zone {zone} choice {}",
        letters.into_iter().collect::<String>()
    ))
}

/// The variant file; Fairy-Max's fixed rules (no castling through check, free initial moves, no
/// bare-king rule) are written out.
#[allow(clippy::too_many_arguments)]
fn variant_text(
    name: &str,
    parent: Option<&str>,
    description: Option<&str>,
    board: &Board,
    cast: &Cast,
    start: &str,
    promotion: &str,
    stalemate_loses: bool,
    rules: &[String],
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Imported from Fairy-Max's fmax.ini, block `Game: {name}` (acedrex fmax-import)."
    );
    for d in &cast.dropped {
        let _ = writeln!(out, "# Left out: {d}");
    }
    out += "variant \u{0}\n";
    // acedrex's XBoard names are lower case; Fairy-Max lists only such names anyway.
    let _ = writeln!(out, "xboard \u{0} {}", parent.unwrap_or("fairy"));
    if let Some(d) = description.filter(|d| !d.is_empty()) {
        let _ = writeln!(out, "description {d}");
    }
    let _ = writeln!(out, "board {}x{}", board.files, board.ranks);
    if cast.pieces.iter().any(|p| p.third_rank.is_some()) {
        let last = (b'a' + board.files as u8 - 1) as char;
        let _ = writeln!(out, "region third a3-{last}3");
    }
    out += &piece_lines(cast);
    let _ = writeln!(out, "start {start}");
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
    for r in rules {
        let _ = writeln!(out, "{r}");
    }
    out
}

/// `piece` lines, with names from the Betza where it is a familiar piece, each name once.
fn piece_lines(cast: &Cast) -> String {
    let pawns = cast.pawns();
    let mut out = String::new();
    let mut names: BTreeSet<String> = BTreeSet::new();
    for p in &cast.pieces {
        let mut pname = if pawns.contains(p.letter) {
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
        if let Some(b) = &p.third_rank {
            let _ = write!(out, " in third {b}");
        }
        out.push('\n');
    }
    out
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
pub(crate) fn decompile(rays: &[Ray], pawn: bool) -> Result<String, DecompileError> {
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
    // Fairy-Max's pawn double (or triple) step leaves e.p. rights, and a pawn's capturing leap
    // onto the passed square takes the pawn that made it: acedrex's `e`.
    let en_passant = pawn
        && rays
            .iter()
            .any(|r| r.low() & 0xF == 4 && (r.low() >> 4) & 0xF == 2);
    let mut castles: Vec<((i32, i32), (i32, i32))> = Vec::new();
    for &ray in rays {
        let low = ray.low() & 0xF;
        let tog = (ray.low() >> 4) & 0xF;
        let count = (ray.low() >> 10) & 3;
        let cyl = ray.low() & 0x100 != 0;
        let u = vector_of(ray.step);
        let v = vector_of(ray.second());
        // Fairy-Max's board is 16 wide, so a step's file offset is always in range, its rank
        // offset not: beyond 15 ranks no board has the square (and the direction tables overflow).
        if u.1.abs() > 15 || v.1.abs() > 15 {
            return Err(DecompileError::OffBoard(ray));
        }
        if u == (0, 0) || v == (0, 0) {
            return Err(DecompileError::ZeroStep(ray));
        }
        if ray.low() & 0x200 != 0 {
            return Err(DecompileError::MultiPath(ray));
        }
        let o = if cyl { "o" } else { "" };
        if cyl && !(low & 8 == 0 && low != 4 && (low & 4 != 0 || (tog == 0 && count == 0))) {
            return Err(DecompileError::Cylinder(ray));
        }
        match low {
            5 if en_passant => add("", format!("ce{o}"), u, String::new()),
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
                        return Err(DecompileError::LamePath(ray));
                    }
                    add("", format!("{}n", stop_letters(l2)), total, String::new());
                } else if k == 1 && l2 & 8 == 0 {
                    if compass(v).is_none() {
                        return Err(DecompileError::Continuation(ray));
                    }
                    bent.entry((low, l2)).or_default().push((u, v));
                } else {
                    return Err(DecompileError::LateTurn(ray));
                }
            }
            8..=11 if tog & 8 != 0 && count == 0 => {
                let l2 = low ^ tog;
                if v != u {
                    return Err(DecompileError::Bifurcator(ray));
                }
                if low & 3 != 0 {
                    add("", stop_letters(low).into(), u, "0".into());
                }
                let kind = if l2 & 4 != 0 { "g" } else { "p" };
                add("", format!("{}{kind}", stop_letters(l2)), u, "0".into());
            }
            // Hopper bits 0x800 (an own platform) and 0x400 (turn one step before it): the
            // bifurcators' tame hops, read from the block's note.
            8..=11 if tog & 8 != 0 => return Err(DecompileError::Bifurcator(ray)),
            4 => match tog {
                2 if pawn && count == 0 => add("i", "mn".into(), (2 * u.0, 2 * u.1), String::new()),
                2 if pawn && count == 1 => add("i", "mn".into(), (3 * u.0, 3 * u.1), String::new()),
                // C24: the triple step (the third-rank double step is the piece's `in third`).
                2 if pawn && count == 3 => add("i", "mn".into(), (3 * u.0, 3 * u.1), String::new()),
                // 64: a double step that cannot be taken en passant (spartan's Persian pawns); no
                // capture of this pawn has `e` then.
                6 if pawn && count == 0 => add("i", "mn".into(), (2 * u.0, 2 * u.1), String::new()),
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
                    return Err(DecompileError::SpecialMode(ray));
                }
            },
            _ => {
                return Err(DecompileError::Mode {
                    ray,
                    mode: ray.low(),
                });
            }
        }
    }
    let mut out = String::new();
    // Castling (§5.6): the king lands on u + v, u a sideways step; `isO2` when both sides agree.
    let mut left: Vec<i32> = Vec::new();
    let mut right: Vec<i32> = Vec::new();
    for &(u, v) in &castles {
        if u.1 != 0 || v.1 != 0 || u.0.abs() != 1 || v.0 * u.0 <= 0 || v.0.abs() > 3 {
            return Err(DecompileError::Castling);
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
        out += &bracket_text(*leg1, *leg2, pairs);
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
        return Err(DecompileError::NoMoves);
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
fn bracket_text(l1: i32, l2: i32, pairs: &[Bent]) -> String {
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
    out
}
