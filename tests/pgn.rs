//! PGN: writing as XBoard does, reading back (our own files and XBoard-style ones), and selfplay.

mod common;

use acedrex::pgn::{PgnGame, Ply, parse_san, read_games, san};
use acedrex::play::selfplay::{SelfplayOptions, play_game, selfplay};
use acedrex::position::Position;
use acedrex::search::Engine;
use common::{Rng, game};

fn play(pos: &mut Position, moves: &str) -> Vec<Ply> {
    moves
        .split_whitespace()
        .map(|t| {
            let m = parse_san(pos, t).unwrap_or_else(|e| panic!("{t}: {e}"));
            pos.make(m);
            Ply::new(m)
        })
        .collect()
}

fn tagged(mut g: PgnGame) -> PgnGame {
    g.set_tag("Event", "test");
    g.set_tag("Date", "2026.01.01");
    g.set_tag("White", "w");
    g.set_tag("Black", "b");
    g
}

#[test]
fn writes_san_as_xboard_does() {
    let start = Position::start(&game("grant-acedrex"));
    let mut pos = start.clone();
    let mut g = tagged(PgnGame::new(start));
    // King leap, aanca, unicorn, pawn moves; a capture.
    g.plies = play(&mut pos, "g1g3 f12h11 c1f3 c9c8 f3xa9 b12a9 i1f3");
    let text = g.to_pgn();
    assert!(text.contains("[Variant \"grande-acedrex\"]"), "{text}");
    assert!(
        !text.contains("[FEN"),
        "start position needs no FEN: {text}"
    );
    insta::assert_snapshot!("acedrex_san", text);
}

#[test]
fn promotion_and_setup_round_trip() {
    // A white pawn on c11 promotes to a unicorn on c12 (by file); it gives no check here.
    let fen = "6k5/2P9/12/12/12/12/12/12/12/12/12/6K5 w - - 0 40";
    let g0 = game("grant-acedrex");
    let start = Position::from_fen(&g0, fen).unwrap();
    let mut pos = start.clone();
    let mut g = tagged(PgnGame::new(start));
    g.plies = play(&mut pos, "c11c12u g12f12");
    let text = g.to_pgn();
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"6k5/2P9/"), "{text}");
    assert!(text.contains("40. c12=U Kf12"), "{text}");
    let back = read_games(&text, None).unwrap();
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].plies, g.plies);
    assert_eq!(back[0].start.fen(), fen);
    assert_eq!(back[0].to_pgn(), text);
}

#[test]
fn random_games_round_trip() {
    let g0 = game("grant-acedrex");
    let mut rng = Rng(0x5eed);
    let mut all = String::new();
    let mut games = Vec::new();
    for i in 0..4 {
        let start = Position::start(&g0);
        let mut pos = start.clone();
        let mut g = tagged(PgnGame::new(start));
        g.set_tag("Round", (i + 1).to_string());
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.game_end().is_some() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            g.plies.push(Ply::new(m));
            pos.make(m);
        }
        g.set_end(pos.game_end());
        all += &g.to_pgn();
        games.push(g);
    }
    let back = read_games(&all, None).unwrap();
    assert_eq!(back.len(), games.len());
    for (a, b) in back.iter().zip(&games) {
        assert_eq!(a.plies, b.plies);
        assert_eq!(a.tag("Round"), b.tag("Round"));
        assert_eq!(a.result, b.result);
        assert_eq!(a.position().fen(), b.position().fen());
    }
    // Every move's SAN reads back as itself, in every position of those games.
    let mut pos = back[0].start.clone();
    for p in &back[0].plies {
        for m in pos.legal_moves() {
            let s = san(&mut pos, m);
            assert_eq!(parse_san(&mut pos, &s), Ok(m), "{s} in {}", pos.fen());
        }
        pos.make(p.mv.unwrap());
    }
}

