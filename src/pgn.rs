//! PGN in and out, as XBoard reads and writes it for variants.
//!
//! Written: the seven-tag roster, `[Variant "<xboard name>"]` (XBoard's name, e.g. `grande-acedrex`;
//! left out for orthodox chess as XBoard does), then `[SetUp "1"]` and `[FEN "..."]` only when the game
//! does not start from the variant's start position. Moves are SAN the way XBoard's `CoordsToAlgebraic`
//! writes them: piece letter, file/rank disambiguation, `x`, the destination with a two-digit rank on big
//! boards (`Ug10`), promotion as `=U`, `+`/`#`; castling `O-O`/`O-O-O`; a pass (dice games) `--`. Dice
//! rolls ride along as `{roll N}` comments after the move they allowed, and the reason of a finished game
//! is a comment before the result (`{checkmate} 1-0`), as XBoard does.
//!
//! Read: the same, and also coordinate moves (`g1g3`, `c11c12u`, `c11c12=U`, `g1-g3`, `Kg1g3`), which
//! XBoard's parser accepts as well. Comments, NAGs, `;` comments, `%` lines and variations are skipped.
//! Without a `Variant` tag a game is orthodox chess, as in XBoard.

use crate::game::Game;
use crate::geometry::{file_of, parse_square, rank_of, square_name};
use crate::position::{Kind, Move, MoveKind, Position, Side};
use crate::rules::GameEnd;
use std::collections::HashMap;
use std::sync::Arc;

/// One ply of a recorded game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply {
    /// `None`: the side passed (a dice game whose roll left no move, under the `pass` rule).
    pub mv: Option<Move>,
    /// The die face that allowed this ply, in dice games.
    pub roll: Option<u8>,
    /// Any other comment after the move.
    pub comment: Option<String>,
}

impl Ply {
    pub fn new(mv: Move) -> Ply {
        Ply {
            mv: Some(mv),
            roll: None,
            comment: None,
        }
    }
}

/// A game: tags, start position, plies and result.
#[derive(Clone)]
pub struct PgnGame {
    /// Tags other than `Variant`, `SetUp`, `FEN` and `Result`, which are derived; in file order.
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub plies: Vec<Ply>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Why the game ended (`checkmate`, `bare king`, ...), written as a comment before the result.
    pub reason: Option<String>,
}

/// A PGN problem, with the game (from 1) and the move it concerns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("PGN game {game}: {message}")]
pub struct PgnError {
    pub game: usize,
    pub message: String,
}

impl std::fmt::Debug for PgnGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgnGame")
            .field("tags", &self.tags)
            .field("start", &self.start.fen())
            .field("plies", &self.plies)
            .field("result", &self.result)
            .field("reason", &self.reason)
            .finish()
    }
}

impl PgnGame {
    /// An unfinished game from `start` with the seven-tag roster filled with placeholders.
    pub fn new(start: Position) -> PgnGame {
        let tags = [
            ("Event", "?"),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "-"),
            ("White", "?"),
            ("Black", "?"),
        ];
        PgnGame {
            tags: tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            start,
            plies: Vec::new(),
            result: "*".into(),
            reason: None,
        }
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, keeping its place if it is there already.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self
            .tags
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            Some(t) => t.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// Records the end of the game.
    pub fn set_end(&mut self, end: Option<GameEnd>) {
        self.result = end.map_or("*", GameEnd::score).to_string();
        self.reason = end.map(|e| e.reason.to_string());
    }

    /// The position after all plies.
    pub fn position(&self) -> Position {
        let mut pos = self.start.clone();
        for p in &self.plies {
            match p.mv {
                Some(m) => pos.make(m),
                None => pos.make_null(),
            }
        }
        pos
    }

