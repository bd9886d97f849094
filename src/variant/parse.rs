//! Text → [`VariantSpec`]. Line oriented: `key value...`, `#` starts a comment, blank lines are
//! ignored. Each line is split into tokens with nom; each key's handler checks the shape of its values.
//! A bad line is reported and skipped, so one run reports every line that is wrong.

use super::diag::{Diagnostic, Source, Span, Spanned};
use super::model::{BareKing, DiceNoMove, EVAL_TERMS, Outcome, RoyalLoss};
use super::spec::*;
use nom::{
    IResult, Offset, Parser,
    bytes::complete::{take_while, take_while1},
    character::complete::{anychar, char, digit1},
    combinator::all_consuming,
    multi::many0,
    sequence::{preceded, separated_pair},
};
use std::collections::HashMap;

/// Every key, in conventional order.
pub const KEYS: &[&str] = &[
    "variant",
    "inherit",
    "alias",
    "xboard",
    "description",
    "board",
    "region",
    "facing-royals",
    "piece",
    "start",
    "promotion",
    "promotion-optional",
    "promotion-limit",
    "castling",
    "royal-initial-moves",
    "stalemate",
    "bare-king",
    "repetition",
    "move-count",
    "dice",
    "royal-loss",
    "extinction",
    "goal",
    "checks-to-win",
    "giving-check",
    "captures",
    "promoted-captures",
    "drop-ranks",
    "checkmate",
    "must-capture",
    "extinction-result",
    "initial-ranks",
    "piece-promotion",
    "drop-promoted",
    "drop-checks",
    "must-drop",
    "drop-opposite-colours",
    "drop-castling",
    "immobile",
    "drop-one-per-file",
    "drop-no-mate",
    "lion-trade",
    "contagion",
    "checkmate-series",
    "gating",
    "castling-partner",
    "start-shuffle",
    "pass",
    "bikjang",
    "counting",
    "honour-count",
    "rights-by-file",
    "royal-in-check",
    "eval",
    "castling-rook",
    "promotion-move",
    "castling-files",
];

fn usage(key: &str) -> &'static str {
    match key {
        "variant" => "`variant NAME`",
        "inherit" => "`inherit NAME`",
        "alias" => "`alias NAME...`",
        "xboard" => "`xboard NAME [PARENT]`",
        "description" => "`description TEXT`",
        "board" => "`board FILESxRANKS`, e.g. `board 12x12`",
        "region" => "`region NAME SQUARES...`, squares as `d1` or rectangles `d1-f3`",
        "facing-royals" => "`facing-royals allowed|forbidden`",
        "piece" => {
            "`piece LETTER NAME BETZA [royal] [value N] [promotes LETTER] [confine REGION] [in REGION BETZA] [along REGION BETZA] [no-jump-over LETTERS] [no-capture LETTERS]` or `piece LETTER -`"
        }
        "start" => {
            "`start FEN` with 6 fields (placement side castling en-passant halfmove fullmove), n-check variants with the checks field `W+B` after the en-passant one"
        }
        "promotion" => {
            "`promotion PAWNS [zone N] choice LETTERS` or `promotion PAWNS [zone N] by-file LETTERS`"
        }
        "promotion-optional" => "`promotion-optional yes|no`",
        "promotion-limit" => "`promotion-limit LETTER=N...`, e.g. `promotion-limit Q=1 R=2`",
        "castling" => "`castling through-check yes|no`",
        "royal-initial-moves" => "`royal-initial-moves free|safe`",
        "stalemate" => "`stalemate stalemated-loses|draw|stalemated-wins|fewer-pieces-wins`",
        "bare-king" => "`bare-king off|immediate|bare-back|bared-wins|draw`",
        "repetition" => "`repetition N|off|forbidden`",
        "move-count" => "`move-count N|off`",
        "dice" => "`dice FACE=LETTER... [no-move reroll|pass]`",
        "royal-loss" => "`royal-loss any|last|duple`",
        "extinction" => "`extinction LETTERS|all [at-most N] [opponent-at-least M]`",
        "goal" => {
            "`goal LETTERS SQUARES... [reply] [mirrored]`, squares as `d4` or rectangles `a8-h8`"
        }
        "checks-to-win" => "`checks-to-win N|off`",
        "giving-check" => "`giving-check allowed|forbidden`",
        "captures" => "`captures to-hand|removed`",
        "promoted-captures" => "`promoted-captures demote|keep`",
        "drop-ranks" => {
            "`drop-ranks LETTERS FIRST-LAST [LETTERS FIRST-LAST]...`, ranks from the dropping side, e.g. `drop-ranks P 2-7`"
        }
        "checkmate" => "`checkmate checkmated-loses|checkmated-wins`",
        "must-capture" => "`must-capture yes|no`",
        "extinction-result" => "`extinction-result extinct-loses|extinct-wins`",
        "initial-ranks" => {
            "`initial-ranks LETTERS FIRST[-LAST]`, ranks counted from the side's own edge, e.g. `initial-ranks P 1-2`"
        }
        "piece-promotion" => {
            "`piece-promotion zone N [optional|forced] [on-capture] [flip] [on-entry]`, N ranks from the far edge, e.g. `piece-promotion zone 3`"
        }
        "drop-promoted" => "`drop-promoted yes|no`",
        "drop-checks" => "`drop-checks allowed|forbidden`",
        "must-drop" => "`must-drop yes|no|LETTERS`",
        "drop-opposite-colours" => {
            "`drop-opposite-colours LETTERS`, e.g. `drop-opposite-colours B`"
        }
        "drop-castling" => "`drop-castling SQUARE LETTERS`, e.g. `drop-castling e1 R`",
        "immobile" => "`immobile allowed|forbidden`",
        "drop-one-per-file" => "`drop-one-per-file LETTERS`, e.g. `drop-one-per-file P`",
        "drop-no-mate" => "`drop-no-mate LETTERS`, e.g. `drop-no-mate P`",
        "lion-trade" => "`lion-trade LETTERS [over LETTERS]`, e.g. `lion-trade N over PI`",
        "contagion" => "`contagion LETTERS [not-by LETTERS]`, e.g. `contagion W not-by K`",
        "checkmate-series" => {
            "`checkmate-series LETTERS [not-by LETTERS]`, e.g. `checkmate-series NRJ not-by N`"
        }
        "gating" => "`gating LETTERS [drops] [pins-hold]`, e.g. `gating HE`",
        "castling-partner" => "`castling-partner corner|any`",
        "start-shuffle" => {
            "`start-shuffle LETTERS [opposite-colours LETTERS]... [between INNER OUTER]`, e.g. `start-shuffle BQNRK opposite-colours B between K R`"
        }
        "pass" => "`pass yes|no`",
        "bikjang" => "`bikjang yes|no`",
        "counting" => "`counting LETTER=N... [bonus N]|off`, e.g. `counting R=13 C=7 bonus 1`",
        "honour-count" => {
            "`honour-count [board N] [no-pawns] [from-pieces] PIECES=N...|off`, PIECES letters the stronger side has at least (`RR` two rooks) or `*`, N moves, e.g. `honour-count board 64 RR=8 R=16 *=64`"
        }
        "rights-by-file" => "`rights-by-file LETTERS`, e.g. `rights-by-file KM`",
        "royal-in-check" => "`royal-in-check moves|takes-checker`",
        "eval" => {
            "`eval TOKEN...`, each `LETTER=MG/EG` (centipawns) or `TERM=PERCENT` with TERM one of psq mobility king promotion threat, e.g. `eval N=310/290 mobility=120`"
        }
        "castling-rook" => "`castling-rook LETTER`, e.g. `castling-rook R`",
        "castling-files" => "`castling-files FIRST LAST`, e.g. `castling-files b i`",
        "promotion-move" => {
            "`promotion-move LETTERS to L [on REGION] [last-anywhere] [limit N] [no-attack]`, e.g. `promotion-move P to F on diagonals last-anywhere limit 1 no-attack`"
        }
        _ => "a known key",
    }
}

