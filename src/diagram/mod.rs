//! `acedrex diagram`: SVG pictures of how a piece moves (in the style of Wikipedia's movement
//! diagrams) and of positions.
//!
//! Movement diagrams put the piece on an otherwise empty board and mark every square by what the
//! move generator does there: a filled disc where it moves or captures, a ring where it only moves,
//! a cross where it only captures (probed with an enemy on that square), blue instead of green/red
//! for moves it has only as its first move. Bent paths (`t[FR]`, `t[NB]`, any multi-leg move) are
//! drawn as lines from the compiled leg trees, so a reader sees which way a move turns.

pub mod svg;

use crate::explore::{Destination, ExploreError, Probe, destinations_in, probe_game};
use crate::game::Game;
use crate::geometry::{file_of, parse_square, rank_of};
use crate::legs::{Cont, Leg, Path};
use crate::position::{Position, Side};
use std::collections::BTreeMap;
use svg::{CAPTURE, Canvas, INITIAL, MOVE, Mark};

/// Why a diagram could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum DiagramError {
    #[error(transparent)]
    Load(#[from] crate::variant::LoadError),
    /// The Betza string or the square it is drawn from.
    #[error(transparent)]
    Piece(#[from] ExploreError),
    #[error("{variant} has no piece `{}` (pieces: {known})", crate::piece::id::show(*letter))]
    NoSuchPiece {
        variant: String,
        letter: char,
        known: String,
    },
    #[error("{0}")]
    Fen(crate::position::FenError),
    #[error("move {index}: {error}")]
    Move {
        index: usize,
        error: crate::pgn::SanError,
    },
}

/// What to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// A piece of the variant, by letter.
    Piece(char),
    /// Any Betza string.
    Betza(String),
    /// A position of the variant.
    Fen(String),
    /// The position after these moves (coordinate notation or SAN) from the start.
    Moves(String),
    /// The variant's start position.
    Start,
}

/// `acedrex diagram [--variant V] (--piece L | --betza S | --fen F | --moves M) [--at SQ] [--board FxR]`.
#[derive(Debug, Clone)]
pub struct DiagramOptions {
    pub variant: String,
    pub subject: Subject,
    /// The piece's square in movement diagrams (default: the centre, `f6` on 12x12).
    pub at: Option<String>,
    /// Board size of movement diagrams (default: the variant's).
    pub board: Option<(u8, u8)>,
}

impl Default for DiagramOptions {
    fn default() -> Self {
        DiagramOptions {
            variant: "grant-acedrex".into(),
            subject: Subject::Start,
            at: None,
            board: None,
        }
    }
}

