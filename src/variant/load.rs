//! Inheritance, the built-in variants, and loading/checking files.

use super::diag::{Diagnostic, render};
use super::model::Variant;
use super::parse::parse_spec;
use super::spec::VariantSpec;
use super::validate::validate;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The shipped variant files (every `variants/*.txt`, listed by build.rs), embedded so the binary
/// needs no data directory. Canonical names in the order `builtin_names` lists them.
const BUILTINS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/builtins.rs"));

/// How deep `inherit` may nest; a longer chain is surely a cycle through differently named files.
const MAX_DEPTH: usize = 16;

/// Canonical names of the built-in variants, Grant Acedrex first.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTINS.iter().map(|(n, _)| *n).collect()
}

/// The file name a built-in's diagnostics are reported under (its place in the repository).
fn builtin_origin(name: &str) -> String {
    format!("variants/{name}.txt")
}

/// A built-in's canonical name and text, found by name, alias or XBoard name (in that order, so a
/// canonical name always wins). Reads the texts, not the cache, so that building the cache can
/// resolve `inherit` through here.
fn builtin_source(name: &str) -> Option<(&'static str, &'static str)> {
    let find = |names: &dyn Fn(&str) -> bool| BUILTINS.iter().find(|(_, text)| names(text));
    BUILTINS
        .iter()
        .find(|(n, _)| *n == name)
        .or_else(|| {
            find(&|text| {
                parse_spec("", text)
                    .0
                    .aliases
                    .iter()
                    .any(|a| a.value == name)
            })
        })
        .or_else(|| {
            find(&|text| {
                parse_spec("", text)
                    .0
                    .xboard
                    .is_some_and(|x| x.name.value == name)
            })
        })
        .copied()
}

/// A built-in variant by canonical name, alias or XBoard name.
pub fn builtin(name: &str) -> Option<Variant> {
    static CACHE: OnceLock<Vec<Option<Variant>>> = OnceLock::new();
    let (canonical, _) = builtin_source(name)?;
    let cache = CACHE.get_or_init(|| {
        BUILTINS
            .iter()
            .map(|(n, text)| {
                resolve_and_validate(&builtin_origin(n), text, None, &mut vec![builtin_key(n)]).ok()
            })
            .collect()
    });
    let i = BUILTINS.iter().position(|(n, _)| *n == canonical)?;
    cache[i].clone()
}

/// Parses and validates one variant file. `origin` names it in messages; when it is the path of an
/// existing file, `inherit NAME` first looks for `NAME.txt` in the same directory, then among the
/// built-ins. Returns every problem found, sorted by place.
pub fn parse_variant(origin: &str, text: &str) -> Result<Variant, Vec<Diagnostic>> {
    let path = Path::new(origin);
    let dir = path
        .is_file()
        .then(|| path.parent().unwrap_or(Path::new("")).to_path_buf());
    let key = if dir.is_some() {
        file_key(path)
    } else {
        format!("text:{origin}")
    };
    resolve_and_validate(origin, text, dir.as_deref(), &mut vec![key])
}

fn resolve_and_validate(
    origin: &str,
    text: &str,
    dir: Option<&Path>,
    chain: &mut Vec<String>,
) -> Result<Variant, Vec<Diagnostic>> {
    let (spec, mut diags) = resolve(origin, text, dir, chain);
    if let Some(spec) = spec {
        match validate(&spec) {
            Ok(v) if diags.is_empty() => return Ok(v),
            Ok(_) => {}
            Err(mut e) => {
                // A problem on an inherited line is this file's doing (say, a removed piece), not the parent's.
                let name = spec
                    .name
                    .as_ref()
                    .map_or("this variant", |n| n.value.as_str());
                for d in e.iter_mut().filter(|d| d.origin != origin) {
                    d.message = format!("inherited by `{name}`: {}", d.message);
                }
                diags.extend(e);
            }
        }
    }
    // A parent's problems (other files, as found) first, then this file's in reading order.
    diags.sort_by_key(|d| {
        let own = d.origin == origin;
        (own, if own { (d.line, d.col) } else { (0, 0) })
    });
    Err(diags)
}

fn builtin_key(name: &str) -> String {
    format!("builtin:{name}")
}

fn file_key(path: &Path) -> String {
    let p = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    format!("file:{}", p.display())
}