/// One whitespace-separated word of a line.
struct Tok<'a> {
    text: &'a str,
    /// Byte range in the line.
    start: usize,
    end: usize,
    span: Span,
}

impl Tok<'_> {
    fn spanned(&self) -> Spanned<String> {
        Spanned {
            value: self.text.to_string(),
            span: self.span.clone(),
        }
    }
}

/// Splits the code part of a line into words. `take_while` (not `space0`) so that any Unicode
/// whitespace separates words and every character is consumed.
fn words(code: &str) -> Vec<&str> {
    let word = preceded(
        take_while(char::is_whitespace),
        take_while1(|c: char| !c.is_whitespace()),
    );
    let res: IResult<&str, Vec<&str>> = many0(word).parse(code);
    res.map(|(_, w)| w).unwrap_or_default()
}

type Res<T> = Result<T, Diagnostic>;

struct FileParser {
    spec: VariantSpec,
    diags: Vec<Diagnostic>,
    /// Key → line where it was first given.
    seen: HashMap<&'static str, u32>,
    /// Piece letter → line where it was declared.
    letters: HashMap<char, u32>,
}

/// Parses a variant file into a spec, collecting every syntax error. The spec holds whatever parsed.
pub fn parse_spec(origin: &str, text: &str) -> (VariantSpec, Vec<Diagnostic>) {
    let src = Source::new(origin, text);
    let mut p = FileParser {
        spec: VariantSpec::empty(src.clone()),
        diags: Vec::new(),
        seen: HashMap::new(),
        letters: HashMap::new(),
    };
    for (i, raw) in src.text.split('\n').enumerate() {
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let code = line.split('#').next().unwrap_or("");
        let toks: Vec<Tok> = words(code)
            .into_iter()
            .map(|w| {
                let start = code.offset(w);
                let col = code[..start].chars().count() + 1;
                let len = w.chars().count();
                let span = Span {
                    src: src.clone(),
                    line: line_no,
                    col: col as u32,
                    len: len as u32,
                };
                Tok {
                    text: w,
                    start,
                    end: start + w.len(),
                    span,
                }
            })
            .collect();
        if !toks.is_empty() {
            p.statement(code, &toks);
        }
    }
    (p.spec, p.diags)
}

impl FileParser {
    fn statement(&mut self, code: &str, toks: &[Tok]) {
        let key_tok = &toks[0];
        let Some(&key) = KEYS.iter().find(|k| **k == key_tok.text) else {
            let hint = match suggest(key_tok.text) {
                Some(k) => format!(" (did you mean `{k}`?)"),
                None => String::new(),
            };
            self.diags.push(key_tok.span.error(format!(
                "unknown key `{}`{hint}: expected one of {}",
                key_tok.text,
                KEYS.join(", ")
            )));
            return;
        };
        if !matches!(key, "piece" | "region") {
            if let Some(first) = self.seen.get(key) {
                self.diags.push(key_tok.span.error(format!(
                    "`{key}` is given twice (first on line {first}): expected each key once, except `piece` and `region`"
                )));
                return;
            }
            self.seen.insert(key, key_tok.span.line);
        }
        let args = &toks[1..];
        if let Err(d) = self.dispatch(key, key_tok, args, code) {
            self.diags.push(d);
            self.spec.broken_keys.insert(key);
        }
    }