/// Dai Shogi's dressed ids (`L!e5`, `X'f6`, `=L!`) survive the PGN writer and reader, from a
/// FEN too, whose `a'` and `l!` stay in the tag.
#[test]
fn dressed_ids_round_trip_in_pgn() {
    let g0 = game("dai");
    let mut rng = Rng(0xda1);
    let start = Position::start(&g0);
    let mut pos = start.clone();
    let mut g = tagged(PgnGame::new(start));
    let mut dressed = 0;
    for _ in 0..160 {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.game_end().is_some() {
            break;
        }
        // Moves of the dressed kinds first, half the time, so that the game has many.
        let mine: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&m| san(&mut pos, m).contains(['\'', '!']))
            .collect();
        let m = if !mine.is_empty() && rng.below(2) == 0 {
            mine[rng.below(mine.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        dressed += usize::from(san(&mut pos, m).contains(['\'', '!']));
        g.plies.push(Ply::new(m));
        pos.make(m);
    }
    assert!(dressed > 20, "only {dressed} moves of dressed kinds");
    let text = g.to_pgn();
    let back = read_games(&text, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back[0].plies, g.plies, "{text}");
    // From the middle of that game: the FEN tag holds dressed ids.
    let mut mid = tagged(PgnGame::new(back[0].position()));
    mid.result = "*".into();
    let again = read_games(&mid.to_pgn(), None).unwrap();
    assert_eq!(again[0].start.fen(), pos.fen());
    assert!(pos.fen().contains(['\'', '!']));
}

#[test]
fn reads_xboard_style_and_coordinate_moves() {
    // As XBoard saves a Fairy-Max game (SAN, two-digit ranks, a mate comment), plus the coordinate and
    // long forms XBoard also reads, NAGs, a variation and an escape line.
    let text = r#"[Event "Computer chess game"]
[Site "host"]
[Date "2026.11.30"]
[Round "-"]
[White "fairymax"]
[Black "acedrex"]
[Result "1/2-1/2"]
[Variant "grande-acedrex"]
[TimeControl "40/300"]

1. Kg3 {+0.10/8 1} Ah11 2. c1f3 $1 (2. a5 a8) c9c8 3. Uf3xa9 ; a line comment
% an escape line
Lbxa9 4. Gi1-f3 {adjudicated} 1/2-1/2
"#;
    let games = read_games(text, None).expect("reads");
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.start.game().variant.name, "grant-acedrex");
    assert_eq!(g.plies.len(), 7);
    assert_eq!(g.result, "1/2-1/2");
    assert_eq!(g.reason.as_deref(), Some("adjudicated"));
    assert_eq!(g.tag("TimeControl"), Some("40/300"));
    assert_eq!(g.plies[0].comment.as_deref(), Some("+0.10/8 1"));
    assert!(g.to_pgn().contains("[TimeControl \"40/300\"]"));
}

#[test]
fn chess_without_variant_tag_and_castling() {
    let text = "[Event \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O *\n";
    let games = read_games(text, None).unwrap();
    let g = &games[0];
    assert_eq!(g.start.game().variant.name, "chess");
    assert_eq!(g.plies.len(), 10);
    let out = g.to_pgn();
    assert!(
        !out.contains("[Variant"),
        "XBoard writes no Variant tag for chess: {out}"
    );
    assert!(out.contains("4. O-O Nf6 5. d3 O-O *"), "{out}");
}

#[test]
fn bad_input_names_the_game_and_move() {
    let text = "[Variant \"grande-acedrex\"]\n\n1. g1g3 a9a7 *\n";
    let e = read_games(text, None).unwrap_err();
    assert_eq!(e.game, 1);
    assert!(e.message.contains("a9a7"), "{e}");
    let e = read_games("[Variant \"nosuch\"]\n\n*\n", None).unwrap_err();
    assert!(e.message.contains("unknown variant"), "{e}");
}

#[test]
fn dice_passes_and_rolls_round_trip() {
    let mut v = acedrex::variant::builtin("grant-acedrex").unwrap();
    v = acedrex::play::engine::with_dice(v);
    let g0 = acedrex::game::Game::new(v);
    let start = Position::start(&g0);
    let mut pos = start.clone();
    let mut g = tagged(PgnGame::new(start));
    let m = pos.parse_move("g1g3").unwrap();
    pos.make(m);
    g.plies.push(Ply {
        mv: Some(m),
        roll: Some(8),
        comment: None,
    });
    pos.make_null();
    g.plies.push(Ply {
        mv: None,
        roll: Some(5),
        comment: None,
    });
    let text = g.to_pgn();
    assert!(text.contains("1. Kg3 {roll 8} -- {roll 5} *"), "{text}");
    let back = read_games(&text, Some(&g0)).unwrap();
    assert_eq!(back[0].plies, g.plies);
}

#[test]
fn selfplay_writes_readable_games() {
    let g0 = game("grant-acedrex");
    let opts = SelfplayOptions {
        depth: Some(1),
        max_plies: 30,
        ..SelfplayOptions::default()
    };
    let mut engine = Engine::new(4, 1);
    let g = play_game(&g0, &opts, 0, &mut engine, &mut |_| {});
    assert!(!g.plies.is_empty() && g.plies.len() <= 30);
    let back = read_games(&g.to_pgn(), None).unwrap();
    assert_eq!(back[0].plies, g.plies);
    // Same seed, same game: the openings are seeded, the engine deterministic on one thread.
    let again = play_game(&g0, &opts, 0, &mut engine, &mut |_| {});
    assert_eq!(again.plies, g.plies);

    let dir = std::env::temp_dir().join(format!("acedrex-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.pgn");
    let opts = SelfplayOptions {
        games: 2,
        dice: true,
        output: Some(path.clone()),
        progress: Some(false),
        ..opts
    };
    let summary = selfplay(&opts).unwrap();
    assert_eq!(summary.games, 2);
    assert_eq!(
        summary.white + summary.black + summary.draws + summary.unfinished,
        2
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("{roll "),
        "dice games record their rolls: {text}"
    );
    let mut v = acedrex::variant::builtin("grant-acedrex").unwrap();
    v = acedrex::play::engine::with_dice(v);
    let dice_game = acedrex::game::Game::new(v);
    assert_eq!(read_games(&text, Some(&dice_game)).unwrap().len(), 2);
    std::fs::remove_dir_all(&dir).ok();
}

/// Seirawan gating in SAN: the gated piece after a slash (`Nc3/H`), castling with the square it
/// enters (`O-O/He1` on the king's, `O-O/Hh1` on the rook's); every legal move's SAN and
/// coordinate text read back as that move, and the plain `O-O` gates nothing.
#[test]
fn gating_moves_round_trip_in_san() {
    let g = game("seirawan");
    let mut pos = Position::from_fen(
        &g,
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/RN2K2R[HEhe] w KQABEHkqaeh - 0 1",
    )
    .expect("fen");
    let mut sans = Vec::new();
    for m in pos.legal_moves() {
        let s = san(&mut pos, m);
        assert_eq!(parse_san(&mut pos, &s), Ok(m), "{s}");
        let c = pos.move_text(m);
        assert_eq!(parse_san(&mut pos, &c), Ok(m), "{c}");
        sans.push(s);
    }
    for s in [
        "Nc3/H", "Nc3/E", "O-O/He1", "O-O/Hh1", "O-O/Eh1", "O-O", "Nc3",
    ] {
        assert!(sans.contains(&s.to_string()), "{s}: {sans:?}");
    }
    let plain = parse_san(&mut pos, "O-O").expect("castling");
    assert!(!plain.is_gating());
}