/// Parses a file and merges it onto its parent chain. `None` when the spec cannot be validated
/// (its parent is missing or broken); the reasons are in the diagnostics.
fn resolve(
    origin: &str,
    text: &str,
    dir: Option<&Path>,
    chain: &mut Vec<String>,
) -> (Option<VariantSpec>, Vec<Diagnostic>) {
    let (spec, mut diags) = parse_spec(origin, text);
    let Some(inherit) = spec.inherit.clone() else {
        return (Some(spec), diags);
    };
    let parent = &inherit.value;

    let sibling = dir
        .map(|d| d.join(format!("{parent}.txt")))
        .filter(|p| p.is_file());
    let (p_origin, p_text, p_dir, key) = if let Some(path) = sibling {
        match fs::read_to_string(&path) {
            Ok(t) => (path.display().to_string(), t, dir, file_key(&path)),
            Err(e) => {
                diags.push(inherit.span.error(format!(
                    "cannot read the parent file {}: {e}",
                    path.display()
                )));
                return (None, diags);
            }
        }
    } else if let Some((canonical, t)) = builtin_source(parent) {
        (
            builtin_origin(canonical),
            t.to_string(),
            None,
            builtin_key(canonical),
        )
    } else {
        let here = if dir.is_some() {
            format!(" or a file {parent}.txt beside this one")
        } else {
            String::new()
        };
        diags.push(inherit.span.error(format!(
            "unknown parent variant `{parent}`: expected a built-in variant{}{here}",
            suggest(parent)
        )));
        return (None, diags);
    };
    if chain.contains(&key) || chain.len() >= MAX_DEPTH {
        diags.push(inherit.span.error(format!(
            "inheritance cycle: `{parent}` leads back to this variant: expected a chain of parents that ends in a variant without `inherit`"
        )));
        return (None, diags);
    }

    chain.push(key);
    let (parent_spec, parent_diags) = resolve(&p_origin, &p_text, p_dir, chain);
    chain.pop();
    let parent_errors = match &parent_spec {
        Some(ps) if parent_diags.is_empty() => validate(ps).err().unwrap_or_default(),
        _ => parent_diags,
    };
    if !parent_errors.is_empty() {
        diags.extend(parent_errors);
        diags.push(inherit.span.error(format!("parent variant `{parent}` ({p_origin}) has errors (shown above): expected a valid parent")));
        return (None, diags);
    }
    let Some(parent_spec) = parent_spec else {
        return (None, diags);
    };
    let merged = merge(parent_spec, spec, &mut diags);
    (Some(merged), diags)
}

/// The child's statements override the parent's; `piece X` replaces or adds one piece, `piece X -`
/// removes one. Names, aliases, XBoard names and `eval` (tuned for one game) belong to the child
/// alone.
fn merge(parent: VariantSpec, child: VariantSpec, diags: &mut Vec<Diagnostic>) -> VariantSpec {
    let parent_name = parent
        .name
        .as_ref()
        .map_or(String::new(), |n| n.value.clone());
    let mut pieces = parent.pieces;
    for p in child.pieces {
        let at = pieces.iter().position(|q| q.letter.value == p.letter.value);
        match (at, p.body.is_some()) {
            (Some(i), true) => pieces[i] = p,
            (None, true) => pieces.push(p),
            (Some(i), false) => {
                pieces.remove(i);
            }
            (None, false) => diags.push(p.letter.span.error(format!(
                "`piece {} -` removes nothing: the parent `{parent_name}` has no piece {}; expected a letter it declares",
                p.letter.value, p.letter.value
            ))),
        }
    }
    // A child's region replaces the parent's of the same name; new names come after.
    let mut regions = parent.regions;
    for r in child.regions {
        match regions.iter().position(|q| q.name.value == r.name.value) {
            Some(i) => regions[i] = r,
            None => regions.push(r),
        }
    }
    VariantSpec {
        source: child.source,
        name: child.name,
        inherit: None,
        aliases: child.aliases,
        xboard: child.xboard,
        description: child.description.or(parent.description),
        board: child.board.or(parent.board),
        regions,
        facing_royals: child.facing_royals.or(parent.facing_royals),
        pieces,
        start: child.start.or(parent.start),
        promotion: child.promotion.or(parent.promotion),
        promotion_optional: child.promotion_optional.or(parent.promotion_optional),
        promotion_limit: child.promotion_limit.or(parent.promotion_limit),
        castling_through_check: child
            .castling_through_check
            .or(parent.castling_through_check),
        royal_initial_moves_safe: child
            .royal_initial_moves_safe
            .or(parent.royal_initial_moves_safe),
        stalemate: child.stalemate.or(parent.stalemate),
        checkmate: child.checkmate.or(parent.checkmate),
        bare_king: child.bare_king.or(parent.bare_king),
        repetition_forbidden: if child.repetition.is_some() {
            child.repetition_forbidden
        } else {
            parent.repetition_forbidden
        },
        repetition: child.repetition.or(parent.repetition),
        move_count: child.move_count.or(parent.move_count),
        dice: child.dice.or(parent.dice),
        royal_loss: child.royal_loss.or(parent.royal_loss),
        extinction: child.extinction.or(parent.extinction),
        goal: child.goal.or(parent.goal),
        checks_to_win: child.checks_to_win.or(parent.checks_to_win),
        giving_check: child.giving_check.or(parent.giving_check),
        captures_to_hand: child.captures_to_hand.or(parent.captures_to_hand),
        demote: child.demote.or(parent.demote),
        drop_ranks: child.drop_ranks.or(parent.drop_ranks),
        must_capture: child.must_capture.or(parent.must_capture),
        extinction_result: child.extinction_result.or(parent.extinction_result),
        initial_ranks: child.initial_ranks.or(parent.initial_ranks),
        piece_promotion: child.piece_promotion.or(parent.piece_promotion),
        drop_promoted: child.drop_promoted.or(parent.drop_promoted),
        drop_checks: child.drop_checks.or(parent.drop_checks),
        must_drop_kinds: if child.must_drop.is_some() {
            child.must_drop_kinds
        } else {
            parent.must_drop_kinds
        },
        must_drop: child.must_drop.or(parent.must_drop),
        drop_opposite_colours: child.drop_opposite_colours.or(parent.drop_opposite_colours),
        drop_castling: child.drop_castling.or(parent.drop_castling),
        immobile_forbidden: child.immobile_forbidden.or(parent.immobile_forbidden),
        drop_one_per_file: child.drop_one_per_file.or(parent.drop_one_per_file),
        drop_no_mate: child.drop_no_mate.or(parent.drop_no_mate),
        lion_trade: child.lion_trade.or(parent.lion_trade),
        checkmate_series: child.checkmate_series.or(parent.checkmate_series),
        contagion: child.contagion.or(parent.contagion),
        rights_by_file: child.rights_by_file.or(parent.rights_by_file),
        promotion_move: child.promotion_move.or(parent.promotion_move),
        royal_takes_checker: child.royal_takes_checker.or(parent.royal_takes_checker),
        gating: child.gating.or(parent.gating),
        castling_any: child.castling_any.or(parent.castling_any),
        castling_rook: child.castling_rook.or(parent.castling_rook),
        castling_files: child.castling_files.or(parent.castling_files),
        start_shuffle: child.start_shuffle.or(parent.start_shuffle),
        pass: child.pass.or(parent.pass),
        bikjang: child.bikjang.or(parent.bikjang),
        counting: child.counting.or(parent.counting),
        honour: child.honour.or(parent.honour),
        // Tuned for the games of one variant: a child's differ, so it starts from the defaults.
        eval: child.eval,
        broken_keys: child.broken_keys,
        broken_pieces: child.broken_pieces,
    }
}