    fn dispatch(&mut self, key: &'static str, key_tok: &Tok, args: &[Tok], code: &str) -> Res<()> {
        let s = &mut self.spec;
        match key {
            "variant" => {
                count(key, key_tok, args, 1, 1)?;
                s.name = Some(name(&args[0], "variant name")?);
            }
            "inherit" => {
                count(key, key_tok, args, 1, 1)?;
                s.inherit = Some(name(&args[0], "parent variant name")?);
            }
            "alias" => {
                count(key, key_tok, args, 1, usize::MAX)?;
                s.aliases = args.iter().map(|t| name(t, "alias")).collect::<Res<_>>()?;
            }
            "xboard" => {
                count(key, key_tok, args, 1, 2)?;
                let parent = args
                    .get(1)
                    .map(|t| name(t, "XBoard parent variant"))
                    .transpose()?;
                s.xboard = Some(XboardSpec {
                    name: xboard_name(&args[0])?,
                    parent,
                });
            }
            "description" => {
                count(key, key_tok, args, 1, usize::MAX)?;
                let (first, last) = (&args[0], &args[args.len() - 1]);
                let text = &code[first.start..last.end];
                let span = first.span.sub(0, text.chars().count());
                s.description = Some(Spanned {
                    value: text.to_string(),
                    span,
                });
            }
            "board" => {
                count(key, key_tok, args, 1, 1)?;
                s.board = Some(board(&args[0])?);
            }
            "region" => {
                count(key, key_tok, args, 2, usize::MAX)?;
                let name = name(&args[0], "region name")?;
                if let Some(first) = s.regions.iter().find(|r| r.name.value == name.value) {
                    return Err(name.span.error(format!(
                        "region `{}` is declared twice (first on line {}): expected each region name once per file",
                        name.value, first.name.span.line
                    )));
                }
                s.regions.push(RegionSpec {
                    name,
                    squares: args[1..].iter().map(Tok::spanned).collect(),
                });
            }
            "facing-royals" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("allowed", true), ("forbidden", false)];
                s.facing_royals = Some(keyword(&args[0], "facing-royals rule", &options)?);
            }
            "piece" => self.piece(key_tok, args)?,
            "start" => {
                count(key, key_tok, args, 6, 7)?;
                s.start = Some(FenSpec {
                    fields: args.iter().map(Tok::spanned).collect(),
                    key: key_tok.span.clone(),
                });
            }
            "promotion" => s.promotion = Some(promotion(key_tok, args)?),
            "promotion-optional" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("yes", true), ("no", false)];
                s.promotion_optional =
                    Some(keyword(&args[0], "promotion-optional rule", &options)?);
            }
            "promotion-limit" => s.promotion_limit = Some(promotion_limit(key_tok, args)?),
            "castling" => {
                count(key, key_tok, args, 2, 2)?;
                if args[0].text != "through-check" {
                    return Err(args[0].span.error(format!(
                        "unknown castling rule `{}`: expected {}",
                        args[0].text,
                        usage(key)
                    )));
                }
                s.castling_through_check = Some(keyword(
                    &args[1],
                    "castling through-check",
                    &[("yes", true), ("no", false)],
                )?);
            }
            "royal-initial-moves" => {
                count(key, key_tok, args, 1, 1)?;
                let v = keyword(
                    &args[0],
                    "royal-initial-moves rule",
                    &[("free", false), ("safe", true)],
                )?;
                s.royal_initial_moves_safe = Some(v);
            }
            "stalemate" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [
                    ("stalemated-loses", (Outcome::Loss, false)),
                    ("draw", (Outcome::Draw, false)),
                    ("stalemated-wins", (Outcome::Win, false)),
                    ("fewer-pieces-wins", (Outcome::Draw, true)),
                ];
                s.stalemate = Some(keyword(&args[0], "stalemate rule", &options)?);
            }
            "bare-king" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [
                    ("off", BareKing::Off),
                    ("immediate", BareKing::Immediate),
                    ("bare-back", BareKing::BareBack),
                    ("bared-wins", BareKing::BaredWins),
                    ("draw", BareKing::Draw),
                ];
                s.bare_king = Some(keyword(&args[0], "bare-king rule", &options)?);
            }
            "repetition" => {
                count(key, key_tok, args, 1, 1)?;
                if args[0].text == "forbidden" {
                    // No move may repeat an earlier position: never a draw by repetition.
                    s.repetition = Some(Spanned {
                        value: None,
                        span: args[0].span.clone(),
                    });
                    s.repetition_forbidden = true;
                } else {
                    s.repetition = Some(number_or_off(&args[0], key)?);
                    s.repetition_forbidden = false;
                }
            }
            "move-count" => {
                count(key, key_tok, args, 1, 1)?;
                s.move_count = Some(number_or_off(&args[0], key)?);
            }
            "dice" => s.dice = Some(dice(key_tok, args)?),
            "royal-loss" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [
                    ("any", RoyalLoss::Any),
                    ("last", RoyalLoss::Last),
                    ("duple", RoyalLoss::Duple),
                ];
                s.royal_loss = Some(keyword(&args[0], "royal-loss rule", &options)?);
            }
            "extinction" => {
                count(key, key_tok, args, 1, 5)?;
                // `at-most N` and `opponent-at-least M`, in either order, each once.
                let (mut at_most, mut opponent_at_least) = (None, None);
                let mut rest = &args[1..];
                while let [w, tail @ ..] = rest {
                    let slot = match w.text {
                        "at-most" if at_most.is_none() => &mut at_most,
                        "opponent-at-least" if opponent_at_least.is_none() => {
                            &mut opponent_at_least
                        }
                        _ => {
                            return Err(w.span.error(format!(
                                "unexpected `{}` in `extinction`: expected {}",
                                w.text,
                                usage(key)
                            )));
                        }
                    };
                    let Some(n) = tail.first() else {
                        return Err(w.span.error(format!(
                            "`{}` without a count: expected {}",
                            w.text,
                            usage(key)
                        )));
                    };
                    let res: IResult<&str, u32> = all_consuming(digits).parse(n.text);
                    let Ok((_, v)) = res else {
                        return Err(n.span.error(format!(
                            "`{}` is not a count: expected {}",
                            n.text,
                            usage(key)
                        )));
                    };
                    *slot = Some(Spanned {
                        value: v,
                        span: n.span.clone(),
                    });
                    rest = &tail[1..];
                }
                s.extinction = Some(ExtinctionSpec {
                    letters: args[0].spanned(),
                    at_most,
                    opponent_at_least,
                });
            }
            "goal" => {
                count(key, key_tok, args, 2, usize::MAX)?;
                let mut regions: Vec<Spanned<String>> =
                    args[1..].iter().map(Tok::spanned).collect();
                // Trailing flags, in either order.
                let (mut reply, mut mirrored) = (false, false);
                while let Some(flag) = regions.last().map(|r| r.value.clone()) {
                    match flag.as_str() {
                        "reply" if !reply => reply = true,
                        "mirrored" if !mirrored => mirrored = true,
                        _ => break,
                    }
                    regions.pop();
                }
                if regions.is_empty() {
                    return Err(args[args.len() - 1].span.after().error(format!(
                        "the goal squares are missing: expected {}",
                        usage(key)
                    )));
                }
                s.goal = Some(GoalSpec {
                    letters: args[0].spanned(),
                    regions,
                    reply,
                    mirrored,
                });
            }
            "checks-to-win" => {
                count(key, key_tok, args, 1, 1)?;
                s.checks_to_win = Some(number_or_off(&args[0], key)?);
            }
            "giving-check" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("allowed", true), ("forbidden", false)];
                s.giving_check = Some(keyword(&args[0], "giving-check rule", &options)?);
            }
            "captures" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("to-hand", true), ("removed", false)];
                s.captures_to_hand = Some(keyword(&args[0], "captures rule", &options)?);
            }
            "promoted-captures" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("demote", true), ("keep", false)];
                s.demote = Some(keyword(&args[0], "promoted-captures rule", &options)?);
            }
            "drop-ranks" => {
                // `LETTERS FIRST-LAST`, one group or more (`KFSN 1-3 R 1-1`).
                count(key, key_tok, args, 2, usize::MAX)?;
                if !args.len().is_multiple_of(2) {
                    let last = &args[args.len() - 1];
                    return Err(last.span.error(format!(
                        "`{}` has no rank range after it: expected {}",
                        last.text,
                        usage(key)
                    )));
                }
                let mut groups = Vec::new();
                for pair in args.chunks(2) {
                    let r = &pair[1];
                    let res: IResult<&str, (u32, u32)> =
                        all_consuming(separated_pair(digits, char('-'), digits)).parse(r.text);
                    let Ok((_, (first, last))) = res else {
                        return Err(r.span.error(format!(
                            "`{}` is not a rank range: expected {}",
                            r.text,
                            usage(key)
                        )));
                    };
                    let dash = r.text.find('-').unwrap_or(0);
                    groups.push(DropRanksSpec {
                        letters: pair[0].spanned(),
                        first: Spanned {
                            value: first,
                            span: r.span.sub(0, dash),
                        },
                        last: Spanned {
                            value: last,
                            span: r.span.sub(dash + 1, r.text.len() - dash - 1),
                        },
                        range: r.span.clone(),
                    });
                }
                s.drop_ranks = Some(groups);
            }
            "checkmate" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [
                    ("checkmated-loses", Outcome::Loss),
                    ("checkmated-wins", Outcome::Win),
                ];
                s.checkmate = Some(keyword(&args[0], "checkmate rule", &options)?);
            }
            "must-capture" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("yes", true), ("no", false)];
                s.must_capture = Some(keyword(&args[0], "must-capture rule", &options)?);
            }
            "extinction-result" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [
                    ("extinct-loses", Outcome::Loss),
                    ("extinct-wins", Outcome::Win),
                ];
                s.extinction_result = Some(keyword(&args[0], "extinction result", &options)?);
            }
            "initial-ranks" => {
                count(key, key_tok, args, 2, 2)?;
                s.initial_ranks = Some(rank_band(&args[0], &args[1])?);
            }
            "piece-promotion" => {
                count(key, key_tok, args, 2, 5)?;
                if args[0].text != "zone" {
                    return Err(args[0].span.error(format!(
                        "unexpected `{}` in `piece-promotion`: expected {}",
                        args[0].text,
                        usage(key)
                    )));
                }
                let res: IResult<&str, u32> = all_consuming(digits).parse(args[1].text);
                let Ok((_, zone)) = res else {
                    return Err(args[1].span.error(format!(
                        "`{}` is not a number of ranks: expected {}",
                        args[1].text,
                        usage(key)
                    )));
                };
                // After the zone, each of these words at most once, in any order.
                let (mut forced, mut on_capture, mut flip, mut on_entry) = (None, None, None, None);
                for t in &args[2..] {
                    let options = [
                        ("optional", 0),
                        ("forced", 1),
                        ("on-capture", 2),
                        ("flip", 3),
                        ("on-entry", 4),
                    ];
                    let word = keyword(t, "piece-promotion rule", &options)?.value;
                    let slot = match word {
                        0 | 1 => &mut forced,
                        2 => &mut on_capture,
                        3 => &mut flip,
                        _ => &mut on_entry,
                    };
                    if slot.is_some() {
                        return Err(t.span.error(format!(
                            "`{}` repeats a `piece-promotion` rule already given: expected {}",
                            t.text,
                            usage(key)
                        )));
                    }
                    *slot = Some(word);
                }
                s.piece_promotion = Some(PiecePromotionSpec {
                    zone: Spanned {
                        value: zone,
                        span: args[1].span.clone(),
                    },
                    forced: forced == Some(1),
                    on_capture: on_capture.is_some(),
                    flip: flip.is_some(),
                    on_entry: on_entry.is_some(),
                });
            }
            "immobile" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("allowed", false), ("forbidden", true)];
                s.immobile_forbidden = Some(keyword(&args[0], "immobile rule", &options)?);
            }
            "castling-rook" => {
                count(key, key_tok, args, 1, 1)?;
                s.castling_rook = Some(args[0].spanned());
            }
            "castling-files" => {
                count(key, key_tok, args, 2, 2)?;
                s.castling_files = Some([args[0].spanned(), args[1].spanned()]);
            }
            "rights-by-file" => {
                count(key, key_tok, args, 1, 1)?;
                s.rights_by_file = Some(args[0].spanned());
            }
            "promotion-move" => {
                count(key, key_tok, args, 3, 9)?;
                if args[1].text != "to" {
                    return Err(args[1].span.error(format!(
                        "`{}` after the promoting kinds: expected `to`, as in {}",
                        args[1].text,
                        usage(key)
                    )));
                }
                let mut pm = crate::variant::spec::PromotionMoveSpec {
                    kinds: args[0].spanned(),
                    to: args[2].spanned(),
                    region: None,
                    last_anywhere: false,
                    limit: None,
                    no_attack: false,
                };
                let mut rest = &args[3..];
                while let [w, tail @ ..] = rest {
                    rest = tail;
                    match w.text {
                        "on" if pm.region.is_none() => {
                            let Some(r) = tail.first() else {
                                return Err(w.span.error(format!(
                                    "`on` without a region name: expected {}",
                                    usage(key)
                                )));
                            };
                            pm.region = Some(r.spanned());
                            rest = &tail[1..];
                        }
                        "limit" if pm.limit.is_none() => {
                            let Some(n) = tail.first() else {
                                return Err(w.span.error(format!(
                                    "`limit` without a count: expected {}",
                                    usage(key)
                                )));
                            };
                            let res: IResult<&str, u32> = all_consuming(digits).parse(n.text);
                            let Ok((_, v)) = res else {
                                return Err(n.span.error(format!(
                                    "`{}` is not a count: expected {}",
                                    n.text,
                                    usage(key)
                                )));
                            };
                            pm.limit = Some(Spanned {
                                value: v,
                                span: n.span.clone(),
                            });
                            rest = &tail[1..];
                        }
                        "last-anywhere" if !pm.last_anywhere => pm.last_anywhere = true,
                        "no-attack" if !pm.no_attack => pm.no_attack = true,
                        _ => {
                            return Err(w.span.error(format!(
                                "unexpected `{}` in `promotion-move`: expected {} (each word once)",
                                w.text,
                                usage(key)
                            )));
                        }
                    }
                }
                s.promotion_move = Some(pm);
            }
            "royal-in-check" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("moves", false), ("takes-checker", true)];
                s.royal_takes_checker = Some(keyword(&args[0], "royal-in-check rule", &options)?);
            }
            "drop-one-per-file" => {
                count(key, key_tok, args, 1, 1)?;
                s.drop_one_per_file = Some(args[0].spanned());
            }
            "drop-no-mate" => {
                count(key, key_tok, args, 1, 1)?;
                s.drop_no_mate = Some(args[0].spanned());
            }
            "lion-trade" => {
                count(key, key_tok, args, 1, 3)?;
                let over = match args.get(1) {
                    None => None,
                    Some(t) if t.text == "over" && args.len() == 3 => Some(args[2].spanned()),
                    Some(t) => {
                        return Err(t.span.error(format!(
                            "`{}` after the lion-trade kinds: expected `over LETTERS`, e.g. `lion-trade N over PI`",
                            t.text
                        )));
                    }
                };
                s.lion_trade = Some(crate::variant::spec::LionTradeSpec {
                    kinds: args[0].spanned(),
                    over,
                });
            }
            "contagion" => {
                count(key, key_tok, args, 1, 3)?;
                let not_by = match args.get(1) {
                    None => None,
                    Some(t) if t.text == "not-by" && args.len() == 3 => Some(args[2].spanned()),
                    Some(t) => {
                        return Err(t.span.error(format!(
                            "`{}` after the contagion kinds: expected `not-by LETTERS`, e.g. `contagion W not-by K`",
                            t.text
                        )));
                    }
                };
                s.contagion = Some(crate::variant::spec::ContagionSpec {
                    kinds: args[0].spanned(),
                    not_by,
                });
            }
            "checkmate-series" => {
                count(key, key_tok, args, 1, 3)?;
                let not_by = match args.get(1) {
                    None => None,
                    Some(t) if t.text == "not-by" && args.len() == 3 => Some(args[2].spanned()),
                    Some(t) => {
                        return Err(t.span.error(format!(
                            "`{}` after the checkmate-series kinds: expected `not-by LETTERS`, e.g. `checkmate-series NRJ not-by N`",
                            t.text
                        )));
                    }
                };
                s.checkmate_series = Some(crate::variant::spec::CheckmateSeriesSpec {
                    kinds: args[0].spanned(),
                    not_by,
                });
            }
            "gating" => {
                count(key, key_tok, args, 1, 3)?;
                let (mut drops, mut pins_hold) = (false, false);
                for t in &args[1..] {
                    let word = match t.text {
                        "drops" => &mut drops,
                        "pins-hold" => &mut pins_hold,
                        _ => {
                            return Err(t.span.error(format!(
                                "`{}` after the gating kinds: expected `drops`, `pins-hold` or nothing, e.g. `gating HE drops`",
                                t.text
                            )));
                        }
                    };
                    if *word {
                        return Err(t.span.error(format!(
                            "`{}` twice after the gating kinds: expected each word once",
                            t.text
                        )));
                    }
                    *word = true;
                }
                s.gating = Some(crate::variant::spec::GatingSpec {
                    kinds: args[0].spanned(),
                    drops,
                    pins_hold,
                });
            }
            "castling-partner" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("corner", false), ("any", true)];
                s.castling_any = Some(keyword(&args[0], "castling partner", &options)?);
            }
            "start-shuffle" => s.start_shuffle = Some(shuffle(key_tok, args)?),
            "drop-promoted" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("yes", true), ("no", false)];
                s.drop_promoted = Some(keyword(&args[0], "drop-promoted rule", &options)?);
            }
            "drop-checks" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("allowed", true), ("forbidden", false)];
                s.drop_checks = Some(keyword(&args[0], "drop-checks rule", &options)?);
            }
            "must-drop" => {
                count(key, key_tok, args, 1, 1)?;
                let t = &args[0];
                if !t.text.is_empty() && t.text.chars().all(|c| c.is_ascii_uppercase()) {
                    // `must-drop LETTERS`: only while holding one of these kinds, only these.
                    s.must_drop = Some(Spanned {
                        value: true,
                        span: t.span.clone(),
                    });
                    s.must_drop_kinds = Some(t.spanned());
                } else {
                    let options = [("yes", true), ("no", false)];
                    s.must_drop = Some(keyword(t, "must-drop rule", &options)?);
                    s.must_drop_kinds = None;
                }
            }
            "drop-opposite-colours" => {
                count(key, key_tok, args, 1, 1)?;
                s.drop_opposite_colours = Some(args[0].spanned());
            }
            "drop-castling" => {
                count(key, key_tok, args, 2, 2)?;
                s.drop_castling = Some(DropCastlingSpec {
                    square: args[0].spanned(),
                    letters: args[1].spanned(),
                });
            }
            "pass" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("yes", true), ("no", false)];
                s.pass = Some(keyword(&args[0], "pass rule", &options)?);
            }
            "bikjang" => {
                count(key, key_tok, args, 1, 1)?;
                let options = [("yes", true), ("no", false)];
                s.bikjang = Some(keyword(&args[0], "bikjang rule", &options)?);
            }
            "counting" => s.counting = Some(counting(key_tok, args)?),
            "honour-count" => s.honour = Some(honour(key_tok, args)?),
            "eval" => s.eval = Some(eval(key_tok, args)?),
            _ => unreachable!("every key in KEYS has a handler"),
        }
        Ok(())
    }

    fn piece(&mut self, key_tok: &Tok, args: &[Tok]) -> Res<()> {
        count("piece", key_tok, args, 2, usize::MAX)?;
        let letter = piece_letter(&args[0]).inspect_err(|_| {
            // `piece q ...` clearly means Q: keep later checks from calling every `q` undeclared.
            if let Some((id, true)) = crate::piece::id::read_all(args[0].text)
                && !args[0].text.starts_with('+')
            {
                self.spec.broken_pieces.insert(id);
            }
        })?;
        if let Some(first) = self.letters.get(&letter.value) {
            return Err(letter.span.error(format!(
                "piece {} is declared twice (first on line {first}): expected each letter once per file",
                crate::piece::id::show(letter.value)
            )));
        }
        self.letters.insert(letter.value, letter.span.line);
        // From here on the letter is known: if the rest is broken, later checks still treat it as declared.
        let body = piece_body(key_tok, args);
        match body {
            Ok(body) => {
                self.spec.pieces.push(PieceSpec { letter, body });
                Ok(())
            }
            Err(d) => {
                self.spec.broken_pieces.insert(letter.value);
                Err(d)
            }
        }
    }
}

