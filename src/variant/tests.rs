use super::*;

fn parse(text: &str) -> Result<Variant, Vec<Diagnostic>> {
    parse_variant("t.txt", text)
}

fn errors(text: &str) -> Vec<Diagnostic> {
    parse(text).expect_err("should be rejected")
}

const MINIMAL: &str = "variant tiny\nboard 3x3\npiece K king K royal\nstart k2/3/2K w - - 0 1\n";

#[test]
fn every_builtin_is_valid() {
    let names = builtin_names();
    assert_eq!(names[0], "grant-acedrex");
    for name in names {
        let v = builtin(name).unwrap_or_else(|| panic!("built-in {name} does not validate"));
        assert_eq!(v.name, name);
        // A royal kind (two where the kings castle differently: fmax-janus, the Clobberers), or an
        // extinction rule that decides the game without one.
        let royals = v.pieces.iter().filter(|p| p.royal).count();
        assert!(
            (1..=2).contains(&royals) || v.end.extinction.is_some(),
            "{name}"
        );
    }
}

#[test]
fn builtins_answer_to_aliases() {
    assert_eq!(builtin("grande-acedrex").unwrap().name, "grant-acedrex");
    assert_eq!(builtin("fide").unwrap().name, "chess");
    assert!(builtin("no-such-variant").is_none());
}

#[test]
fn grant_acedrex_is_the_documented_game() {
    let v = builtin("grant-acedrex").unwrap();
    assert_eq!((v.files, v.ranks), (12, 12));
    assert_eq!(v.xboard_name, "grande-acedrex");
    assert_eq!(v.xboard_parent, "shatranj");
    assert_eq!(v.aliases, ["grande-acedrex"]);
    let letters: String = v.pieces.iter().map(|p| p.letter).collect();
    assert_eq!(letters, "KAURLCGP");
    let betza: Vec<&str> = v.pieces.iter().map(|p| p.betza_text.as_str()).collect();
    assert_eq!(
        betza,
        ["KimAimD", "t[FR]", "t[NB]", "R", "HC", "B", "Z", "mfWcfF"]
    );
    assert_eq!(
        v.start.fen(),
        "rlugcakcgulr/12/12/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/12/12/RLUGCAKCGULR w Kk - 0 1"
    );
    assert_eq!(
        v.promotion.to,
        PromotionTarget::ByFile("RLUGCAACGULR".chars().collect())
    );
    assert_eq!(v.end.stalemated, Outcome::Loss);
    assert_eq!(v.end.bare_king, BareKing::BareBack);
    assert!(!v.royal_initial_moves_safe);
    assert!(v.dice.is_none());
}

#[test]
fn inheritance_overrides_only_what_the_child_states() {
    let parent = builtin("grant-acedrex").unwrap();
    let cazaux = builtin("grant-acedrex-cazaux").unwrap();
    assert!(cazaux.royal_initial_moves_safe);
    assert_eq!(cazaux.pieces.len(), parent.pieces.len());
    // A replaced piece keeps its place (its type number).
    let p = cazaux.piece_index('P').unwrap();
    assert_eq!(p, parent.piece_index('P').unwrap());
    assert_eq!(cazaux.pieces[p].betza_text, "mfWcfFifmnD");
    assert_eq!(cazaux.start.fen(), parent.start.fen());
    assert_eq!(cazaux.promotion, parent.promotion);
    assert_eq!(cazaux.end, parent.end);
    // Names are the child's own.
    assert!(cazaux.aliases.is_empty());
    assert_eq!(cazaux.xboard_name, "grant-acedrex-cazaux");
    assert_eq!(
        cazaux.xboard_parent, "shatranj",
        "stated by the child itself"
    );

    let murray = builtin("grant-acedrex-murray").unwrap();
    assert_eq!(
        murray.pieces[murray.piece_index('L').unwrap()].betza_text,
        "H"
    );
    assert_eq!(
        murray.pieces[murray.piece_index('G').unwrap()].betza_text,
        "(4,1)"
    );
    assert_eq!(
        murray.pieces[murray.piece_index('U').unwrap()].betza_text,
        "t[NB]"
    );
    assert!(murray.start.fen().ends_with("/RLUGCKACGULR w Kk - 0 1"));

    let capa = builtin("capablanca").unwrap();
    let letters: String = capa.pieces.iter().map(|p| p.letter).collect();
    assert_eq!(letters, "KQRBNPAC");
    assert_eq!(capa.pieces[0].betza_text, "KisO3");
    assert_eq!((capa.files, capa.ranks), (10, 8));
    assert_eq!(
        capa.promotion.to,
        PromotionTarget::Choice("QRBNAC".chars().collect())
    );
}