/// Why [`load`] found no variant.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {error}")]
    Read { path: String, error: std::io::Error },
    /// The file is not a valid variant: every diagnostic, rendered with its source lines.
    #[error("{}", render(.0))]
    Invalid(Vec<Diagnostic>),
    #[error("unknown variant {name}{}", suggest(.name))]
    Unknown { name: String },
}

/// A built-in name, alias or XBoard name, else the path of a variant file.
pub fn load(name_or_path: &str) -> Result<Variant, LoadError> {
    if let Some(v) = builtin(name_or_path) {
        return Ok(v);
    }
    let path = Path::new(name_or_path);
    if path.is_file() {
        let text = fs::read_to_string(path).map_err(|error| LoadError::Read {
            path: name_or_path.to_string(),
            error,
        })?;
        return parse_variant(name_or_path, &text).map_err(LoadError::Invalid);
    }
    Err(LoadError::Unknown {
        name: name_or_path.to_string(),
    })
}

/// The text [`load`] reads for a name or path: a built-in's embedded file, else the file's.
pub fn source_text(name_or_path: &str) -> Result<String, LoadError> {
    if let Some((_, text)) = builtin_source(name_or_path) {
        return Ok(text.to_string());
    }
    fs::read_to_string(name_or_path).map_err(|error| LoadError::Read {
        path: name_or_path.to_string(),
        error,
    })
}

/// The built-in names closest to a mistyped one, for a message: ` (did you mean `a` or `b`?
/// `acedrex variants` lists them all)`.
fn suggest(wrong: &str) -> String {
    let names = builtin_names();
    let mut close: Vec<(f64, &str)> = names
        .iter()
        .map(|n| (strsim::normalized_damerau_levenshtein(wrong, n), *n))
        .filter(|(score, _)| *score >= 0.6)
        .collect();
    close.sort_by(|a, b| b.0.total_cmp(&a.0));
    let close: Vec<String> = close
        .iter()
        .take(3)
        .map(|(_, n)| format!("`{n}`"))
        .collect();
    let all = "`acedrex variants` lists them all";
    match close.len() {
        0 => format!(" ({all})"),
        _ => format!(" (did you mean {}? {all})", close.join(" or ")),
    }
}

/// What `acedrex check FILE...` prints: every diagnostic of every file, then one summary line per
/// file; and whether all files are valid.
pub fn check_files(paths: &[PathBuf]) -> (String, bool) {
    let mut diags: Vec<String> = Vec::new();
    let mut summary = String::new();
    let mut all_ok = true;
    for path in paths {
        let shown = path.display().to_string();
        let text = match fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                all_ok = false;
                summary.push_str(&format!("{shown}: cannot read: {e}\n"));
                continue;
            }
        };
        match parse_variant(&shown, &text) {
            Ok(v) => summary.push_str(&format!(
                "{shown}: ok ({} pieces, {}x{})\n",
                v.pieces.len(),
                v.files,
                v.ranks
            )),
            Err(d) => {
                all_ok = false;
                let n = d.len();
                diags.extend(d.iter().map(Diagnostic::to_string));
                summary.push_str(&format!(
                    "{shown}: {n} error{}\n",
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
    }
    let mut out = String::new();
    for d in diags {
        out.push_str(&d);
        out.push_str("\n\n");
    }
    out.push_str(&summary);
    (out, all_ok)
}
