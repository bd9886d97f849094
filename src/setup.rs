//! What a FEN says — placement, side to move, rights, en-passant square, counters — read once, with
//! the place of every part, and checked against a board and its piece letters before a `Position`
//! is built from it (`Position::from_setup`). Variant files, `setboard`, `position fen` and the CLI
//! all read FEN here, and every FEN acedrex writes comes from [`Setup::fen`].
//!
//! The reader accepts what GUIs send: missing trailing fields (`w - - 0 1`), no e.p. field before the
//! counters, neither rights nor e.p. field (`[-] w 0 1`, shogi), Shredder/X-FEN file letters in the
//! rights field, and Fairy-Max's `8` for an empty rank of any width. Pieces in hand follow the
//! placement in brackets (`RNBQKBNR[Qp]`, `[-]` or `[]` for empty hands); a promoted piece that would
//! go back to hand as a pawn carries `~` (`Q~`), and a piece's promoted form is written `+P`, as
//! Fairy-Stockfish and XBoard write them.

use crate::side::Side;
use std::fmt;

/// One problem with a FEN: where (in characters from the start of the FEN text) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenProblem {
    pub at: usize,
    pub len: usize,
    pub message: String,
}

/// Every problem found in a FEN.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct FenError {
    pub problems: Vec<FenProblem>,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN: {}", self.reasons())
    }
}

impl FenError {
    /// The reasons, without the `bad FEN:` prefix.
    pub fn reasons(&self) -> String {
        let all: Vec<&str> = self.problems.iter().map(|p| p.message.as_str()).collect();
        all.join("; ")
    }

    fn one(at: usize, len: usize, message: impl Into<String>) -> FenError {
        FenError {
            problems: vec![FenProblem {
                at,
                len,
                message: message.into(),
            }],
        }
    }
}

/// A piece as FEN writes it: a letter whose case gives the side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub side: Side,
    /// The piece letter, upper case.
    pub letter: char,
    /// Where the letter stands in the FEN text (characters).
    pub at: usize,
    /// Written `~` after the letter: a promoted piece, which a capture returns to hand demoted.
    pub promoted: bool,
    /// Written `+` before the letter (`+P`, shogi): the letter's promoted form, which a capture
    /// returns to hand as the letter.
    pub plus: bool,
}

/// One rank as written, top rank first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Files from a: `None` for an empty square.
    pub squares: Vec<Option<Placed>>,
    /// Fairy-Max's `8` standing for a whole empty rank.
    pub bare_eight: bool,
    pub at: usize,
    pub len: usize,
}

/// One letter of the rights field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Right {
    /// `K`/`k`: the king side (the royal piece's initial moves, without castling).
    King(Side),
    /// `Q`/`q`: the queen side.
    Queen(Side),
    /// Shredder/X-FEN `A`..`P`: the partner on that file (0 = a).
    File(Side, u8),
}

/// A parsed FEN, not yet checked against any variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    pub rows: Vec<Row>,
    /// The pieces in hand, both sides, when the placement has a holdings part (`[...]`).
    pub hands: Option<Vec<Placed>>,
    pub side: Side,
    pub rights: Vec<Right>,
    /// The en-passant square as (file, rank) from 0, with its place in the text.
    pub ep: Option<((u8, u8), usize)>,
    pub halfmove: u32,
    pub fullmove: u32,
    /// Checks each side (White, Black) may still give before it wins, in n-check variants: the
    /// field `W+B` after the en-passant square, as Fairy-Stockfish writes it (`3+3`).
    pub checks: Option<[u32; 2]>,
    /// A number in the e.p. field: the makruk family's running count's limit in plies, as
    /// Fairy-Stockfish writes it (`honour-count`; then the halfmove field holds the count).
    pub count_limit: Option<(u32, usize)>,
    /// Where each field starts (placement, side, rights, e.p., halfmove, fullmove), for messages.
    pub field_at: [usize; 6],
}

