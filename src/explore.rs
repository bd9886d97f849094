//! What one Betza string does from one square of an otherwise empty board: the designer's quick
//! check behind `acedrex piece`, and the harness of the notation's test vectors.

use crate::betza;
use crate::game::Game;
use crate::geometry::{file_of, parse_square, rank_of, square_name};
use crate::position::{Position, Setup, Side};
use crate::variant::{
    BareKing, CastlingRules, EndRules, Outcome, PieceDef, Promotion, PromotionTarget, Variant,
};
use std::sync::Arc;

/// Why a piece could not be tried.
#[derive(Debug, thiserror::Error)]
pub enum ExploreError {
    #[error("{text}: {error}")]
    Betza {
        text: String,
        error: betza::BetzaError,
    },
    #[error("{text}: {error}")]
    Unsupported {
        text: String,
        error: crate::legs::Unsupported,
    },
    #[error("`{square}` is not a square of a {files}x{ranks} board")]
    NotASquare {
        square: String,
        files: u8,
        ranks: u8,
    },
    #[error("{0}")]
    Position(crate::position::FenError),
}

/// The Betza string parsed and compiled into legs.
pub(crate) fn compile(text: &str) -> Result<(betza::Betza, Vec<crate::legs::Path>), ExploreError> {
    let parsed = betza::parse(text).map_err(|error| ExploreError::Betza {
        text: text.to_string(),
        error,
    })?;
    let paths = crate::legs::compile(&parsed).map_err(|error| ExploreError::Unsupported {
        text: text.to_string(),
        error,
    })?;
    Ok((parsed, paths))
}

/// A board to try a piece on.
#[derive(Debug, Clone)]
pub struct Probe {
    pub files: u8,
    pub ranks: u8,
    pub at: String,
    pub friends: Vec<String>,
    pub enemies: Vec<String>,
    /// The piece is Black (moves towards rank 1).
    pub black: bool,
    /// The piece has moved (initial moves are gone).
    pub moved: bool,
}

/// One destination: the square and whether the move captures there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Destination {
    pub cell: u16,
    pub capture: bool,
}

impl Destination {
    pub fn name(self) -> String {
        square_name(self.cell) + if self.capture { "x" } else { "" }
    }
}

/// A variant with the piece `X` plus inert friends and enemies `O`, no royal piece.
fn probe_variant(betza_text: &str, files: u8, ranks: u8) -> Result<Variant, ExploreError> {
    let (betza, paths) = compile(betza_text)?;
    let piece = |letter: char, name: &str, text: &str, b: betza::Betza, paths| PieceDef {
        letter,
        name: name.into(),
        betza_text: text.into(),
        betza: b,
        paths,
        royal: false,
        value: None,
        promotes: None,
    };
    let inert = betza::parse("mW").expect("valid");
    let inert_paths = crate::legs::compile(&inert).expect("valid");
    Ok(Variant {
        name: "probe".into(),
        aliases: vec![],
        xboard_name: "probe".into(),
        xboard_parent: "fairy".into(),
        description: String::new(),
        files,
        ranks,
        pieces: vec![
            piece('X', "piece", betza_text, betza, paths),
            piece('O', "other", "mW", inert, inert_paths),
        ],
        start: crate::setup::Setup::empty(files, ranks),
        promotion: Promotion {
            pawns: vec![],
            zone: 1,
            to: PromotionTarget::Choice(vec![]),
            optional: false,
            limit: Vec::new(),
        },
        castling: CastlingRules::default(),
        royal_initial_moves_safe: false,
        end: EndRules {
            stalemated: Outcome::Draw,
            bare_king: BareKing::Off,
            repetition: None,
            move_count: None,
            ..EndRules::default()
        },
        dice: None,
        hand: Default::default(),
        regions: Default::default(),
        piece_promotion: None,
        immobile_forbidden: false,
        rights_by_file: Vec::new(),
        eval: Default::default(),
        promotion_move: None,
        shuffle: None,
    })
}