#[test]
fn fairy_stockfish_letters_and_start_positions() {
    let fen = |n: &str| builtin(n).unwrap().start.fen();
    assert_eq!(
        fen("shatranj"),
        "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1"
    );
    assert_eq!(
        fen("courier"),
        "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1"
    );
    assert_eq!(
        fen("makruk"),
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
    );
    let makruk = builtin("makruk").unwrap();
    assert_eq!(makruk.promotion.zone, 3);
    assert_eq!(makruk.end.stalemated, Outcome::Draw);
}

#[test]
fn defaults_when_keys_are_absent() {
    let v = parse(MINIMAL).unwrap();
    assert_eq!(v.xboard_name, "tiny");
    assert_eq!(v.xboard_parent, "fairy");
    assert_eq!(v.description, "");
    assert_eq!(
        v.promotion,
        Promotion {
            pawns: vec![],
            zone: 1,
            to: PromotionTarget::Choice(vec![]),
            optional: false,
            limit: Vec::new(),
        }
    );
    assert!(!v.castling.through_check);
    assert!(!v.royal_initial_moves_safe);
    assert_eq!(
        v.end,
        EndRules {
            stalemated: Outcome::Draw,
            bare_king: BareKing::Off,
            repetition: Some(3),
            move_count: Some(100),
            ..EndRules::default()
        }
    );
    assert!(v.dice.is_none());
}

#[test]
fn every_key_parses() {
    let text = "variant full  # a comment\n\
        alias f1 f2\n\
        xboard fullx normal\n\
        description A   test  variant\n\
        board 3x4\n\
        piece K king K royal value 0\n\
        piece P pawn fmWfcF value -5\n\
        start k2/3/P2/2K w - - 12 30\r\n\
        promotion P zone 2 choice K\n\
        castling through-check yes\n\
        royal-initial-moves safe\n\
        stalemate stalemated-wins\n\
        bare-king immediate\n\
        repetition off\n\
        move-count 50\n\
        dice 2=K 1=P no-move pass\n";
    let v = parse(text).unwrap();
    assert_eq!(v.aliases, ["f1", "f2"]);
    assert_eq!(
        (v.xboard_name.as_str(), v.xboard_parent.as_str()),
        ("fullx", "normal")
    );
    assert_eq!(v.description, "A   test  variant");
    assert_eq!(v.pieces[1].value, Some(-5));
    assert_eq!(v.start.fen(), "k2/3/P2/2K w - - 12 30");
    assert_eq!(v.promotion.zone, 2);
    assert!(v.castling.through_check && v.royal_initial_moves_safe);
    assert_eq!(
        v.end,
        EndRules {
            stalemated: Outcome::Win,
            bare_king: BareKing::Immediate,
            repetition: None,
            move_count: Some(50),
            ..EndRules::default()
        }
    );
    assert_eq!(
        v.dice,
        Some(Dice {
            faces: vec![(2, 'K'), (1, 'P')],
            no_move: DiceNoMove::Pass
        })
    );
}

#[test]
fn betza_errors_point_inside_the_string() {
    let text = MINIMAL.replace("piece K king K royal", "piece K king  KimAimX royal");
    let d = errors(&text);
    assert_eq!(d.len(), 1, "{}", render(&d));
    // `X` is the 7th character of the Betza string, which starts at column 15.
    assert_eq!((d[0].line, d[0].col), (3, 21));
    assert!(
        d[0].message.contains("unknown atom `X`"),
        "{}",
        d[0].message
    );
}

