//! Variant files end to end: the shipped files are valid, every broken file in `tests/bad-variants/`
//! renders the diagnostics in its snapshot, and no input at all makes the parser panic.

use acedrex::variant::{self, Diagnostic, builtin_names, check_files, parse_variant};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

/// Files under a directory of the crate, sorted, as paths relative to the crate root (so that the
/// rendered origins, and the snapshots, do not depend on where the repository lives).
fn txt_files(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
        .expect("directory exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .map(|p| Path::new(dir).join(p.file_name().expect("file name")))
        .collect();
    files.sort();
    files
}

fn shipped_texts() -> Vec<String> {
    txt_files("variants")
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("readable"))
        .collect()
}

#[test]
fn shipped_files_on_disk_are_valid_and_all_built_in() {
    let files = txt_files("variants");
    let (out, ok) = check_files(&files);
    assert!(ok, "{out}");
    for f in &files {
        let stem = f.file_stem().unwrap().to_str().unwrap();
        assert!(
            builtin_names().contains(&stem),
            "{stem} is shipped but not embedded"
        );
        // The embedded text is the file on disk (include_str!), so both give the same variant.
        let from_disk = variant::load(f.to_str().unwrap()).unwrap();
        // build.rs embeds every file under its stem: that must be the variant's canonical name.
        assert_eq!(
            from_disk.name,
            stem,
            "{} names another variant",
            f.display()
        );
        let embedded = variant::builtin(stem).unwrap();
        assert_eq!(from_disk.start.fen(), embedded.start.fen());
        assert_eq!(from_disk.pieces.len(), embedded.pieces.len());
    }
    assert_eq!(files.len(), builtin_names().len());
}

#[test]
fn the_format_header_documents_every_key() {
    for key in variant::KEYS {
        assert!(
            variant::FORMAT_HEADER.contains(&format!("#   {key} ")),
            "src/variant/format-header.txt does not document `{key}`"
        );
    }
}

/// Every shipped file opens with the format header, word for word. With `ACEDREX_BLESS=1` the test
/// writes the current header into every file instead (after a key is added, or to settle a merge).
#[test]
fn shipped_files_carry_the_format_header() {
    let bless = std::env::var_os("ACEDREX_BLESS").is_some();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (f, text) in txt_files("variants").iter().zip(shipped_texts()) {
        if text.starts_with(variant::FORMAT_HEADER) {
            continue;
        }
        assert!(
            bless,
            "{} does not open with src/variant/format-header.txt (ACEDREX_BLESS=1 rewrites it)",
            f.display()
        );
        // The old header is every line up to and including the one that ends it.
        let end_marker = variant::FORMAT_HEADER
            .lines()
            .last()
            .expect("header has lines");
        let body = match text.find(end_marker) {
            Some(at) => &text[at + end_marker.len()..],
            None => text.as_str(),
        };
        let body = body.strip_prefix('\n').unwrap_or(body);
        std::fs::write(root.join(f), format!("{}{body}", variant::FORMAT_HEADER))
            .expect("writable");
    }
}

#[test]
fn check_prints_a_summary_per_file() {
    let (out, ok) = check_files(&[
        PathBuf::from("variants/chess.txt"),
        PathBuf::from("variants/grant-acedrex.txt"),
    ]);
    assert!(ok);
    assert_eq!(
        out,
        "variants/chess.txt: ok (6 pieces, 8x8)\nvariants/grant-acedrex.txt: ok (8 pieces, 12x12)\n"
    );
    let (out, ok) = check_files(&[
        PathBuf::from("variants/chess.txt"),
        PathBuf::from("tests/bad-variants/no-such-file.txt"),
    ]);
    assert!(!ok);
    assert!(out.ends_with("tests/bad-variants/no-such-file.txt: cannot read: No such file or directory (os error 2)\n"), "{out}");
}

#[test]
fn bad_variants_snapshots() {
    let files = txt_files("tests/bad-variants");
    assert!(files.len() >= 12);
    for path in files {
        let (out, ok) = check_files(std::slice::from_ref(&path));
        assert!(!ok, "{} should be rejected", path.display());
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let input = std::fs::read_to_string(&path).unwrap();
        insta::with_settings!({ description => input, omit_expression => true }, {
            insta::assert_snapshot!(name, out);
        });
    }
}

fn assert_well_formed(diags: &[Diagnostic], text: &str) {
    assert!(!diags.is_empty(), "an error result without diagnostics");
    // Lines of this file; other origins are built-in parents.
    let lines = text.split('\n').count();
    for d in diags {
        assert!(d.line >= 1 && d.col >= 1 && d.width >= 1, "{d:?}");
        if d.origin == "fuzz" {
            assert!(
                d.line <= lines,
                "line {} past the end ({lines} lines): {d:?}",
                d.line
            );
        }
        let shown = d.to_string();
        assert!(
            shown.starts_with(&format!("{}:{}:{}: ", d.origin, d.line, d.col)),
            "{shown}"
        );
    }
}

/// Edits that keep most of a file intact, so the parser gets deep into it before something breaks.
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, String),
    Replace(usize, char),
    SwapLines(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let snippet = prop_oneof![
        "[ -~]{0,6}",
        Just("\n".to_string()),
        Just("#".to_string()),
        Just("x".to_string()),
        Just("99999999999".to_string()),
        Just("é\t".to_string()),
        Just("piece Q -\n".to_string()),
        Just("inherit chess\n".to_string()),
        Just("inherit grant-acedrex\n".to_string()),
    ];
    prop_oneof![
        (any::<usize>(), 1usize..8).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), snippet).prop_map(|(a, s)| Edit::Insert(a, s)),
        (any::<usize>(), any::<char>()).prop_map(|(a, c)| Edit::Replace(a, c)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapLines(a, b)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let n = chars.len().max(1);
        match e {
            Edit::Delete(a, k) => {
                let a = a % n;
                let end = (a + k).min(chars.len());
                if a < end {
                    chars.drain(a..end);
                }
            }
            Edit::Insert(a, s) => {
                let a = a % (chars.len() + 1);
                chars.splice(a..a, s.chars());
            }
            Edit::Replace(a, c) => {
                if !chars.is_empty() {
                    chars[a % n] = *c;
                }
            }
            Edit::SwapLines(a, b) => {
                let s: String = chars.iter().collect();
                let mut lines: Vec<&str> = s.split('\n').collect();
                let len = lines.len();
                lines.swap(a % len, b % len);
                chars = lines.join("\n").chars().collect();
            }
        }
    }
    chars.into_iter().collect()
}

proptest! {
    // 2000 cases by default; PROPTEST_CASES=100000 for a longer hunt.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(2000)
    ))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC*") {
        if let Err(d) = parse_variant("fuzz", &text) {
            assert_well_formed(&d, &text);
        }
    }

    #[test]
    fn line_shaped_text_never_panics(lines in prop::collection::vec(
        (prop::sample::select(variant::KEYS.to_vec()), "[ -~\t]{0,30}"), 0..12)
    ) {
        let text: String = lines.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
        if let Err(d) = parse_variant("fuzz", &text) {
            assert_well_formed(&d, &text);
        }
    }

    #[test]
    fn mutated_shipped_files_never_panic(file in 0usize..64, edits in prop::collection::vec(edit(), 1..6)) {
        let texts = shipped_texts();
        let text = apply(&texts[file % texts.len()], &edits);
        if let Err(d) = parse_variant("fuzz", &text) {
            assert_well_formed(&d, &text);
        }
    }
}