/// Checks the number of values; errors point at the first extra value or just after the last one.
fn count(key: &str, key_tok: &Tok, args: &[Tok], min: usize, max: usize) -> Res<()> {
    if args.len() < min {
        let at = args.last().map_or(&key_tok.span, |t| &t.span).after();
        let what = if args.is_empty() {
            "a value is missing"
        } else {
            "too few values"
        };
        return Err(at.error(format!("{what} for `{key}`: expected {}", usage(key))));
    }
    if args.len() > max {
        return Err(args[max].span.error(format!(
            "unexpected `{}` after `{key}`: expected {}",
            args[max].text,
            usage(key)
        )));
    }
    Ok(())
}

fn name(tok: &Tok, what: &str) -> Res<Spanned<String>> {
    let bad = tok
        .text
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_'));
    match bad {
        None => Ok(tok.spanned()),
        Some((i, c)) => Err(tok.span.sub(tok.text[..i].chars().count(), 1).error(format!(
            "`{c}` is not allowed in a {what}: expected lower-case letters, digits, `-` and `_` (e.g. `grant-acedrex`)"
        ))),
    }
}

/// An XBoard variant name is the engine's word, not ours: Fairy-Max's army games are named
/// `fairy/FIDE-Nutters`, so upper case and `/` are allowed besides a canonical name's characters.
fn xboard_name(tok: &Tok) -> Res<Spanned<String>> {
    let bad = tok
        .text
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '/')));
    match bad {
        None => Ok(tok.spanned()),
        Some((i, c)) => Err(tok.span.sub(tok.text[..i].chars().count(), 1).error(format!(
            "`{c}` is not allowed in an XBoard variant name: expected letters, digits, `-`, `_` and `/` (e.g. `fairy/FIDE-Nutters`)"
        ))),
    }
}