/// What the reader takes before the board is known: far beyond any board (sizes are checked against
/// the board by [`Setup::check`]), small enough that wild numbers allocate nothing much.
const MAX_RUN: u32 = 256;

impl Setup {
    /// Reads a FEN. Syntax only: whether the letters and sizes fit a variant is [`Setup::check`].
    pub fn parse(text: &str) -> Result<Setup, FenError> {
        let (setup, problems) = Setup::read(text);
        match setup {
            Some(s) if problems.is_empty() => Ok(s),
            _ => Err(FenError { problems }),
        }
    }

    /// As [`Setup::parse`], but keeps what could be read despite problems (a bad field reads as its
    /// default), so that a variant file's start line gets every diagnostic at once. `None` only
    /// for an empty text.
    pub fn read(text: &str) -> (Option<Setup>, Vec<FenProblem>) {
        // Fields with their character offsets.
        let mut fields: Vec<(usize, &str)> = Vec::new();
        let mut chars = 0;
        for word in text.split_inclusive(char::is_whitespace) {
            let trimmed = word.trim_end();
            if !trimmed.is_empty() {
                fields.push((chars, trimmed));
            }
            chars += word.chars().count();
        }
        let Some(&(_, placement)) = fields.first() else {
            return (
                None,
                FenError::one(0, 1, "empty FEN: expected a placement").problems,
            );
        };
        let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        // A FEN without its e.p. field: `placement side rights half full`.
        if fields.len() == 5 && numeric(fields[3].1) && numeric(fields[4].1) {
            fields.insert(3, (fields[3].0, "-"));
        }
        // Nor rights: `placement side half full`, as XBoard and Fairy-Stockfish write shogi.
        if fields.len() == 4 && numeric(fields[2].1) && numeric(fields[3].1) {
            fields.insert(2, (fields[2].0, "-"));
            fields.insert(3, (fields[2].0, "-"));
        }
        // n-check counters after the e.p. field (`- 2+3 0 1`).
        let mut checks = None;
        if let Some(&(_, c)) = fields.get(4)
            && let Some((w, b)) = c.split_once('+')
            && numeric(w)
            && numeric(b)
        {
            checks = Some([w, b].map(|n| n.parse::<u32>().unwrap_or(u32::MAX)));
            fields.remove(4);
        }
        let mut problems = Vec::new();
        let (placement, hands) = split_holdings(placement, &mut problems);
        let rows = read_placement(placement, &mut problems);
        let field = |i: usize| fields.get(i).copied();
        let end = chars;
        let side = match field(1) {
            None | Some((_, "w")) => Side::White,
            Some((_, "b")) => Side::Black,
            Some((at, s)) => {
                problems.push(FenProblem {
                    at,
                    len: s.chars().count(),
                    message: format!("side to move `{s}`: expected `w` or `b`"),
                });
                Side::White
            }
        };
        let mut rights = Vec::new();
        if let Some((at, r)) = field(2).filter(|&(_, r)| r != "-") {
            for (i, c) in r.chars().enumerate() {
                let side = Side::of_letter(c);
                match c.to_ascii_uppercase() {
                    'K' => rights.push(Right::King(side)),
                    'Q' => rights.push(Right::Queen(side)),
                    f @ 'A'..='P' => rights.push(Right::File(side, f as u8 - b'A')),
                    _ => problems.push(FenProblem {
                        at: at + i,
                        len: 1,
                        message: format!(
                            "`{c}` in the castling field: expected `-` or letters from K Q k q (or files A-P, a-p)"
                        ),
                    }),
                }
            }
        }
        let mut ep = None;
        let mut count_limit = None;
        if let Some((at, e)) = field(3).filter(|&(_, e)| e != "-") {
            if numeric(e) {
                count_limit = Some((e.parse::<u32>().unwrap_or(u32::MAX), at));
            } else {
                match parse_square_name(e) {
                Some(sq) => ep = Some((sq, at)),
                None => problems.push(FenProblem {
                    at,
                    len: e.chars().count(),
                    message: format!(
                        "`{e}` is not an en-passant square: expected `-`, a square such as `e3` or a counting limit such as `32`"
                    ),
                }),
                }
            }
        }
        let mut counter = |i: usize, what: &str, example: &str| -> u32 {
            match field(i) {
                None => u32::from(i == 5),
                Some((at, s)) => s.parse::<u32>().unwrap_or_else(|_| {
                    problems.push(FenProblem {
                        at,
                        len: s.chars().count(),
                        message: format!("{what} `{s}`: expected a number, e.g. `{example}`"),
                    });
                    0
                }),
            }
        };
        let halfmove = counter(4, "halfmove clock", "0");
        let fullmove = counter(5, "fullmove number", "1");
        if let Some(&(at, s)) = fields.get(6) {
            problems.push(FenProblem {
                at,
                len: end - at,
                message: format!("`{s}` after the fullmove number: expected the end of the FEN"),
            });
        }
        let mut field_at = [end; 6];
        for (i, &(at, _)) in fields.iter().take(6).enumerate() {
            field_at[i] = at;
        }
        let setup = Setup {
            rows,
            hands,
            side,
            rights,
            ep,
            halfmove,
            fullmove,
            checks,
            count_limit,
            field_at,
        };
        (Some(setup), problems)
    }