#[test]
fn columns_count_characters_not_bytes() {
    let text = MINIMAL.replace("piece K king K royal", "piece K king K royal  value ééé");
    let d = errors(&text);
    assert_eq!((d[0].line, d[0].col, d[0].width), (3, 29, 3));
}

#[test]
fn all_errors_are_collected_in_order() {
    let text =
        "variant x\nboard 3x3\nfoo\npiece K king K\nstart k2/4/2K w - - 0 1\nstalemate maybe\n";
    let d = errors(text);
    let at: Vec<(usize, usize)> = d.iter().map(|d| (d.line, d.col)).collect();
    // unknown key, no royal (at the variant line), FEN rank width, stalemate value.
    assert_eq!(at, [(1, 1), (3, 1), (5, 10), (6, 11)], "{}", render(&d));
}

#[test]
fn diagnostic_renders_with_line_and_caret() {
    let d = errors("variant x\nboard 3x3\n\tstalemate  nope\n")
        .into_iter()
        .find(|d| d.line == 3)
        .unwrap();
    assert_eq!(
        d.to_string(),
        "t.txt:3:13: unknown stalemate rule `nope`: expected one of stalemated-loses, draw, stalemated-wins, fewer-pieces-wins\n \
         3 | \tstalemate  nope\n   | \t           ^^^^"
    );
}

#[test]
fn empty_and_odd_inputs_are_errors_not_panics() {
    for text in [
        "",
        "\n\n",
        "#only a comment",
        "\u{feff}variant x",
        "piece",
        "piece K",
        "start",
        "dice",
        "board x",
    ] {
        let d = errors(text);
        assert!(d.iter().all(|d| d.line >= 1 && d.col >= 1), "{text:?}");
    }
}

#[test]
fn inherit_from_a_sibling_file_before_builtins() {
    let dir = std::env::temp_dir().join(format!("acedrex-variant-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A sibling named like a built-in wins over the built-in.
    std::fs::write(dir.join("chess.txt"), MINIMAL.replace("tiny", "chess")).unwrap();
    let child = dir.join("child.txt");
    std::fs::write(
        &child,
        "variant child\ninherit chess\nstalemate stalemated-loses\n",
    )
    .unwrap();
    let v = load(child.to_str().unwrap()).unwrap();
    assert_eq!((v.files, v.ranks), (3, 3));
    assert_eq!(v.end.stalemated, Outcome::Loss);
    // Without the sibling the built-in is used.
    std::fs::remove_file(dir.join("chess.txt")).unwrap();
    let v = load(child.to_str().unwrap()).unwrap();
    assert_eq!((v.files, v.ranks), (8, 8));
    // A file inheriting itself is a cycle.
    let selfish = dir.join("selfish.txt");
    std::fs::write(&selfish, "variant selfish\ninherit selfish\n").unwrap();
    let e = load(selfish.to_str().unwrap()).unwrap_err().to_string();
    assert!(e.contains("inheritance cycle"), "{e}");
    let (out, ok) = check_files(&[child.clone(), selfish]);
    assert!(!ok);
    assert!(
        out.contains(&format!("{}: ok (6 pieces, 8x8)\n", child.display())),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn text_origins_inherit_only_builtins() {
    let v = parse_variant("<stdin>", "variant mine\ninherit chess\nboard 8x8\n").unwrap();
    assert_eq!(v.pieces.len(), 6);
    let d = parse_variant("<stdin>", "variant mine\ninherit nope\n").unwrap_err();
    assert!(
        d[0].message.starts_with("unknown parent variant `nope`"),
        "{}",
        d[0].message
    );
    assert!(!d[0].message.contains("beside this one"));
}

#[test]
fn load_reports_unknown_names() {
    assert_eq!(load("grande-acedrex").unwrap().name, "grant-acedrex");
    let e = load("tamerlane").unwrap_err();
    assert!(matches!(e, super::LoadError::Unknown { .. }), "{e}");
    let e = e.to_string();
    assert_eq!(
        e,
        "unknown variant tamerlane (`acedrex variants` lists them all)"
    );
    let e = load("shatranji").unwrap_err().to_string();
    assert!(e.contains("(did you mean `shatranj`?"), "{e}");
}