    /// The game as PGN text, ending with a blank line.
    pub fn to_pgn(&self) -> String {
        let game = self.start.game().clone();
        let mut out = String::new();
        let seven = ["Event", "Site", "Date", "Round", "White", "Black"];
        for name in seven {
            out += &tag_line(name, self.tag(name).unwrap_or("?"));
        }
        out += &tag_line("Result", &self.result);
        // XBoard writes no Variant tag for orthodox chess.
        let xb = &game.variant.xboard_name;
        if xb != "normal" {
            out += &tag_line("Variant", xb);
        }
        let fen = self.start.fen();
        if fen != Position::start(&game).fen() {
            out += &tag_line("SetUp", "1");
            out += &tag_line("FEN", &fen);
        }
        for (k, v) in &self.tags {
            if !seven.iter().any(|s| s.eq_ignore_ascii_case(k))
                && !DERIVED.iter().any(|s| s.eq_ignore_ascii_case(k))
            {
                out += &tag_line(k, v);
            }
        }
        out.push('\n');
        let mut words: Vec<String> = Vec::new();
        let mut pos = self.start.clone();
        for (i, p) in self.plies.iter().enumerate() {
            // The move number stays on the line of its move.
            let number = if pos.side_to_move() == Side::White {
                format!("{}. ", pos.fullmove())
            } else if i == 0 {
                format!("{}... ", pos.fullmove())
            } else {
                String::new()
            };
            match p.mv {
                Some(m) => {
                    words.push(number + &san(&mut pos, m));
                    pos.make(m);
                }
                None => {
                    words.push(number + "--");
                    pos.make_null();
                }
            }
            if let Some(r) = p.roll {
                words.push(format!("{{roll {r}}}"));
            }
            if let Some(c) = &p.comment {
                words.push(format!("{{{}}}", c.replace('}', ")")));
            }
        }
        if let Some(r) = &self.reason {
            words.push(format!("{{{}}}", r.replace('}', ")")));
        }
        words.push(self.result.clone());
        out += &wrap(&words, 79);
        out += "\n\n";
        out
    }
}

const DERIVED: [&str; 4] = ["Variant", "SetUp", "FEN", "Result"];

fn tag_line(name: &str, value: &str) -> String {
    format!(
        "[{name} \"{}\"]\n",
        value.replace('\\', "\\\\").replace('"', "\\\"")
    )
}

/// Joins words into lines of at most `width` characters (PGN export format asks for < 80).
fn wrap(words: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for w in words {
        if line > 0 && line + 1 + w.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out += w;
        line += w.len();
    }
    out
}

/// Today's date as PGN writes it (`2026.11.30`), from the system clock in UTC.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Howard Hinnant's days-to-civil algorithm.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

// ---- SAN -----------------------------------------------------------------------------------------

fn piece_type(pos: &Position, cell: u16) -> Kind {
    pos.at(cell).kind()
}

fn is_pawn(game: &Game, piece_type: Kind) -> bool {
    game.variant
        .promotion
        .pawns
        .contains(&game.letter(piece_type))
}