    /// Checks the placement against a board and the declared piece letters: rank count, rank
    /// widths, letters, and `+` only before a letter that has a promoted form (`promotable`).
    /// `what` names the FEN in messages ("start position", "FEN").
    pub fn check(
        &self,
        files: u8,
        ranks: u8,
        declared: &[char],
        promotable: &[char],
        what: &str,
    ) -> Vec<FenProblem> {
        let mut problems = Vec::new();
        for p in self
            .placed()
            .filter(|p| p.plus && declared.contains(&p.letter))
        {
            if !promotable.contains(&p.letter) {
                let list: String = promotable.iter().map(|c| format!(" {c}")).collect();
                let expected = if promotable.is_empty() {
                    "no `+`: no piece of this game has a promoted form".to_string()
                } else {
                    format!("`+` only before a piece with a promoted form:{list}")
                };
                problems.push(FenProblem {
                    at: p.at - 1,
                    len: 2,
                    message: format!(
                        "`+{}` in the {what}: {} does not promote: expected {expected}",
                        crate::piece::id::cased(p.side, p.letter),
                        crate::piece::id::show(p.letter)
                    ),
                });
            }
        }
        let letters: String = declared
            .iter()
            .map(|&c| format!("{} ", crate::piece::id::show(c)))
            .collect();
        let mut reported: Vec<char> = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            let width = row.squares.len();
            if width != usize::from(files) && !(row.bare_eight && files > 8) {
                problems.push(FenProblem {
                    at: row.at,
                    len: row.len,
                    message: format!(
                        "the {} rank from the top of the {what} is {width} squares wide: expected {files} (the board has {files} files)",
                        ordinal(i + 1)
                    ),
                });
            }
            for p in row.squares.iter().flatten() {
                if !declared.contains(&p.letter) && !reported.contains(&p.letter) {
                    // One error per letter, at its first use: a row of pawns is one mistake.
                    reported.push(p.letter);
                    let uses = self.placed().filter(|q| q.letter == p.letter).count();
                    let more = if uses > 1 {
                        format!(" (used {uses} times)")
                    } else {
                        String::new()
                    };
                    problems.push(FenProblem {
                        at: p.at,
                        len: crate::piece::id::text_len(p.letter),
                        message: format!(
                            "`{}` in the {what} is not a declared piece{more}: expected one of {letters}(either case)",
                            crate::piece::id::cased(p.side, p.letter)
                        ),
                    });
                }
            }
        }
        for p in self.hands.iter().flatten() {
            if !declared.contains(&p.letter) {
                problems.push(FenProblem {
                    at: p.at,
                    len: crate::piece::id::text_len(p.letter),
                    message: format!(
                        "`{}` in the holdings of the {what} is not a declared piece: expected one of {letters}(either case)",
                        crate::piece::id::cased(p.side, p.letter)
                    ),
                });
            }
        }
        if self.rows.len() != usize::from(ranks) {
            let len: usize = self.rows.last().map_or(1, |r| r.at + r.len);
            problems.push(FenProblem {
                at: 0,
                len,
                message: format!(
                    "the {what} has {} ranks: expected {ranks} (board {files}x{ranks}), separated by `/`",
                    self.rows.len()
                ),
            });
        }
        if let Some(((f, r), at)) = self.ep
            && (f >= files || r >= ranks)
        {
            problems.push(FenProblem {
                at,
                len: 1,
                message: format!(
                    "the en-passant square is off the {files}x{ranks} board: expected `-` or a square on the board, e.g. `e3`"
                ),
            });
        }
        problems
    }

    /// Every piece with its (file, rank) from 0, once [`Setup::check`] found nothing.
    pub fn squares(&self) -> impl Iterator<Item = ((u8, u8), Placed)> + '_ {
        let ranks = self.rows.len();
        self.rows.iter().enumerate().flat_map(move |(i, row)| {
            let rank = (ranks - 1 - i) as u8;
            row.squares
                .iter()
                .enumerate()
                .filter_map(move |(f, p)| p.map(|p| ((f as u8, rank), p)))
        })
    }

    fn placed(&self) -> impl Iterator<Item = Placed> + '_ {
        self.rows
            .iter()
            .flat_map(|r| r.squares.iter().flatten().copied())
    }

    /// The FEN text: runs of empty squares as numbers, rights as written (`-` when none).
    pub fn fen(&self) -> String {
        let rows: Vec<String> = self
            .rows
            .iter()
            .map(|row| {
                let mut s = String::new();
                let mut empty = 0;
                for sq in &row.squares {
                    match sq {
                        None => empty += 1,
                        Some(p) => {
                            if empty > 0 {
                                s += &empty.to_string();
                                empty = 0;
                            }
                            if p.plus {
                                s.push('+');
                            }
                            s += &crate::piece::id::cased(p.side, p.letter);
                            if p.promoted {
                                s.push('~');
                            }
                        }
                    }
                }
                if empty > 0 {
                    s += &empty.to_string();
                }
                s
            })
            .collect();
        let mut rights: String = self
            .rights
            .iter()
            .map(|r| match *r {
                Right::King(s) => s.cased('K'),
                Right::Queen(s) => s.cased('Q'),
                Right::File(s, f) => s.cased((b'A' + f) as char),
            })
            .collect();
        if rights.is_empty() {
            rights = "-".into();
        }
        let ep = match (self.count_limit, self.ep) {
            (Some((n, _)), _) => n.to_string(),
            (None, Some(((f, r), _))) => format!("{}{}", (b'a' + f) as char, r + 1),
            (None, None) => "-".to_string(),
        };
        let checks = self
            .checks
            .map_or(String::new(), |[w, b]| format!(" {w}+{b}"));
        // Holdings as Fairy-Stockfish writes them: White's pieces, then Black's.
        let hands = self.hands.as_ref().map_or(String::new(), |h| {
            let mut h = h.clone();
            h.sort_by_key(|p| p.side != Side::White);
            let letters: String = h
                .iter()
                .map(|p| crate::piece::id::cased(p.side, p.letter))
                .collect();
            format!("[{letters}]")
        });
        format!(
            "{}{hands} {} {rights} {ep}{checks} {} {}",
            rows.join("/"),
            self.side.fen_char(),
            self.halfmove,
            self.fullmove
        )
    }

    /// An empty placement of a board's size, White to move, no rights.
    pub fn empty(files: u8, ranks: u8) -> Setup {
        Setup {
            rows: (0..ranks)
                .map(|_| Row {
                    squares: vec![None; files as usize],
                    bare_eight: false,
                    at: 0,
                    len: 0,
                })
                .collect(),
            hands: None,
            side: Side::White,
            rights: Vec::new(),
            ep: None,
            halfmove: 0,
            fullmove: 1,
            checks: None,
            count_limit: None,
            field_at: [0; 6],
        }
    }

    /// Puts a piece on (file, rank) from 0; the board must be that large.
    pub fn put(&mut self, (file, rank): (u8, u8), side: Side, letter: char) {
        let i = self.rows.len() - 1 - rank as usize;
        self.rows[i].squares[file as usize] = Some(Placed {
            side,
            letter: letter.to_ascii_uppercase(),
            at: 0,
            promoted: false,
            plus: false,
        });
    }

    /// Marks the piece on (file, rank) from 0 as its letter's promoted form (`+P`).
    pub fn mark_plus(&mut self, (file, rank): (u8, u8)) {
        let i = self.rows.len() - 1 - rank as usize;
        if let Some(p) = &mut self.rows[i].squares[file as usize] {
            p.plus = true;
        }
    }

    /// Marks the piece on (file, rank) from 0 as promoted (`~`).
    pub fn mark_promoted(&mut self, (file, rank): (u8, u8)) {
        let i = self.rows.len() - 1 - rank as usize;
        if let Some(p) = &mut self.rows[i].squares[file as usize] {
            p.promoted = true;
        }
    }

    /// Adds a piece to a side's hand (and gives the setup a holdings part).
    pub fn put_in_hand(&mut self, side: Side, letter: char) {
        self.hands.get_or_insert_with(Vec::new).push(Placed {
            side,
            letter: letter.to_ascii_uppercase(),
            at: 0,
            promoted: false,
            plus: false,
        });
    }

    /// Empties (file, rank) from 0.
    pub fn remove(&mut self, (file, rank): (u8, u8)) {
        let i = self.rows.len() - 1 - rank as usize;
        self.rows[i].squares[file as usize] = None;
    }

    /// The piece on (file, rank) from 0, if any.
    pub fn get(&self, (file, rank): (u8, u8)) -> Option<Placed> {
        let i = self.rows.len().checked_sub(1 + rank as usize)?;
        self.rows
            .get(i)?
            .squares
            .get(file as usize)
            .copied()
            .flatten()
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

/// Splits `placement[holdings]` into the placement and the pieces in hand (`-` or nothing inside
/// the brackets: empty hands).
fn split_holdings<'a>(
    text: &'a str,
    problems: &mut Vec<FenProblem>,
) -> (&'a str, Option<Vec<Placed>>) {
    let Some(open) = text.find('[') else {
        return (text, None);
    };
    let placement = &text[..open];
    let at0 = placement.chars().count() + 1;
    let inner = &text[open + 1..];
    let Some(close) = inner.find(']') else {
        problems.push(FenProblem {
            at: at0 - 1,
            len: inner.chars().count() + 1,
            message:
                "the holdings have no closing `]`: expected e.g. `[Qp]` or `[]` after the placement"
                    .into(),
        });
        return (placement, Some(Vec::new()));
    };
    let after = &inner[close + 1..];
    if !after.is_empty() {
        problems.push(FenProblem {
            at: at0 + inner[..close].chars().count() + 1,
            len: after.chars().count(),
            message: format!(
                "`{after}` after the holdings: expected a space, then the side to move"
            ),
        });
    }
    let mut hand = Vec::new();
    let held: Vec<char> = inner[..close].chars().collect();
    let mut i = 0;
    while i < held.len() {
        let c = held[i];
        if c.is_ascii_alphabetic() {
            // A letter, dressed or not (`a'`).
            let (id, lower, n) = read_id(&held[i..]).expect("a letter starts an id");
            hand.push(Placed {
                side: if lower { Side::Black } else { Side::White },
                letter: id,
                at: at0 + i,
                promoted: false,
                plus: false,
            });
            i += n;
            continue;
        } else if !(c == '-' && close == 1) {
            problems.push(FenProblem {
                at: at0 + i,
                len: 1,
                message: format!(
                    "unexpected `{c}` in the holdings: expected piece letters (`[Qp]`), or `[-]` for empty hands"
                ),
            });
        }
        i += 1;
    }
    (placement, Some(hand))
}