/// Destinations of `betza_text` on the probe board, sorted by file then rank.
pub fn destinations(betza_text: &str, probe: &Probe) -> Result<Vec<Destination>, ExploreError> {
    destinations_in(&probe_game(betza_text, probe.files, probe.ranks)?, probe)
}

/// The probe game for a piece on a `files`×`ranks` board: build it once to ask
/// [`destinations_in`] about many squares.
pub fn probe_game(betza_text: &str, files: u8, ranks: u8) -> Result<Arc<Game>, ExploreError> {
    Ok(Game::new(probe_variant(betza_text, files, ranks)?))
}

/// [`destinations`] in a game made by [`probe_game`] for the probe's board.
pub fn destinations_in(game: &Arc<Game>, probe: &Probe) -> Result<Vec<Destination>, ExploreError> {
    let square = |s: &str| {
        parse_square(s, probe.files, probe.ranks)
            .filter(|&(_, n)| n == s.len())
            .map(|(c, _)| c)
            .ok_or_else(|| ExploreError::NotASquare {
                square: s.to_string(),
                files: probe.files,
                ranks: probe.ranks,
            })
    };
    let at = square(&probe.at)?;
    let side = if probe.black {
        Side::Black
    } else {
        Side::White
    };
    let mut setup = Setup::empty(probe.files, probe.ranks);
    setup.side = side;
    let mut place =
        |c: u16, side: Side, letter: char| setup.put((file_of(c), rank_of(c)), side, letter);
    place(at, side, 'X');
    for f in &probe.friends {
        place(square(f)?, side, 'O');
    }
    for e in &probe.enemies {
        place(square(e)?, !side, 'O');
    }
    let mut pos = Position::from_setup(game, &setup).map_err(ExploreError::Position)?;
    if probe.moved {
        pos.virgin = [false; crate::geometry::CELLS];
    } else {
        pos.virgin[at as usize] = true;
    }
    let mut moves = Vec::new();
    pos.piece_moves(at, &mut moves);
    let mut out: Vec<Destination> = moves
        .iter()
        .map(|m| Destination {
            cell: m.to,
            capture: m.captured().is(!side),
        })
        .collect();
    out.sort_by_key(|d| (file_of(d.cell), rank_of(d.cell), d.capture));
    out.dedup();
    Ok(out)
}

/// The `--list` line: `c5x d5 e1 ...`.
pub fn list_line(dests: &[Destination]) -> String {
    dests.iter().map(|d| d.name()).collect::<Vec<_>>().join(" ")
}

/// Text diagram: the board with the piece `X`, friends `F`, enemies `E`, quiet destinations `*`
/// and captures `x`; then the compiled legs.
pub fn render(
    betza_text: &str,
    probe: &Probe,
    dests: &[Destination],
) -> Result<String, ExploreError> {
    let (parsed, paths) = compile(betza_text)?;
    let sq = |s: &str| parse_square(s, probe.files, probe.ranks).map(|(c, _)| c);
    let mut grid = vec![vec!['.'; probe.files as usize]; probe.ranks as usize];
    let mut mark = |c: u16, ch: char| grid[rank_of(c) as usize][file_of(c) as usize] = ch;
    for f in &probe.friends {
        sq(f).into_iter().for_each(|c| mark(c, 'F'));
    }
    for e in &probe.enemies {
        sq(e).into_iter().for_each(|c| mark(c, 'E'));
    }
    for d in dests {
        mark(d.cell, if d.capture { 'x' } else { '*' });
    }
    sq(&probe.at).into_iter().for_each(|c| mark(c, 'X'));
    let mut out = format!(
        "{betza_text} (canonical {parsed}) from {}, {}{}: {} destinations\n",
        probe.at,
        if probe.black { "Black" } else { "White" },
        if probe.moved { ", moved" } else { "" },
        dests.len()
    );
    out += &board_text(&grid);
    out += "X piece  * move  x capture  F friend  E enemy\n\ncompiled legs:\n";
    out += &crate::legs::describe(&paths);
    Ok(out.trim_end().to_string())
}