/// A legal move in SAN as XBoard writes it (see the module comment).
pub fn san(pos: &mut Position, m: Move) -> String {
    let game = pos.game().clone();
    let mut s = String::new();
    if m.kind() == MoveKind::Castle {
        // The partner's side names it: in Chess960 the king may stay or move away from it.
        s += if m.extra() > m.from { "O-O" } else { "O-O-O" };
    } else if let Some(k) = m.dropped() {
        // Drops as crazyhouse PGN writes them, pawns included: `P@e4` (`+P@e4` as the promoted form).
        if m.is_promoted_drop() {
            s.push('+');
        }
        s += &format!("{}@{}", game.id(k), square_name(m.to));
    } else if m.locust_at().is_some() {
        // A move that takes on its way names every square: `Nf5xg6xh7`, igui `Nf5xg6-f5`, the
        // Lion Dog's double `Wf5xf6xf7-f8`.
        s += &game.id(piece_type(pos, m.from));
        s += &square_name(m.from);
        for at in m.locusts() {
            s.push('x');
            s += &square_name(at);
        }
        s.push(if m.captured().is_piece() { 'x' } else { '-' });
        s += &square_name(m.to);
        if m.promotion().is_some() {
            s.push('+');
        }
    } else {
        let ty = piece_type(pos, m.from);
        let pawn = is_pawn(&game, ty);
        let rivals: Vec<u16> = pos
            .legal_moves()
            .into_iter()
            .filter(|o| {
                o.to == m.to
                    && !o.is_drop()
                    && o.from != m.from
                    && piece_type(pos, o.from) == ty
                    && !matches!(o.kind(), MoveKind::Castle | MoveKind::Locust)
            })
            .map(|o| o.from)
            .collect();
        let capture = m.is_capture();
        let file = |c: u16| (b'a' + file_of(c)) as char;
        if !pawn {
            s += &game.id(ty);
        }
        // A pawn names its file when it captures or leaves its file (XBoard: "exd5").
        let mut need_file = pawn && (capture || file_of(m.from) != file_of(m.to));
        let mut need_rank = false;
        if !rivals.is_empty() {
            if need_file || rivals.iter().all(|&r| file_of(r) != file_of(m.from)) {
                need_file = true;
                need_rank = rivals.iter().any(|&r| file_of(r) == file_of(m.from));
            } else if rivals.iter().all(|&r| rank_of(r) != rank_of(m.from)) {
                need_rank = true;
            } else {
                need_file = true;
                need_rank = true;
            }
        }
        if need_file {
            s.push(file(m.from));
        }
        if need_rank {
            s += &(rank_of(m.from) + 1).to_string();
        }
        if capture {
            s.push('x');
        }
        s += &square_name(m.to);
        if let Some(p) = m.promotion() {
            s.push('=');
            s += &game.id(p);
        }
    }
    // Gating (Seirawan): the piece brought in after a slash, `Nc3/H`; castling names the square
    // it enters, the king's or the rook's (`O-O/He1`, `O-O/Hh1`).
    if let (Some(k), Some(at)) = (m.gated(), m.gate_square()) {
        s.push('/');
        s += &game.id(k);
        if m.kind() == MoveKind::Castle {
            s += &square_name(at);
        }
    }
    pos.make(m);
    if pos.in_check() {
        s.push(if pos.legal_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
    pos.unmake();
    s
}

/// `Nf5xg6xh7`, `Wf5xf6xf7-f8` (a piece letter, then three or four squares joined by `x` or `-`,
/// and `+` to promote): the locust move through the middle squares, read as its coordinate text
/// `f5g6,g6h7`.
fn parse_locust_san(pos: &mut Position, text: &str) -> Option<Move> {
    let (files, ranks) = (pos.game().variant.files, pos.game().variant.ranks);
    let mut rest = text.trim_start_matches(|c: char| c.is_ascii_uppercase() || "+'!".contains(c));
    let mut squares = Vec::new();
    while squares.len() < 2 + crate::position::MAX_LOCUSTS {
        if !squares.is_empty() {
            let Some(r) = rest.strip_prefix(['x', '-']) else {
                break;
            };
            rest = r;
        }
        let (sq, n) = parse_square(rest, files, ranks)?;
        squares.push(square_name(sq));
        rest = &rest[n..];
    }
    if squares.len() < 3 || (!rest.is_empty() && rest != "+") {
        return None;
    }
    let legs: Vec<String> = squares.windows(2).map(|w| w.concat()).collect();
    pos.parse_move(&format!("{}{rest}", legs.join(","))).ok()
}

/// Why a move text names no legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    #[error("`{0}`: no such castling here")]
    NoCastling(String),
    #[error("`{0}` is not a move in SAN or coordinate notation")]
    Syntax(String),
    #[error("`{0}` is not legal here")]
    Illegal(String),
    #[error("`{0}` is ambiguous here")]
    Ambiguous(String),
}

/// Finds the legal move named by SAN (`Ug3`, `Ucxe5`, `exd5`, `c12=U`, `O-O`) or by coordinate
/// notation (`g1g3`, `g1-g3`, `Kg1xg3`, `c11c12u`, `c11c12=U`). Check marks and `!?` are ignored.
pub fn parse_san(pos: &mut Position, text: &str) -> Result<Move, SanError> {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    // A `!` right after an upper-case letter may dress an id (`Oe5=L!`) rather than annotate: the
    // text with it kept is tried first.
    let dressed = text[t.len()..].starts_with('!') && t.ends_with(|c: char| c.is_ascii_uppercase());
    if dressed && let Ok(m) = parse_trimmed(pos, &text[..t.len() + 1], text) {
        return Ok(m);
    }
    parse_trimmed(pos, t, text)
}

/// [`parse_san`] of `t`, the text without its check marks and annotations.
fn parse_trimmed(pos: &mut Position, t: &str, text: &str) -> Result<Move, SanError> {
    if let Ok(m) = pos.parse_move(t) {
        return Ok(m);
    }
    if let Some(m) = parse_locust_san(pos, t) {
        return Ok(m);
    }
    let legal = pos.legal_moves();
    // A gating move (`Nc3/H`, `O-O/Hh1`): the legal gating move whose SAN this is.
    if t.contains('/') {
        let gated: Vec<Move> = legal.iter().copied().filter(|m| m.is_gating()).collect();
        return gated
            .into_iter()
            .find(|&m| san(pos, m).trim_end_matches(['+', '#']) == t)
            .ok_or_else(|| SanError::Illegal(text.into()));
    }
    let castle = match t {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(right) = castle {
        return legal
            .into_iter()
            .find(|m| {
                m.kind() == MoveKind::Castle && (m.extra() > m.from) == right && !m.is_gating()
            })
            .ok_or_else(|| SanError::NoCastling(text.into()));
    }
    let game = pos.game().clone();
    let (files, ranks) = (game.variant.files, game.variant.ranks);
    let bad = || SanError::Syntax(text.into());
    let mut rest: String = t
        .chars()
        .filter(|c| !matches!(c, 'x' | '-' | ':'))
        .collect();
    // The piece: an id (`N`, `A'`, `+D` for a kind that exists only promoted).
    let mut piece = None;
    if let Some((id, false, n)) = crate::piece::id::read(&rest) {
        piece = Some(id);
        rest.drain(..n);
    }
    // Promotion: `=U`, or a letter right after the destination's rank.
    let mut promo = None;
    if let Some(i) = rest.find('=') {
        promo = Some(
            crate::piece::id::read_all(&rest[i + 1..])
                .ok_or_else(bad)?
                .0,
        );
        rest.truncate(i);
    } else if rest.len() >= 3 {
        let b = rest.as_bytes();
        let dress = usize::from(matches!(b[b.len() - 1], b'\'' | b'!'));
        let n = b.len() - dress;
        if n >= 2 && b[n - 1].is_ascii_alphabetic() && b[n - 2].is_ascii_digit() {
            promo = Some(
                crate::piece::id::read_all(&rest[n - 1..])
                    .ok_or_else(bad)?
                    .0,
            );
            rest.truncate(n - 1);
        }
    }
    // Destination: the last file letter and the digits after it.
    let digits = rest.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == 0 || rest.len() < digits + 1 {
        return Err(bad());
    }
    let split = rest.len() - digits - 1;
    if !rest.is_char_boundary(split) {
        return Err(bad());
    }
    let (to, n) = parse_square(&rest[split..], files, ranks).ok_or_else(bad)?;
    if n != rest.len() - split {
        return Err(bad());
    }
    // What is left names the origin: a file, a rank, both or nothing.
    let prefix = &rest[..split];
    let (mut from_file, mut from_rank) = (None, None);
    let mut chars = prefix.chars().peekable();
    if let Some(&c) = chars.peek()
        && c.is_ascii_lowercase()
    {
        let f = c as u8 - b'a';
        if f >= files {
            return Err(bad());
        }
        from_file = Some(f);
        chars.next();
    }
    let digits: String = chars.collect();
    if !digits.is_empty() {
        let r: u8 = digits.parse().map_err(|_| bad())?;
        if r == 0 || r > ranks {
            return Err(bad());
        }
        from_rank = Some(r - 1);
    }
    let full_from = from_file.is_some() && from_rank.is_some();
    let cands: Vec<Move> = legal
        .into_iter()
        .filter(|m| {
            m.to == to
                && !m.is_gating()
                && !matches!(
                    m.kind(),
                    MoveKind::Castle | MoveKind::Drop | MoveKind::Locust
                )
        })
        .filter(|m| {
            let ty = piece_type(pos, m.from);
            match piece {
                Some(l) => game.letter(ty) == l,
                None => full_from || is_pawn(&game, ty),
            }
        })
        .filter(|m| {
            from_file.is_none_or(|f| file_of(m.from) == f)
                && from_rank.is_none_or(|r| rank_of(m.from) == r)
        })
        .filter(|m| match promo {
            Some(l) => m.promotion().is_some_and(|p| game.letter(p) == l),
            None => true,
        })
        .collect();
    // A piece that may promote or not: without `=`, the move that does not (as in coordinates).
    let plain: Vec<Move> = cands
        .iter()
        .copied()
        .filter(|m| m.promotion().is_none())
        .collect();
    let cands = if promo.is_none() && cands.len() > 1 && plain.len() == 1 {
        plain
    } else {
        cands
    };
    match cands.as_slice() {
        [m] => Ok(*m),
        [] => Err(SanError::Illegal(text.into())),
        _ => Err(SanError::Ambiguous(text.into())),
    }
}

// ---- reading ------------------------------------------------------------------------------------

#[derive(Debug, PartialEq)]
enum Token {
    Tag(String, String),
    Comment(String),
    Word(String),
    Result(String),
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line_start = true;
    let mut depth = 0; // inside variations
    while let Some(c) = chars.next() {
        if c == '%' && line_start {
            for c in chars.by_ref() {
                if c == '\n' {
                    break;
                }
            }
            continue;
        }
        line_start = c == '\n';
        match c {
            c if c.is_whitespace() => {}
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        line_start = true;
                        break;
                    }
                }
            }
            '{' => {
                let body: String = chars.by_ref().take_while(|&c| c != '}').collect();
                if depth == 0 {
                    out.push(Token::Comment(
                        body.split_whitespace().collect::<Vec<_>>().join(" "),
                    ));
                }
            }
            '(' => depth += 1,
            ')' => depth = (depth - 1).max(0),
            '[' if depth == 0 => {
                // `[Name "value"]`; the value may hold `]` and escaped `\"`.
                while chars.next_if(|c| c.is_whitespace()).is_some() {}
                let mut name = String::new();
                while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '"' && *c != ']')
                {
                    name.push(c);
                }
                while chars.next_if(|c| c.is_whitespace()).is_some() {}
                let mut value = String::new();
                if chars.next_if_eq(&'"').is_some() {
                    while let Some(c) = chars.next() {
                        match c {
                            '\\' => value.extend(chars.next()),
                            '"' => break,
                            c => value.push(c),
                        }
                    }
                }
                for c in chars.by_ref() {
                    if c == ']' {
                        break;
                    }
                }
                out.push(Token::Tag(name, value));
            }
            _ => {
                let mut word = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || "{}()[];".contains(n) {
                        break;
                    }
                    word.push(n);
                    chars.next();
                }
                if depth > 0 {
                    continue;
                }
                if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word.as_str()) {
                    out.push(Token::Result(word));
                } else {
                    out.push(Token::Word(word));
                }
            }
        }
    }
    out
}