/// Reads one piece id at the start of `chars` (`d`, `A'`, `+l!`): the id, whether its letter is
/// lower case, and the characters read.
fn read_id(chars: &[char]) -> Option<(char, bool, usize)> {
    let text: String = chars.iter().take(3).collect();
    crate::piece::id::read(&text)
}

/// The placement field: ranks split by `/`, runs of empty squares, letters.
fn read_placement(text: &str, problems: &mut Vec<FenProblem>) -> Vec<Row> {
    let chars: Vec<char> = text.chars().collect();
    let mut rows = Vec::new();
    let mut start = 0;
    for part in text.split('/') {
        let n = part.chars().count();
        let mut row = Row {
            squares: Vec::new(),
            bare_eight: part == "8",
            at: start,
            len: n,
        };
        let mut j = 0;
        let here: &[char] = &chars[start..start + n];
        while j < n {
            let c = here[j];
            if c.is_ascii_digit() {
                let run: String = here[j..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .collect();
                let len = run.chars().count();
                match run.parse::<u32>() {
                    Ok(k) if !run.starts_with('0') && k <= MAX_RUN => {
                        row.squares.extend(std::iter::repeat_n(None, k as usize));
                    }
                    _ if run.starts_with('0') => problems.push(FenProblem {
                        at: start + j,
                        len,
                        message: format!(
                            "`{run}` empty squares: expected a count from 1 without leading zeros"
                        ),
                    }),
                    _ => problems.push(FenProblem {
                        at: start + j,
                        len,
                        message: format!("`{run}` empty squares: expected at most {MAX_RUN}"),
                    }),
                }
                j += len;
            } else if let Some((id, lower, n)) = read_id(&here[j..]) {
                // A letter, dressed or not (`a'`), or `+` and one (`+d`); `~` after it.
                let plus = c == '+';
                let id = if plus {
                    crate::piece::id::base(id).unwrap_or(id)
                } else {
                    id
                };
                let promoted = !plus && here.get(j + n) == Some(&'~');
                row.squares.push(Some(Placed {
                    side: if lower { Side::Black } else { Side::White },
                    letter: id,
                    at: start + j + usize::from(plus),
                    promoted,
                    plus,
                }));
                j += n + usize::from(promoted);
            } else {
                problems.push(FenProblem {
                    at: start + j,
                    len: 1,
                    message: format!(
                        "unexpected `{c}` in the placement: expected piece letters, counts of empty squares and `/` between ranks"
                    ),
                });
                j += 1;
            }
        }
        if row.squares.len() > MAX_RUN as usize {
            problems.push(FenProblem {
                at: start,
                len: n.max(1),
                message: format!(
                    "a rank of {} squares: expected at most {MAX_RUN}",
                    row.squares.len()
                ),
            });
            row.squares.truncate(MAX_RUN as usize);
        }
        rows.push(row);
        start += n + 1;
    }
    if rows.len() > MAX_RUN as usize {
        problems.push(FenProblem {
            at: 0,
            len: chars.len().max(1),
            message: format!("{} ranks: expected at most {MAX_RUN}", rows.len()),
        });
    }
    rows
}

/// `e3`, `p16`: file a–p and rank 1–16, from 0.
pub fn parse_square_name(s: &str) -> Option<(u8, u8)> {
    let b = s.as_bytes();
    let f = b.first()?.wrapping_sub(b'a');
    let digits = s.get(1..)?;
    if f >= crate::geometry::MAX_SIDE
        || digits.is_empty()
        || digits.len() > 2
        || digits.starts_with('0')
        || !digits.bytes().all(|d| d.is_ascii_digit())
    {
        return None;
    }
    let r: u8 = digits.parse().ok()?;
    (1..=crate::geometry::MAX_SIDE)
        .contains(&r)
        .then_some((f, r - 1))
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_the_same_fen() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w Kk - 0 1",
            "k2/3/P2/2K w - - 12 30",
            "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1",
            "r1Q~1k3/8/8/8/8/8/8/4K3[QNpp] b - - 0 30",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        ] {
            assert_eq!(Setup::parse(fen).unwrap().fen(), fen);
        }
    }

    #[test]
    fn fills_missing_fields_and_a_missing_ep_field() {
        let s = Setup::parse("8/8/8/8/8/8/8/K6k").unwrap();
        assert_eq!(s.fen(), "8/8/8/8/8/8/8/K6k w - - 0 1");
        let s = Setup::parse("8/8/8/8/8/8/8/K6k b - 3 40").unwrap();
        assert_eq!(s.fen(), "8/8/8/8/8/8/8/K6k b - - 3 40");
    }

    #[test]
    fn reads_a_fen_without_rights_and_en_passant_fields() {
        let s = Setup::parse("ln1g2snl/1rs1gk1b1/9/9/9/9/9/9/1NSG2SNL[-] b 3 7").expect("fen");
        assert_eq!((s.side, s.halfmove, s.fullmove), (Side::Black, 3, 7));
        assert!(s.rights.is_empty() && s.ep.is_none());
        assert_eq!(s.hands, Some(Vec::new()));
    }

    #[test]
    fn lists_every_problem_with_its_place() {
        let e = Setup::parse("rn0b/x?k w KZ e99 one").unwrap_err();
        let found: Vec<(usize, &str)> = e
            .problems
            .iter()
            .map(|p| (p.at, p.message.split(':').next().unwrap()))
            .collect();
        assert_eq!(
            found,
            [
                (2, "`0` empty squares"),
                (6, "unexpected `?` in the placement"),
                (12, "`Z` in the castling field"),
                (14, "`e99` is not an en-passant square"),
                (18, "halfmove clock `one`"),
            ]
        );
    }

    #[test]
    fn checks_sizes_and_letters_against_a_board() {
        let s = Setup::parse("kq/3/K2 w - - 0 1").unwrap();
        let p = s.check(3, 2, &['K'], &[], "FEN");
        let msgs: Vec<&str> = p.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(msgs.len(), 3, "{msgs:#?}");
        assert!(msgs[0].starts_with("the 1st rank from the top of the FEN is 2 squares wide"));
        assert!(msgs[1].starts_with("`q` in the FEN is not a declared piece"));
        assert!(msgs[2].starts_with("the FEN has 3 ranks: expected 2"));
    }

    #[test]
    fn reads_holdings_as_the_guis_write_them() {
        let s = Setup::parse("4k3/8/8/8/8/8/8/4K3[-] w - - 0 1").unwrap();
        assert_eq!(s.hands, Some(vec![]));
        assert_eq!(s.fen(), "4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
        let s = Setup::parse("4k3/8/8/8/8/8/8/4K3[pQ] w - - 0 1").unwrap();
        assert_eq!(s.fen(), "4k3/8/8/8/8/8/8/4K3[Qp] w - - 0 1");
        let mut found: Vec<(usize, String)> = Setup::parse("4k3/4Q~3/8/8/8/8/8/4K3[Q3]x w")
            .unwrap_err()
            .problems
            .into_iter()
            .map(|p| (p.at, p.message.split(':').next().unwrap().to_string()))
            .collect();
        found.sort();
        assert_eq!(
            found,
            [
                (24, "unexpected `3` in the holdings".to_string()),
                (26, "`x` after the holdings".to_string())
            ]
        );
        let p = Setup::parse("k7/8/8/8/8/8/8/K7[Z] w")
            .unwrap()
            .check(8, 8, &['K'], &[], "FEN");
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].at, 18);
        assert!(
            p[0].message
                .starts_with("`Z` in the holdings of the FEN is not a declared piece")
        );
        assert!(Setup::parse("k7/8/8/8/8/8/8/K7[Q w").is_err());
    }

    #[test]
    fn wild_runs_and_sizes_are_errors_not_allocations() {
        assert!(Setup::parse("99999999999999999999/8 w").is_err());
        assert!(Setup::parse(&["8"; 300].join("/")).is_err());
        assert!(Setup::parse(&"K".repeat(300)).is_err());
    }
}