/// The SVG text the options describe.
pub fn diagram(opts: &DiagramOptions) -> Result<String, DiagramError> {
    let variant = crate::variant::load(&opts.variant)?;
    let (files, ranks) = opts.board.unwrap_or((variant.files, variant.ranks));
    match &opts.subject {
        Subject::Piece(l) => {
            let i = variant.piece_index(*l).ok_or_else(|| {
                // Space-separated: ids may be longer than a letter (`L! P' +D`).
                let known: String = variant
                    .pieces
                    .iter()
                    .map(|p| crate::piece::id::show(p.letter))
                    .collect::<Vec<_>>()
                    .join(" ");
                DiagramError::NoSuchPiece {
                    variant: variant.name.clone(),
                    letter: *l,
                    known,
                }
            })?;
            let p = &variant.pieces[i];
            let title = format!(
                "{} ({}): {}",
                capitalise(&p.name),
                crate::piece::id::show(p.letter),
                p.betza_text
            );
            Ok(movement(
                &title,
                &p.betza_text,
                p.letter,
                files,
                ranks,
                opts.at.as_deref(),
            )?)
        }
        Subject::Betza(b) => Ok(movement(b, b, '?', files, ranks, opts.at.as_deref())?),
        Subject::Fen(fen) => {
            let game = Game::new(variant);
            let pos = Position::from_fen(&game, fen).map_err(DiagramError::Fen)?;
            Ok(position(&pos, &format!("{}: {fen}", game.variant.name)))
        }
        Subject::Moves(moves) => {
            let game = Game::new(variant);
            let mut pos = Position::start(&game);
            for (i, text) in moves.split_whitespace().enumerate() {
                let m =
                    crate::pgn::parse_san(&mut pos, text).map_err(|error| DiagramError::Move {
                        index: i + 1,
                        error,
                    })?;
                pos.make(m);
            }
            Ok(position(
                &pos,
                &format!("{} after {}", game.variant.name, moves.trim()),
            ))
        }
        Subject::Start => {
            let game = Game::new(variant);
            let pos = Position::start(&game);
            Ok(position(
                &pos,
                &format!("{}: start position", game.variant.name),
            ))
        }
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// A position: pieces as letters in circles (White white discs), coordinates, the last move tinted,
/// a king in check ringed red.
pub fn position(pos: &Position, title: &str) -> String {
    let t = &pos.game().tables;
    let mut c = Canvas::new(t.files, t.ranks, 28, 0);
    c.text(
        svg::MARGIN,
        19,
        14,
        "start",
        r#" font-weight="bold""#,
        title,
    );
    c.board();
    if let Some(m) = pos.last_move().filter(|m| m.from != m.to) {
        for cell in [m.from, m.to] {
            c.tint(
                i32::from(file_of(cell)),
                i32::from(rank_of(cell)),
                "#f6f669",
                "0.6",
            );
        }
    }
    if pos.in_check() {
        let k = pos.royal_square(pos.side_to_move());
        let (x, y) = c.centre(i32::from(file_of(k)), i32::from(rank_of(k)));
        c.raw(&format!(
            r#"<circle cx="{x}" cy="{y}" r="19" fill="{CAPTURE}" fill-opacity="0.8"/>"#
        ));
    }
    for r in 0..t.ranks {
        for f in 0..t.files {
            let piece = pos.at(crate::geometry::cell(f, r));
            if piece.is_piece() {
                // Letters as in FEN: upper case White, lower case Black.
                let white = piece.side() == Side::White;
                c.piece(
                    i32::from(f),
                    i32::from(r),
                    &pos.game().piece_char(piece),
                    white,
                );
            }
        }
    }
    c.finish(title)
}

/// Marks per square: (file, rank) → (mark, first move only).
type Marks = BTreeMap<(i32, i32), (Mark, bool)>;

fn classify(
    quiet: &[Destination],
    captures: &[(i32, i32)],
    cells: impl Iterator<Item = (i32, i32)>,
) -> BTreeMap<(i32, i32), Mark> {
    let mut out = BTreeMap::new();
    for sq in cells {
        let m = quiet
            .iter()
            .any(|d| (i32::from(file_of(d.cell)), i32::from(rank_of(d.cell))) == sq);
        let c = captures.contains(&sq);
        let mark = match (m, c) {
            (true, true) => Mark::Both,
            (true, false) => Mark::Move,
            (false, true) => Mark::Capture,
            (false, false) => continue,
        };
        out.insert(sq, mark);
    }
    out
}

/// The squares a piece reaches from `at`, on an empty board and with an enemy on each square in turn.
fn reach(
    betza_text: &str,
    files: u8,
    ranks: u8,
    at: &str,
    moved: bool,
) -> Result<BTreeMap<(i32, i32), Mark>, ExploreError> {
    let base = Probe {
        files,
        ranks,
        at: at.to_string(),
        friends: vec![],
        enemies: vec![],
        black: false,
        moved,
    };
    let game = probe_game(betza_text, files, ranks)?;
    let quiet = destinations_in(&game, &base)?;
    let mut captures = Vec::new();
    let all: Vec<(i32, i32)> = (0..i32::from(ranks))
        .flat_map(|r| (0..i32::from(files)).map(move |f| (f, r)))
        .collect();
    for &(f, r) in &all {
        let name = format!("{}{}", (b'a' + f as u8) as char, r + 1);
        if name == at {
            continue;
        }
        let probe = Probe {
            enemies: vec![name],
            ..base.clone()
        };
        let cell = crate::geometry::cell(f as u8, r as u8);
        if destinations_in(&game, &probe)?
            .iter()
            .any(|d| d.cell == cell && d.capture)
        {
            captures.push((f, r));
        }
    }
    Ok(classify(&quiet, &captures, all.into_iter()))
}

/// A movement diagram: `betza_text` as a White piece `letter` on `at` (default the centre).
pub fn movement(
    title: &str,
    betza_text: &str,
    letter: char,
    files: u8,
    ranks: u8,
    at: Option<&str>,
) -> Result<String, ExploreError> {
    let (_, paths) = crate::explore::compile(betza_text)?;
    let default_at = format!(
        "{}{}",
        (b'a' + (files - 1) / 2) as char,
        (ranks - 1) / 2 + 1
    );
    let at = at.unwrap_or(&default_at);
    let not_a_square = || ExploreError::NotASquare {
        square: at.to_string(),
        files,
        ranks,
    };
    let (at_cell, n) = parse_square(at, files, ranks).ok_or_else(not_a_square)?;
    if n != at.len() {
        return Err(not_a_square());
    }
    let origin = (i32::from(file_of(at_cell)), i32::from(rank_of(at_cell)));
    // Regular moves are those of a piece that has moved; the rest of an unmoved piece's are initial.
    let regular = reach(betza_text, files, ranks, at, true)?;
    let mut marks: Marks = regular.iter().map(|(&sq, &m)| (sq, (m, false))).collect();
    if paths
        .iter()
        .any(|p| matches!(p, Path::Legs { initial: true, .. }))
    {
        for (sq, m) in reach(betza_text, files, ranks, at, false)? {
            if regular.get(&sq) != Some(&m) {
                marks.entry(sq).or_insert((m, true));
            }
        }
    }
    let legend_rows = 1 + i32::from(marks.values().any(|&(_, i)| i));
    let mut c = Canvas::new(files, ranks, 28, 8 + legend_rows * 22);
    c.text(
        svg::MARGIN,
        19,
        14,
        "start",
        r#" font-weight="bold""#,
        title,
    );
    c.board();
    // Path lines first, so marks and the piece sit on top of them.
    for line in bent_lines(&paths, origin, files, ranks) {
        c.path(&line);
    }
    for (&(f, r), &(mark, initial)) in &marks {
        let colour = match (initial, mark) {
            (true, _) => INITIAL,
            (false, Mark::Capture) => CAPTURE,
            (false, _) => MOVE,
        };
        c.mark(f, r, mark, colour);
    }
    c.piece(origin.0, origin.1, &crate::piece::id::show(letter), true);
    legend(&mut c, &marks);
    Ok(c.finish(title))
}

/// One entry of the key: first-move-only or not, the mark, its colour, its words.
type KeyEntry = (bool, Mark, &'static str, &'static str);

const KEY: [KeyEntry; 6] = [
    (false, Mark::Both, MOVE, "moves or captures"),
    (false, Mark::Move, MOVE, "moves only, no capture"),
    (false, Mark::Capture, CAPTURE, "captures only"),
    (
        true,
        Mark::Both,
        INITIAL,
        "first move only: moves or captures",
    ),
    (true, Mark::Move, INITIAL, "first move only, no capture"),
    (true, Mark::Capture, INITIAL, "first move: captures only"),
];

/// The key below the board: only the marks the diagram uses, regular ones on the first row.
fn legend(c: &mut Canvas, marks: &Marks) {
    let mut y = c.top + i32::from(c.ranks) * svg::SQ + svg::MARGIN + 14;
    for row in [false, true] {
        let used: Vec<&KeyEntry> = KEY
            .iter()
            .filter(|(initial, m, _, _)| {
                *initial == row && marks.values().any(|&(mm, i)| mm == *m && i == row)
            })
            .collect();
        if used.is_empty() {
            continue;
        }
        let mut x = svg::MARGIN + 10;
        for (_, mark, colour, label) in used {
            c.mark_at(x, y, *mark, colour);
            c.text(x + 16, y + 5, 13, "start", "", label);
            x += 30 + 8 * label.len() as i32;
        }
        y += 22;
    }
}

/// Polylines (in squares) of every multi-leg path from `origin` on an empty board: origin, each bend,
/// and the farthest square of the last leg.
fn bent_lines(paths: &[Path], origin: (i32, i32), files: u8, ranks: u8) -> Vec<Vec<(i32, i32)>> {
    let mut out = Vec::new();
    for p in paths {
        if let Path::Legs { leg, .. } = p
            && !leg.next.is_empty()
        {
            trace(leg, origin, vec![origin], files, ranks, &mut out);
        }
    }
    out.sort();
    out.dedup();
    out
}

fn trace(
    leg: &Leg,
    from: (i32, i32),
    line: Vec<(i32, i32)>,
    files: u8,
    ranks: u8,
    out: &mut Vec<Vec<(i32, i32)>>,
) {
    let on_board =
        |(f, r): (i32, i32)| f >= 0 && r >= 0 && f < i32::from(files) && r < i32::from(ranks);
    let mut at = from;
    let mut last = None;
    let mut n = 0;
    loop {
        let next = (at.0 + i32::from(leg.step.0), at.1 + i32::from(leg.step.1));
        if !on_board(next) {
            break;
        }
        at = next;
        n += 1;
        // On an empty board a leg goes on from squares where it may continue when they are empty.
        if !leg.next.is_empty()
            && matches!(
                leg.cont,
                Cont::Empty | Cont::Any | Cont::Take { empty: true, .. }
            )
        {
            for nx in &leg.next {
                let mut l = line.clone();
                l.push(at);
                trace(nx, at, l, files, ranks, out);
            }
        }
        if leg.stop.any() {
            last = Some(at);
        }
        if leg.max != 0 && n >= leg.max {
            break;
        }
    }
    if leg.next.is_empty()
        && let Some(end) = last
    {
        let mut l = line;
        l.push(end);
        out.push(l);
    }
}
