//! Text → [`Betza`] with nom. Every character is accounted for: anything unknown or misplaced is an
//! error that carries its byte offset.

use super::ast::*;
use nom::{
    IResult, Parser,
    character::complete::{char, digit1, satisfy},
    combinator::opt,
    error::{ErrorKind, ParseError},
};
use std::borrow::Cow;

/// A Betza parse error: where (byte offset into the piece string) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at column {})", offset + 1)]
pub struct BetzaError {
    pub offset: usize,
    pub message: String,
}

#[derive(Debug)]
struct Fail<'a> {
    at: &'a str,
    msg: Cow<'static, str>,
}

impl<'a> ParseError<&'a str> for Fail<'a> {
    fn from_error_kind(at: &'a str, kind: ErrorKind) -> Self {
        Fail {
            at,
            msg: Cow::Owned(format!("unexpected input ({kind:?})")),
        }
    }
    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, Fail<'a>>;

fn fail<T>(at: &str, msg: impl Into<Cow<'static, str>>) -> Res<'_, T> {
    Err(nom::Err::Failure(Fail {
        at,
        msg: msg.into(),
    }))
}

/// Legs one move may have. The step compiler expands every direction choice of every leg, eight
/// times the work per leg (`aaaaaN`, six legs, compiles in tens of milliseconds, eight legs take
/// seconds); real pieces use at most four.
pub const MAX_LEGS: usize = 6;

fn too_many_legs<T>(at: &str) -> Res<'_, T> {
    fail(
        at,
        format!("too many legs: a move has at most {MAX_LEGS} legs"),
    )
}

const ATOM_HELP: &str = "an atom (W F D N A H C L Z J G R B Q K O) or (a,b)";

/// Parses a whole piece string.
pub fn parse(text: &str) -> Result<Betza, BetzaError> {
    let to_err = |f: Fail| BetzaError {
        offset: text.len() - f.at.len(),
        message: f.msg.into_owned(),
    };
    let mut rest = text;
    let mut moves = Vec::new();
    if text.is_empty() {
        return Err(BetzaError {
            offset: 0,
            message: format!("empty piece: expected {ATOM_HELP}"),
        });
    }
    while !rest.is_empty() {
        match one_move(rest) {
            Ok((r, m)) => {
                rest = r;
                moves.push(m);
            }
            Err(nom::Err::Error(f) | nom::Err::Failure(f)) => return Err(to_err(f)),
            Err(nom::Err::Incomplete(_)) => unreachable!("complete parsers only"),
        }
    }
    Ok(Betza { moves })
}

fn one_move(input: &str) -> Res<'_, Move> {
    let (rest, initial) = initial(input)?;
    let mut legs = Vec::new();
    let mut rest = rest;
    loop {
        let (r, p) = prefix(rest, true)?;
        rest = r;
        legs.push(p);
        if let Some(r) = rest.strip_prefix('a') {
            if legs.len() == MAX_LEGS {
                return too_many_legs(rest);
            }
            rest = r;
            continue;
        }
        break;
    }
    if let Some(r) = rest.strip_prefix("t[") {
        if legs.len() > 1 {
            return fail(rest, "a bracket cannot follow `a` legs");
        }
        let outer = legs.pop().unwrap_or_default();
        let (r, (leg_list, seps)) = bracket_body(r, true)?;
        return Ok((
            r,
            Move::Bracket(Bracket {
                initial,
                outer,
                then: true,
                legs: leg_list,
                seps,
            }),
        ));
    }
    if let Some(r) = rest.strip_prefix('[') {
        if legs.len() > 1 {
            return fail(rest, "a bracket cannot follow `a` legs");
        }
        let outer = legs.pop().unwrap_or_default();
        let (r, (leg_list, seps)) = bracket_body(r, false)?;
        return Ok((
            r,
            Move::Bracket(Bracket {
                initial,
                outer,
                then: false,
                legs: leg_list,
                seps,
            }),
        ));
    }
    let (rest, atom) = atom(rest)?;
    let (rest, range) = range(rest, atom)?;
    Ok((
        rest,
        Move::Chain(Chain {
            initial,
            legs,
            atom,
            range,
        }),
    ))
}

fn initial(input: &str) -> Res<'_, Initial> {
    if let Some(r) = input.strip_prefix("ii") {
        Ok((r, Initial::Twice))
    } else if let Some(r) = input.strip_prefix('i') {
        Ok((r, Initial::Once))
    } else {
        Ok((input, Initial::No))
    }
}

/// Direction and modality letters of one leg. Direction letters form one run (two-letter tokens are
/// read greedily); modality letters may stand before or after it.
fn prefix(input: &str, in_chain: bool) -> Res<'_, Prefix> {
    let mut p = Prefix::default();
    let mut rest = input;
    let mut dirs_read = false;
    while let Some(c) = rest.chars().next() {
        if c == 't' && rest[1..].starts_with('[') {
            break;
        }
        if c == 'a' && in_chain {
            break;
        }
        if DirLetter::from_char(c).is_some() {
            if dirs_read {
                return fail(
                    rest,
                    "direction letters must be written together (e.g. `fr`), not split by modality letters",
                );
            }
            let (r, dirs) = dir_run(rest)?;
            p.dirs = dirs;
            dirs_read = true;
            rest = r;
            continue;
        }
        if let Some(m) = Modality::from_char(c) {
            p.mods.insert(m);
            rest = &rest[1..];
            continue;
        }
        return match c {
            'i' => fail(
                rest,
                "`i` (initial move) must be the first letter of a move, e.g. `imD`",
            ),
            'k' | 'q' | 'z' => fail(
                rest,
                format!(
                    "`{c}` is a reserved Betza letter that no engine implements; expected a direction (f b l r v s h) or modality (m c d e p g n j o y x t u)"
                ),
            ),
            'a' => fail(
                rest,
                "`a` (another leg) is not allowed inside brackets; separate bracket legs with `?` or `-`",
            ),
            c if c.is_ascii_lowercase() => fail(
                rest,
                format!(
                    "unknown modifier `{c}`: expected a direction (f b l r v s h) or modality (m c d e p g n j o y x t u)"
                ),
            ),
            _ => break,
        };
    }
    Ok((rest, p))
}