/// A piece id: one upper-case letter, optionally dressed with `'` or `!` (`A'`, `L!`), or `+` and
/// such an id for a kind that exists only as its promoted form (`+D`, `+A'`).
fn piece_letter(tok: &Tok) -> Res<Spanned<char>> {
    match crate::piece::id::read_all(tok.text) {
        Some((id, false)) => Ok(Spanned { value: id, span: tok.span.clone() }),
        Some((id, true)) if tok.text.len() == 1 => Err(tok.span.error(format!(
            "piece letter `{}` is lower case: expected the upper-case letter `{}` (FEN writes Black's pieces in lower case)",
            tok.text,
            crate::piece::id::show(id)
        ))),
        Some((id, true)) if !tok.text.starts_with('+') => Err(tok.span.error(format!(
            "piece id `{}` is lower case: expected `{}` (FEN writes Black's pieces in lower case)",
            tok.text,
            crate::piece::id::show(id)
        ))),
        _ if tok.text.starts_with('+') => Err(tok.span.error(format!(
            "`{}` is not a piece id: expected `+` and one upper-case letter (a kind that exists only promoted, e.g. `+D`)",
            tok.text
        ))),
        _ => Err(tok.span.error(format!("`{}` is not a piece letter: expected one upper-case letter A-Z, `'` or `!` after it allowed (`A'`, `L!`), or `+` and one (`+D`)", tok.text))),
    }
}