/// Rows from the top rank down, with rank numbers and file letters.
pub fn board_text(grid: &[Vec<char>]) -> String {
    let mut out = String::new();
    for (r, row) in grid.iter().enumerate().rev() {
        out += &format!("{:>2} ", r + 1);
        out += &row
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        out.push('\n');
    }
    let files = grid.first().map_or(0, Vec::len);
    out += "   ";
    out += &(0..files)
        .map(|f| ((b'a' + f as u8) as char).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    out.push('\n');
    out
}

/// The movement diagram of a piece type: on an empty board from the centre, `*` where it can move
/// and capture, `m` move only, `c` capture only.
pub fn movement_diagram(betza_text: &str, files: u8, ranks: u8) -> Result<String, ExploreError> {
    let at = format!("{}{}", (b'a' + (files - 1) / 2) as char, ranks / 2);
    let base = Probe {
        files,
        ranks,
        at: at.clone(),
        friends: vec![],
        enemies: vec![],
        black: false,
        moved: false,
    };
    let game = probe_game(betza_text, files, ranks)?;
    let quiet = destinations_in(&game, &base)?;
    let mut grid = vec![vec!['.'; files as usize]; ranks as usize];
    for f in 0..files {
        for r in 0..ranks {
            let c = crate::geometry::cell(f, r);
            let name = square_name(c);
            if name == at {
                grid[r as usize][f as usize] = 'X';
                continue;
            }
            let moves = quiet.iter().any(|d| d.cell == c);
            let probe = Probe {
                enemies: vec![name],
                ..base.clone()
            };
            let captures = destinations_in(&game, &probe)?
                .iter()
                .any(|d| d.cell == c && d.capture);
            grid[r as usize][f as usize] = match (moves, captures) {
                (true, true) => '*',
                (true, false) => 'm',
                (false, true) => 'c',
                _ => '.',
            };
        }
    }
    Ok(board_text(&grid) + "X piece  * move or capture  m move only  c capture only\n")
}

/// A position as text: pieces by letter (upper case White), `.` empty.
pub fn position_text(pos: &Position) -> String {
    // As `board_text` lays it out when every id is one letter; longer ids (`+d`, `l!`) widen
    // every column to the longest id and a space.
    let t = &pos.game().tables;
    let width = 1 + t
        .pieces
        .iter()
        .map(|p| crate::piece::id::text_len(p.letter))
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for r in (0..t.ranks).rev() {
        out += &format!("{:>2}", r + 1);
        for f in 0..t.files {
            let piece = pos.at(crate::geometry::cell(f, r));
            let id = if piece.is_piece() {
                pos.game().piece_char(piece)
            } else {
                ".".to_string()
            };
            out += &format!("{id:>width$}");
        }
        out.push('\n');
    }
    out += &" ".repeat(width + 1);
    out += &(0..t.files)
        .map(|f| ((b'a' + f) as char).to_string())
        .collect::<Vec<_>>()
        .join(&" ".repeat(width - 1));
    out.push('\n');
    out
}

/// `acedrex pieces`: each piece's Betza, compiled legs and movement diagram on the variant's board.
pub fn pieces_text(v: &Variant) -> Result<String, ExploreError> {
    let mut out = format!("{} ({}x{})\n", v.name, v.files, v.ranks);
    for p in &v.pieces {
        let paths = crate::legs::compile(&p.betza).map_err(|error| ExploreError::Unsupported {
            text: p.betza_text.clone(),
            error,
        })?;
        out += &format!(
            "\n{} {}: {}{}{}\n",
            crate::piece::id::show(p.letter),
            p.name,
            p.betza_text,
            if p.royal { ", royal" } else { "" },
            p.value.map(|v| format!(", value {v}")).unwrap_or_default()
        );
        out += &crate::legs::describe(&paths);
        out += &movement_diagram(&p.betza_text, v.files, v.ranks)?;
    }
    Ok(out)
}