/// Finds a variant by a PGN `Variant` tag: a built-in name or alias, or an XBoard name.
fn resolve_variant(
    name: &str,
    cache: &mut HashMap<String, Arc<Game>>,
) -> Result<Arc<Game>, String> {
    if let Some(g) = cache.get(name) {
        return Ok(g.clone());
    }
    let lower = name.to_ascii_lowercase();
    let variant = crate::variant::builtin(&lower)
        .or_else(|| {
            crate::variant::builtin_names()
                .into_iter()
                .filter_map(crate::variant::builtin)
                .find(|v| v.xboard_name.eq_ignore_ascii_case(&lower))
        })
        .ok_or_else(|| format!("unknown variant `{name}`"))?;
    let game = Game::new(variant);
    cache.insert(name.to_string(), game.clone());
    Ok(game)
}

/// Reads every game of a PGN text. `variant`: play all games in this variant regardless of their
/// `Variant` tag (for a variant loaded from a file, which XBoard's names cannot find).
pub fn read_games(text: &str, variant: Option<&Arc<Game>>) -> Result<Vec<PgnGame>, PgnError> {
    let mut games = Vec::new();
    let mut cache = HashMap::new();
    let mut toks = tokens(text).into_iter().peekable();
    while toks.peek().is_some() {
        let n = games.len() + 1;
        let err = |message: String| PgnError { game: n, message };
        let mut tags: Vec<(String, String)> = Vec::new();
        while let Some(Token::Tag(..)) = toks.peek() {
            if let Some(Token::Tag(k, v)) = toks.next() {
                tags.push((k, v));
            }
        }
        let tag = |name: &str| {
            tags.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let game = match variant {
            Some(g) => g.clone(),
            None => resolve_variant(
                tag("Variant")
                    .as_deref()
                    .filter(|v| !v.is_empty())
                    .unwrap_or("chess"),
                &mut cache,
            )
            .map_err(err)?,
        };
        let start = match tag("FEN") {
            Some(fen) => Position::from_fen(&game, &fen).map_err(|e| err(e.to_string()))?,
            None => Position::start(&game),
        };
        let mut g = PgnGame::new(start.clone());
        for (k, v) in &tags {
            if !DERIVED.iter().any(|d| d.eq_ignore_ascii_case(k)) {
                g.set_tag(k, v.clone());
            }
        }
        let mut pos = start;
        let mut trailing: Option<String> = None;
        loop {
            match toks.peek() {
                None | Some(Token::Tag(..)) => break,
                _ => {}
            }
            match toks.next().expect("peeked") {
                Token::Result(r) => {
                    g.result = r;
                    break;
                }
                Token::Comment(c) => {
                    if let Some(face) = c.strip_prefix("roll ").and_then(|f| f.trim().parse().ok())
                        && let Some(p) = g.plies.last_mut()
                    {
                        p.roll = Some(face);
                    } else if let Some(prev) = trailing.replace(c) {
                        // Two comments in a row: the first one belongs to the move.
                        if let Some(p) = g.plies.last_mut() {
                            p.comment = Some(prev);
                        }
                    }
                }
                Token::Word(w) => {
                    if let Some(p) = g.plies.last_mut()
                        && let Some(c) = trailing.take()
                    {
                        p.comment = Some(c);
                    }
                    // Move numbers (`12.`, `12...`), possibly glued to the move (`12.Ug3`); NAGs.
                    let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                    if w.is_empty() || w.starts_with('$') {
                        continue;
                    }
                    if w == "--" || w == "Z0" || w == "@@@@" {
                        pos.make_null();
                        g.plies.push(Ply {
                            mv: None,
                            roll: None,
                            comment: None,
                        });
                        continue;
                    }
                    let m = parse_san(&mut pos, w).map_err(|e| {
                        err(format!(
                            "move {} ({}): {e}",
                            pos.fullmove(),
                            pos.side_to_move().name()
                        ))
                    })?;
                    pos.make(m);
                    g.plies.push(Ply::new(m));
                }
                Token::Tag(..) => unreachable!(),
            }
        }
        // A comment after the last move of a finished game is why it ended.
        if let Some(c) = trailing {
            if g.result != "*" {
                g.reason = Some(c);
            } else if let Some(p) = g.plies.last_mut() {
                p.comment = Some(c);
            }
        }
        games.push(g);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acedrex() -> Position {
        Position::start(&Game::new(
            crate::variant::builtin("grant-acedrex").unwrap(),
        ))
    }

    #[test]
    fn san_of_start_moves() {
        let mut pos = acedrex();
        let mut sans: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .map(|m| san(&mut pos.clone(), m))
            .collect();
        sans.sort();
        assert!(sans.contains(&"a5".to_string()), "{sans:?}");
        assert!(sans.contains(&"Kg3".to_string()), "{sans:?}");
        for m in pos.legal_moves() {
            let s = san(&mut pos, m);
            assert_eq!(parse_san(&mut pos, &s), Ok(m), "{s}");
            let c = pos.move_text(m);
            assert_eq!(parse_san(&mut pos, &c), Ok(m), "{c}");
        }
    }

    #[test]
    fn tokens_skip_variations_and_comments() {
        let t = tokens("[Event \"a \\\"b\\\"]\"]\n1. e4 {hi} (1. d4 d5) e5 ; rest\n% escape\n1-0");
        assert_eq!(
            t,
            vec![
                Token::Tag("Event".into(), "a \"b\"]".into()),
                Token::Word("1.".into()),
                Token::Word("e4".into()),
                Token::Comment("hi".into()),
                Token::Word("e5".into()),
                Token::Result("1-0".into()),
            ]
        );
    }

    #[test]
    fn date_is_plausible() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"), "{d}");
    }
}