fn piece_body(key_tok: &Tok, args: &[Tok]) -> Res<Option<PieceBody>> {
    if args[1].text == "-" {
        count("piece", key_tok, args, 2, 2)?;
        return Ok(None);
    }
    count("piece", key_tok, args, 3, usize::MAX)?;
    let name = name(&args[1], "piece name")?;
    let betza = args[2].spanned();
    let mut royal = None;
    let mut value = None;
    let mut confine = None;
    let mut region_moves = None;
    let mut promotes = None;
    let mut along = None;
    let mut no_jump_over = None;
    let mut no_capture = None;
    let mut rest = args[3..].iter();
    while let Some(t) = rest.next() {
        match t.text {
            "along" if along.is_none() => {
                let (Some(r), Some(b)) = (rest.next(), rest.next()) else {
                    return Err(t.span.after().error(
                        "`along` needs a region and a Betza string: expected `along REGION BETZA`, e.g. `along palace-lines F`",
                    ));
                };
                along = Some((self::name(r, "region name")?, b.spanned()));
            }
            "no-jump-over" | "no-capture" => {
                let slot = if t.text == "no-jump-over" {
                    &mut no_jump_over
                } else {
                    &mut no_capture
                };
                if slot.is_some() {
                    return Err(t.span.error(format!(
                        "`{}` is given twice: expected each piece flag once",
                        t.text
                    )));
                }
                let Some(l) = rest.next() else {
                    return Err(t.span.after().error(format!(
                        "`{}` needs piece letters: expected `{} LETTERS`, e.g. `{} C`",
                        t.text, t.text, t.text
                    )));
                };
                *slot = Some(l.spanned());
            }
            "along" => {
                return Err(t
                    .span
                    .error("`along` is given twice: expected each piece flag once"));
            }
            "confine" if confine.is_none() => {
                let Some(r) = rest.next() else {
                    return Err(t.span.after().error(
                        "`confine` needs a region: expected `confine REGION`, e.g. `confine palace`",
                    ));
                };
                confine = Some(self::name(r, "region name")?);
            }
            "in" if region_moves.is_none() => {
                let (Some(r), Some(b)) = (rest.next(), rest.next()) else {
                    return Err(t.span.after().error(
                        "`in` needs a region and a Betza string: expected `in REGION BETZA`, e.g. `in enemy-half fsW`",
                    ));
                };
                region_moves = Some((self::name(r, "region name")?, b.spanned()));
            }
            "promotes" if promotes.is_none() => {
                let Some(l) = rest.next() else {
                    return Err(t.span.after().error(
                        "`promotes` needs a piece letter: expected `promotes LETTER`, e.g. `promotes G`",
                    ));
                };
                promotes = Some(piece_letter(l)?);
            }
            "confine" | "in" | "promotes" => {
                return Err(t.span.error(format!(
                    "`{}` is given twice: expected each piece flag once",
                    t.text
                )));
            }
            "royal" if royal.is_none() => royal = Some(t.span.clone()),
            "value" if value.is_none() => {
                let Some(v) = rest.next() else {
                    return Err(t
                        .span
                        .after()
                        .error("`value` needs a number: expected `value N`, e.g. `value 300`"));
                };
                match v.text.parse::<i32>() {
                    Ok(n) => {
                        value = Some(Spanned {
                            value: n,
                            span: v.span.clone(),
                        })
                    }
                    Err(_) => {
                        return Err(v.span.error(format!(
                            "`{}` is not a piece value: expected an integer (centipawns), e.g. `value 300`",
                            v.text
                        )));
                    }
                }
            }
            "royal" | "value" => {
                return Err(t.span.error(format!(
                    "`{}` is given twice: expected each piece flag once",
                    t.text
                )));
            }
            other => {
                return Err(t.span.error(format!(
                    "unknown piece flag `{other}`: expected `royal`, `value N`, `promotes LETTER`, `confine REGION`, `in REGION BETZA`, `along REGION BETZA`, `no-jump-over LETTERS` or `no-capture LETTERS` after the Betza string"
                )));
            }
        }
    }
    Ok(Some(PieceBody {
        name,
        betza,
        royal,
        value,
        confine,
        region_moves,
        promotes,
        along,
        no_jump_over,
        no_capture,
    }))
}

/// `eval TOKEN...`: `LETTER=MG/EG` or `TERM=PERCENT`.
fn eval(key_tok: &Tok, args: &[Tok]) -> Res<EvalSpec> {
    count("eval", key_tok, args, 1, usize::MAX)?;
    let mut spec = EvalSpec {
        material: Vec::new(),
        terms: Vec::new(),
    };
    for t in args {
        let Some((name, number)) = t.text.split_once('=') else {
            return Err(t.span.error(format!(
                "`{}` is not an evaluation parameter: expected {}",
                t.text,
                usage("eval")
            )));
        };
        let value_at = t.span.sub(name.len() + 1, number.len().max(1));
        let mut chars = name.chars();
        if let (Some(c), None) = (chars.next(), chars.next())
            && c.is_ascii_uppercase()
        {
            let parsed = number
                .split_once('/')
                .and_then(|(mg, eg)| Some((mg.parse::<i32>().ok()?, eg.parse::<i32>().ok()?)));
            let Some((mg, eg)) = parsed else {
                return Err(value_at.error(format!(
                    "`{number}` is not a piece's material: expected MG/EG, the middlegame and endgame centipawns, e.g. `{c}=310/290`"
                )));
            };
            let letter = Spanned {
                value: c,
                span: t.span.sub(0, 1),
            };
            spec.material.push((letter, mg, eg));
            continue;
        }
        if !EVAL_TERMS.contains(&name) {
            return Err(t.span.sub(0, name.len().max(1)).error(format!(
                "`{name}` is neither a piece letter nor an evaluation term: expected an upper-case letter or one of {}",
                EVAL_TERMS.join(" ")
            )));
        }
        let percent = number.parse::<i32>().map_err(|_| {
            value_at.error(format!(
                "`{number}` is not a percentage: expected an integer, 100 for the derived term, e.g. `{name}=120`"
            ))
        })?;
        spec.terms.push((
            Spanned {
                value: name.to_string(),
                span: t.span.sub(0, name.len()),
            },
            percent,
        ));
    }
    Ok(spec)
}

