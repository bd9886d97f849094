//! SVG diagrams: movement diagrams of Grant Acedrex's pieces and positions, as text snapshots.
//! (The PNG renderings were looked at by eye; the snapshots keep them from drifting unnoticed.)

use acedrex::diagram::{DiagramError, DiagramOptions, Subject, diagram};

fn svg(subject: Subject) -> String {
    diagram(&DiagramOptions {
        subject,
        ..DiagramOptions::default()
    })
    .expect("diagram")
}

#[test]
fn aanca_bent_paths() {
    let s = svg(Subject::Piece('A'));
    // Eight bent paths: a diagonal step, then a rook ride to the edge, each with an arrowhead.
    assert_eq!(s.matches("<polyline").count(), 8);
    insta::assert_snapshot!("aanca", s);
}

#[test]
fn unicorn_bent_paths() {
    let s = svg(Subject::Piece('U'));
    assert_eq!(s.matches("<polyline").count(), 8);
    insta::assert_snapshot!("unicorn", s);
}

#[test]
fn king_first_move_leaps() {
    let s = svg(Subject::Piece('K'));
    // Eight ordinary steps (filled discs) and eight first-move leaps (blue rings), no path lines.
    assert_eq!(
        s.matches(r##"r="10" fill="#2e7d32""##).count(),
        8 + 1,
        "eight marks and one in the legend"
    );
    assert_eq!(s.matches(r##"stroke="#1565c0""##).count(), 8 + 1);
    assert!(!s.contains("<polyline"));
    insta::assert_snapshot!("king", s);
}

#[test]
fn pawn_moves_and_captures_differ() {
    let s = svg(Subject::Piece('P'));
    assert!(s.contains("moves only, no capture") && s.contains("captures only"));
    insta::assert_snapshot!("pawn", s);
}

#[test]
fn betza_string_on_a_small_board() {
    let opts = DiagramOptions {
        subject: Subject::Betza("t[NB]".into()),
        board: Some((8, 8)),
        at: Some("c3".into()),
        ..DiagramOptions::default()
    };
    let s = diagram(&opts).expect("diagram");
    assert!(s.contains(r#"width="356""#), "8 files: 24 + 8*40 + 12");
    insta::assert_snapshot!("betza_unicorn_8x8", s);
}

#[test]
fn start_position() {
    let s = svg(Subject::Start);
    // 48 pieces: 24 white discs, 24 black ones.
    assert_eq!(s.matches(r##"r="16" fill="#ffffff""##).count(), 24);
    assert_eq!(s.matches(r##"r="16" fill="#000000""##).count(), 24);
    insta::assert_snapshot!("start", s);
}

#[test]
fn position_after_moves_tints_the_last_move() {
    let s = svg(Subject::Moves("g1g3 f12h11 c4c5 h11g10 f1h2".into()));
    assert_eq!(s.matches("#f6f669").count(), 2);
    insta::assert_snapshot!("after_moves", s);
}

#[test]
fn fen_with_check() {
    // White's rook gives check along the g-file.
    let fen = "6k5/12/12/12/12/12/12/12/12/12/12/6R4K w - - 0 1";
    let s = svg(Subject::Fen(fen.replace(" w ", " b ")));
    assert!(s.contains(r##"fill="#c62828" fill-opacity="0.8""##), "{s}");
}

#[test]
fn errors_are_clear() {
    let e = diagram(&DiagramOptions {
        subject: Subject::Piece('Q'),
        ..DiagramOptions::default()
    })
    .unwrap_err();
    assert!(matches!(e, DiagramError::NoSuchPiece { .. }), "{e}");
    assert!(e.to_string().contains("no piece `Q`"), "{e}");
    let e = diagram(&DiagramOptions {
        subject: Subject::Betza("t[F".into()),
        ..DiagramOptions::default()
    })
    .unwrap_err();
    assert!(e.to_string().starts_with("t[F"), "{e}");
    let e = diagram(&DiagramOptions {
        subject: Subject::Moves("g1g3 a4a6".into()),
        ..DiagramOptions::default()
    })
    .unwrap_err();
    assert!(matches!(e, DiagramError::Move { index: 2, .. }), "{e}");
}

/// The README shows docs/aanca.svg; it must be what `acedrex diagram --piece A` draws today.
#[test]
fn readme_picture_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/aanca.svg");
    let fresh = svg(Subject::Piece('A'));
    if std::env::var_os("ACEDREX_UPDATE_DOCS").is_some() {
        std::fs::write(path, &fresh).expect("write docs/aanca.svg");
    }
    let saved = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        saved == fresh,
        "docs/aanca.svg is stale: run `acedrex diagram --piece A -o docs/aanca.svg` (or this test with ACEDREX_UPDATE_DOCS=1)"
    );
}

#[test]
fn lion_dog_paths_run_three_steps_in_every_direction() {
    let opts = DiagramOptions {
        subject: Subject::Betza("KADcavKmcpafmcpavK".into()),
        board: Some((9, 9)),
        at: Some("e5".into()),
        ..DiagramOptions::default()
    };
    let s = diagram(&opts).expect("diagram");
    // On an empty board each direction's three-leg path is drawn (out three squares, and out two
    // and back one); the take-and-return paths need a piece to take and are not.
    assert_eq!(s.matches("<polyline").count(), 16, "{s}");
    insta::assert_snapshot!("betza_lion_dog_9x9", s);
}