fn dir_run(input: &str) -> Res<'_, Vec<Dir>> {
    let mut out = Vec::new();
    let mut rest = input;
    loop {
        let (r, a) = match opt(satisfy(|c| DirLetter::from_char(c).is_some())).parse(rest)? {
            (r, Some(c)) => (r, DirLetter::from_char(c).expect("checked")),
            (_, None) => break,
        };
        rest = r;
        if let Some(b) = rest
            .chars()
            .next()
            .and_then(DirLetter::from_char)
            .filter(|&b| a.pairs_with(b))
        {
            if a == DirLetter::H && !out.is_empty() {
                return fail(
                    &input[input.len() - rest.len() - 1..],
                    "chiral halves `hr`/`hl` must be the first direction token",
                );
            }
            out.push(Dir::Pair(a, b));
            rest = &rest[1..];
        } else {
            out.push(a.single());
        }
    }
    Ok((rest, out))
}

fn atom(input: &str) -> Res<'_, Atom> {
    if input.starts_with('(') {
        let mut pair = (
            char::<&str, Fail>('('),
            digit1,
            char(','),
            digit1,
            char(')'),
        );
        return match pair.parse(input) {
            Ok((r, (_, a, _, b, _))) => {
                let (Ok(a), Ok(b)) = (a.parse::<u8>(), b.parse::<u8>()) else {
                    return fail(
                        input,
                        "leap vector too long: expected (a,b) with numbers up to 255",
                    );
                };
                if a == 0 && b == 0 {
                    return fail(input, "(0,0) is not a move: expected (a,b) with a or b > 0");
                }
                Ok((r, Atom::Pair(a, b)))
            }
            Err(_) => fail(input, "malformed leap: expected (a,b), e.g. (4,1)"),
        };
    }
    match input.chars().next() {
        Some('O') => Ok((&input[1..], Atom::Castle)),
        Some(c) if Atom::LETTERS.contains(c) => Ok((&input[1..], Atom::Letter(c))),
        Some(c) if c.is_ascii_uppercase() => {
            fail(input, format!("unknown atom `{c}`: expected {ATOM_HELP}"))
        }
        Some(c) => fail(input, format!("unexpected `{c}`: expected {ATOM_HELP}")),
        None => fail(
            input,
            format!("the piece string ends too early: expected {ATOM_HELP}"),
        ),
    }
}

fn range(input: &str, atom: Atom) -> Res<'_, Range> {
    if let Ok((r, digits)) = digit1::<&str, Fail>(input) {
        return match digits.parse::<u8>() {
            Ok(n) if digits.len() <= 2 => Ok((r, Range::Count(n))),
            _ => fail(
                input,
                "range too large: expected at most two digits (0 = unlimited)",
            ),
        };
    }
    if let Atom::Letter(c) = atom
        && c != 'O'
        && input.starts_with(c)
    {
        return Ok((&input[1..], Range::Doubled));
    }
    Ok((input, Range::Default))
}

fn bracket_body(input: &str, then: bool) -> Res<'_, (Vec<BracketLeg>, Vec<Sep>)> {
    let mut legs = Vec::new();
    let mut seps = Vec::new();
    let mut rest = input;
    loop {
        let (r, prefix) = prefix(rest, false)?;
        let (r, atom) = atom(r)?;
        if atom == Atom::Castle {
            return fail(rest, "castling `O` cannot be a bracket leg");
        }
        let (r, range) = range(r, atom)?;
        if legs.len() == MAX_LEGS {
            return too_many_legs(rest);
        }
        legs.push(BracketLeg {
            prefix,
            atom,
            range,
        });
        rest = r;
        match rest.chars().next() {
            Some(']') => {
                rest = &rest[1..];
                break;
            }
            Some('?') | Some('-') if !then => {
                seps.push(if rest.starts_with('?') {
                    Sep::MayStop
                } else {
                    Sep::Pass
                });
                rest = &rest[1..];
            }
            Some('?') | Some('-') => {
                return fail(
                    rest,
                    "`t[..]` legs follow each other without separators, e.g. t[FR]",
                );
            }
            Some(_) if then => seps.push(Sep::MayStop),
            Some(',') => {
                return fail(
                    rest,
                    "`,` is not a bracket separator: expected `?` (may stop) or `-` (must pass)",
                );
            }
            Some(c) => {
                return fail(
                    rest,
                    format!("unexpected `{c}` in brackets: expected `?`, `-` or `]`"),
                );
            }
            None => return fail(rest, "unclosed bracket: expected `]`"),
        }
    }
    if legs.len() < 2 {
        return fail(input, "a bracket needs at least two legs, e.g. [F?R]");
    }
    Ok((rest, (legs, seps)))
}