/// `promotion-limit LETTER=N...`: N from 0 up.
fn promotion_limit(key_tok: &Tok, args: &[Tok]) -> Res<Vec<(Spanned<char>, u32)>> {
    count("promotion-limit", key_tok, args, 1, usize::MAX)?;
    args.iter()
        .map(|t| {
            let bad = || {
                t.span.error(format!(
                    "`{}` is not a promotion limit: expected LETTER=N with an upper-case piece letter and a count, e.g. `Q=1`",
                    t.text
                ))
            };
            let (l, n) = t.text.split_once('=').ok_or_else(bad)?;
            let mut chars = l.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(bad());
            };
            if !c.is_ascii_uppercase() || n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let n = n.parse::<u32>().unwrap_or(u32::MAX);
            Ok((
                Spanned {
                    value: c,
                    span: t.span.sub(0, 1),
                },
                n,
            ))
        })
        .collect()
}

/// `honour-count [board N] [no-pawns] [from-pieces] PIECES=N...|off`.
fn honour(key_tok: &Tok, args: &[Tok]) -> Res<HonourSpec> {
    count("honour-count", key_tok, args, 1, usize::MAX)?;
    let mut h = HonourSpec {
        board: None,
        no_pawns: false,
        from_pieces: false,
        pieces: Vec::new(),
        off: false,
    };
    if args[0].text == "off" {
        count("honour-count", key_tok, args, 1, 1)?;
        h.off = true;
        return Ok(h);
    }
    let number = |t: &Tok, what: &str| -> Res<u32> {
        if t.text.is_empty() || !t.text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(t.span.error(format!(
                "`{}` is not {what}: expected a number of moves, e.g. `64`",
                t.text
            )));
        }
        Ok(t.text.parse::<u32>().unwrap_or(u32::MAX))
    };
    let mut rest = args.iter();
    while let Some(t) = rest.next() {
        match t.text {
            "board" if h.board.is_none() => {
                let Some(n) = rest.next() else {
                    return Err(t.span.after().error(
                        "`board` needs the board's honour: expected `board N`, e.g. `board 64`",
                    ));
                };
                h.board = Some(Spanned {
                    value: number(n, "a board's honour")?,
                    span: n.span.clone(),
                });
            }
            "no-pawns" if !h.no_pawns => h.no_pawns = true,
            "from-pieces" if !h.from_pieces => h.from_pieces = true,
            _ => {
                let bad = || {
                    t.span.error(format!(
                        "`{}` is not a pieces' honour: expected PIECES=N with upper-case piece letters (or `*`) and a number of moves, e.g. `RR=8`, or one of board N, no-pawns, from-pieces given once",
                        t.text
                    ))
                };
                let (l, n) = t.text.split_once('=').ok_or_else(bad)?;
                if l.is_empty() || !(l == "*" || l.chars().all(|c| c.is_ascii_uppercase())) {
                    return Err(bad());
                }
                if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(bad());
                }
                h.pieces.push((
                    Spanned {
                        value: l.to_string(),
                        span: t.span.sub(0, l.chars().count()),
                    },
                    n.parse::<u32>().unwrap_or(u32::MAX),
                ));
            }
        }
    }
    if h.board.is_none() && h.pieces.is_empty() {
        return Err(key_tok.span.after().error(format!(
            "`honour-count` counts nothing: expected {}",
            usage("honour-count")
        )));
    }
    Ok(h)
}

/// `counting LETTER=N... [bonus N]`.
fn counting(key_tok: &Tok, args: &[Tok]) -> Res<CountingSpec> {
    count("counting", key_tok, args, 1, usize::MAX)?;
    let mut points = Vec::new();
    if args[0].text == "off" {
        count("counting", key_tok, args, 1, 1)?;
        return Ok(CountingSpec { points, bonus: 0 });
    }
    let mut bonus = 0;
    let mut rest = args.iter();
    while let Some(t) = rest.next() {
        if t.text == "bonus" {
            let Some(n) = rest.next() else {
                return Err(t
                    .span
                    .after()
                    .error("`bonus` needs a number: expected `bonus N`, e.g. `bonus 1`"));
            };
            bonus = n.text.parse::<i32>().map_err(|_| {
                n.span.error(format!(
                    "`{}` is not a bonus: expected an integer number of points, e.g. `bonus 1`",
                    n.text
                ))
            })?;
            if let Some(extra) = rest.next() {
                return Err(extra.span.error(format!(
                    "`{}` after the bonus: expected {}",
                    extra.text,
                    usage("counting")
                )));
            }
            break;
        }
        let bad = || {
            t.span.error(format!(
                "`{}` is not a piece's points: expected LETTER=N with an upper-case piece letter, e.g. `R=13`",
                t.text
            ))
        };
        let (l, n) = t.text.split_once('=').ok_or_else(bad)?;
        let mut chars = l.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(bad());
        };
        if !c.is_ascii_uppercase() {
            return Err(bad());
        }
        let n = n.parse::<i32>().map_err(|_| bad())?;
        points.push((
            Spanned {
                value: c,
                span: t.span.sub(0, 1),
            },
            n,
        ));
    }
    if points.is_empty() {
        return Err(key_tok.span.after().error(format!(
            "`counting` needs the points of some piece: expected {}",
            usage("counting")
        )));
    }
    Ok(CountingSpec { points, bonus })
}

fn digits(input: &str) -> IResult<&str, u32> {
    // Saturate instead of failing: `99999999999` is then reported as out of range, which says more.
    digit1
        .map(|d: &str| d.parse::<u32>().unwrap_or(u32::MAX))
        .parse(input)
}

fn board(tok: &Tok) -> Res<BoardSpec> {
    let mut size = all_consuming(separated_pair(digit1, char('x'), digit1));
    let res: IResult<&str, (&str, &str)> = size.parse(tok.text);
    let Ok((_, (f, r))) = res else {
        return Err(tok.span.error(format!(
            "`{}` is not a board size: expected FILESxRANKS, e.g. `12x12` or `10x8`",
            tok.text
        )));
    };
    let num = |d: &str| d.parse::<u32>().unwrap_or(u32::MAX);
    Ok(BoardSpec {
        files: Spanned {
            value: num(f),
            span: tok.span.sub(0, f.len()),
        },
        ranks: Spanned {
            value: num(r),
            span: tok.span.sub(f.len() + 1, r.len()),
        },
    })
}

fn keyword<T: Copy>(tok: &Tok, what: &str, options: &[(&str, T)]) -> Res<Spanned<T>> {
    match options.iter().find(|(k, _)| *k == tok.text) {
        Some(&(_, v)) => Ok(Spanned {
            value: v,
            span: tok.span.clone(),
        }),
        None => {
            let list: Vec<&str> = options.iter().map(|(k, _)| *k).collect();
            Err(tok.span.error(format!(
                "unknown {what} `{}`: expected one of {}",
                tok.text,
                list.join(", ")
            )))
        }
    }
}

fn number_or_off(tok: &Tok, key: &str) -> Res<Spanned<Option<u32>>> {
    if tok.text == "off" {
        return Ok(Spanned {
            value: None,
            span: tok.span.clone(),
        });
    }
    let res: IResult<&str, u32> = all_consuming(digits).parse(tok.text);
    match res {
        Ok((_, n)) => Ok(Spanned {
            value: Some(n),
            span: tok.span.clone(),
        }),
        Err(_) => Err(tok.span.error(format!(
            "`{}` is not a count: expected {}",
            tok.text,
            usage(key)
        ))),
    }
}

/// `FIRST[-LAST]` after the letters of `initial-ranks`.
/// `start-shuffle LETTERS [opposite-colours LETTERS]... [between INNER OUTER]`.
fn shuffle(key_tok: &Tok, args: &[Tok]) -> Res<ShuffleSpec> {
    count("start-shuffle", key_tok, args, 1, usize::MAX)?;
    let mut spec = ShuffleSpec {
        letters: args[0].spanned(),
        colours: Vec::new(),
        between: None,
    };
    let mut rest = &args[1..];
    while let Some(word) = rest.first() {
        match (word.text, rest.get(1), rest.get(2)) {
            ("opposite-colours", Some(l), _) => {
                spec.colours.push(l.spanned());
                rest = &rest[2..];
            }
            ("between", Some(inner), Some(outer)) if spec.between.is_none() => {
                spec.between = Some((inner.spanned(), outer.spanned()));
                rest = &rest[3..];
            }
            _ => {
                return Err(word.span.error(format!(
                    "unexpected `{}` in `start-shuffle`: expected {}",
                    word.text,
                    usage("start-shuffle")
                )));
            }
        }
    }
    Ok(spec)
}

fn rank_band(letters: &Tok, band: &Tok) -> Res<InitialRanksSpec> {
    let text = band.text;
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let num = |d: &str| -> Option<u32> {
        let res: IResult<&str, u32> = all_consuming(digits).parse(d);
        res.ok().map(|(_, v)| v)
    };
    let (Some(first), Some(last)) = (num(a), num(b)) else {
        return Err(band.span.error(format!(
            "`{text}` is not a band of ranks: expected {}",
            usage("initial-ranks")
        )));
    };
    let b_at = text.len() - b.len();
    Ok(InitialRanksSpec {
        letters: letters.spanned(),
        first: Spanned {
            value: first,
            span: band.span.sub(0, a.len()),
        },
        last: Spanned {
            value: last,
            span: band.span.sub(b_at, b.len()),
        },
    })
}

fn promotion(key_tok: &Tok, args: &[Tok]) -> Res<PromotionSpec> {
    count("promotion", key_tok, args, 3, 5)?;
    let pawns = args[0].spanned();
    let mut zone = None;
    let mut target: Option<PromotionTargetSpec> = None;
    let mut i = 1;
    while i < args.len() {
        let word = &args[i];
        let Some(value) = args.get(i + 1) else {
            return Err(word.span.after().error(format!(
                "`{}` needs a value: expected {}",
                word.text,
                usage("promotion")
            )));
        };
        match word.text {
            "zone" if zone.is_none() => {
                let res: IResult<&str, u32> = all_consuming(digits).parse(value.text);
                let Ok((_, n)) = res else {
                    return Err(value.span.error(format!(
                        "`{}` is not a zone depth: expected a number of ranks counted from the far edge, e.g. `zone 1`",
                        value.text
                    )));
                };
                zone = Some(Spanned {
                    value: n,
                    span: value.span.clone(),
                });
            }
            "choice" | "by-file" if target.is_none() => {
                target = Some(if word.text == "choice" {
                    PromotionTargetSpec::Choice(value.spanned())
                } else {
                    PromotionTargetSpec::ByFile(value.spanned())
                });
            }
            "zone" => return Err(word.span.error("`zone` is given twice: expected it once")),
            "choice" | "by-file" => {
                return Err(word.span.error("a second promotion target: expected one of `choice LETTERS` or `by-file LETTERS`"));
            }
            other => {
                return Err(word.span.error(format!(
                    "unknown promotion option `{other}`: expected `zone N`, `choice LETTERS` or `by-file LETTERS`"
                )));
            }
        }
        i += 2;
    }
    let Some(target) = target else {
        return Err(args[args.len() - 1].span.after().error(
            "the promotion target is missing: expected `choice LETTERS` or `by-file LETTERS`",
        ));
    };
    Ok(PromotionSpec {
        pawns,
        zone,
        target,
    })
}

fn dice(key_tok: &Tok, args: &[Tok]) -> Res<DiceSpec> {
    count("dice", key_tok, args, 1, usize::MAX)?;
    let mut faces = Vec::new();
    let mut no_move = None;
    let mut it = args.iter();
    while let Some(t) = it.next() {
        if t.text == "no-move" {
            let Some(v) = it.next() else {
                return Err(t.span.after().error(
                    "`no-move` needs a value: expected `no-move reroll` or `no-move pass`",
                ));
            };
            if no_move.is_some() {
                return Err(t.span.error("`no-move` is given twice: expected it once"));
            }
            no_move = Some(keyword(
                v,
                "no-move rule",
                &[("reroll", DiceNoMove::Reroll), ("pass", DiceNoMove::Pass)],
            )?);
            continue;
        }
        let res: IResult<&str, (u32, char)> =
            all_consuming(separated_pair(digits, char('='), anychar)).parse(t.text);
        match res {
            Ok((_, (face, letter))) if letter.is_ascii_uppercase() => {
                let face_len = t.text.len() - 2;
                faces.push((
                    Spanned {
                        value: face,
                        span: t.span.sub(0, face_len),
                    },
                    Spanned {
                        value: letter,
                        span: t.span.sub(face_len + 1, 1),
                    },
                ));
            }
            _ => {
                return Err(t.span.error(format!(
                    "`{}` is not a die face: expected FACE=LETTER with an upper-case piece letter (e.g. `8=K`), or `no-move reroll|pass`",
                    t.text
                )));
            }
        }
    }
    if faces.is_empty() {
        return Err(key_tok
            .span
            .error("dice without faces: expected at least one FACE=LETTER, e.g. `dice 2=K 1=P`"));
    }
    Ok(DiceSpec {
        faces,
        no_move,
        key: key_tok.span.clone(),
    })
}

/// The known key closest to a misspelt one (at most two edits away).
fn suggest(word: &str) -> Option<&'static str> {
    let word: Vec<char> = word.chars().take(64).collect();
    KEYS.iter()
        .map(|k| (edit_distance(&word, &k.chars().collect::<Vec<_>>()), *k))
        .filter(|&(d, _)| d <= 2)
        .min()
        .map(|(_, k)| k)
}

fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
