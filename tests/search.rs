//! Search behaviour: mates, Grant Acedrex's winning stalemate, material, determinism, time, legality
//! of every answer, dice.

use acedrex::game::Game;
use acedrex::position::{Move, Position};
use acedrex::search::{Engine, Info, Limits, Score, SearchResult};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn game(name: &str) -> Arc<Game> {
    Game::new(acedrex::variant::builtin(name).unwrap())
}

fn search(pos: &Position, limits: Limits) -> SearchResult {
    let mut engine = Engine::new(16, 1);
    engine.search(
        pos,
        &limits,
        &Arc::new(AtomicBool::new(false)),
        &mut |_: &Info| {},
    )
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn best_text(pos: &Position, r: &SearchResult) -> String {
    pos.move_text(r.best.expect("a move"))
}

#[test]
fn chess_mate_in_one() {
    let g = game("chess");
    let pos = Position::from_fen(&g, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
    let r = search(&pos, depth(4));
    assert_eq!(best_text(&pos, &r), "a1a8");
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn chess_mate_in_two() {
    let g = game("chess");
    // 1.Ra6! bxa6 2.b7#  (and 1...Bc7 2.Ra8# / others).
    let pos = Position::from_fen(&g, "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1").unwrap();
    let r = search(&pos, depth(6));
    assert_eq!(best_text(&pos, &r), "a1a6");
    assert_eq!(r.score, Score::Mate(2));
    // 1.Nf6+ gxf6 2.Bxf7#.
    let pos = Position::from_fen(
        &g,
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
    )
    .unwrap();
    let r = search(&pos, depth(6));
    assert_eq!(r.score, Score::Mate(2));
    assert_eq!(best_text(&pos, &r), "d5f6");
}

#[test]
fn mated_side_sees_it() {
    let g = game("chess");
    // After 1.Ra6 of the mate in two: Black is mated next move whatever it plays.
    let pos = Position::from_fen(&g, "kbK5/pp6/RP6/8/8/8/8/8 b - - 0 1").unwrap();
    let r = search(&pos, depth(4));
    assert_eq!(r.score, Score::Mate(-1));
    // A mated position has no move to return.
    let pos = Position::from_fen(&g, "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1").unwrap();
    let r = search(&pos, depth(3));
    assert_eq!(r.best, None);
}

#[test]
fn grant_acedrex_stalemate_wins() {
    let g = game("grant-acedrex");
    // Black: king a12, pawn a9 (blocked by White's a8). White: king c11 covers b11 and b12;
    // crocodile f10-d8 covers a11 — Black then has no move and, stalemated, loses. No mate exists,
    // and no other move stalemates.
    let pos = Position::from_fen(&g, "k11/2K9/5C6/p11/P11/12/12/12/12/12/12/12 w - - 0 1").unwrap();
    let r = search(&pos, depth(2));
    assert_eq!(best_text(&pos, &r), "f10d8");
    assert_eq!(r.score, Score::Mate(1));
    let mut after = pos.clone();
    after.make(r.best.unwrap());
    assert!(after.legal_moves().is_empty() && !after.in_check());
    // In chess the same idea (stalemate) is only a draw: the engine avoids it when winning.
    let chess = game("chess");
    let pos = Position::from_fen(&chess, "k7/2K5/8/p3B3/P7/8/8/8 w - - 0 1").unwrap();
    let r = search(&pos, depth(5));
    let mut after = pos.clone();
    after.make(r.best.unwrap());
    assert!(
        !after.legal_moves().is_empty(),
        "stalemated in chess: {}",
        best_text(&pos, &r)
    );
}

#[test]
fn captures_hanging_piece() {
    let g = game("grant-acedrex");
    let pos = Position::from_fen(&g, "k11/12/12/12/12/5a6/12/12/12/12/12/5R5K w - - 0 1").unwrap();
    let r = search(&pos, depth(5));
    assert_eq!(best_text(&pos, &r), "f1f7");
    let chess = game("chess");
    let pos = Position::from_fen(&chess, "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
    let r = search(&pos, depth(5));
    assert_eq!(best_text(&pos, &r), "d2d5");
}

#[test]
fn bare_king_wins() {
    // Shatranj: taking the last black piece bares the king; Black cannot bare back.
    let g = game("shatranj");
    let pos = Position::from_fen(&g, "4k3/8/8/3n4/8/8/3R4/4K3 w - - 0 1").unwrap();
    let r = search(&pos, depth(4));
    assert_eq!(best_text(&pos, &r), "d2d5");
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn fixed_depth_is_deterministic() {
    let g = game("grant-acedrex");
    let pos = Position::start(&g);
    let a = search(&pos, depth(6));
    let b = search(&pos, depth(6));
    assert_eq!((a.nodes, a.best, a.depth), (b.nodes, b.best, b.depth));
    // The same engine after `clear` repeats itself too.
    let mut engine = Engine::new(16, 1);
    let stop = Arc::new(AtomicBool::new(false));
    let c = engine.search(&pos, &depth(6), &stop, &mut |_| {});
    engine.clear();
    let d = engine.search(&pos, &depth(6), &stop, &mut |_| {});
    assert_eq!((a.nodes, a.best), (c.nodes, c.best));
    assert_eq!((c.nodes, c.best), (d.nodes, d.best));
}

/// Time limits end the search by themselves. Nothing here reads a clock: a search with no depth or
/// node limit that returns at all was stopped by its time limit, and an unfinished iteration never
/// reports the depth cap. How closely the limit is kept is measured in benches, not asserted.
#[test]
fn time_limits_end_the_search_with_a_legal_move() {
    let g = game("grant-acedrex");
    let pos = Position::start(&g);
    let legal = pos.clone().legal_moves();
    for limits in [
        Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        },
        // A nearly empty clock still yields a legal move.
        Limits {
            wtime: Some(Duration::from_millis(5)),
            ..Limits::default()
        },
        Limits {
            wtime: Some(Duration::from_millis(50)),
            winc: Some(Duration::from_millis(10)),
            movestogo: Some(1),
            ..Limits::default()
        },
    ] {
        let r = search(&pos, limits.clone());
        assert!(legal.contains(&r.best.expect("a move")), "{limits:?}");
        // 96 plies is the search's depth cap: only a search that ran out of work would report it.
        assert!(r.depth < 96, "{limits:?} reached depth {}", r.depth);
    }
}

#[test]
fn stop_flag_and_node_limit() {
    let g = game("grant-acedrex");
    let pos = Position::start(&g);
    let stop = Arc::new(AtomicBool::new(true));
    let mut engine = Engine::new(16, 1);
    let r = engine.search(&pos, &Limits::default(), &stop, &mut |_| {});
    assert!(pos.clone().legal_moves().contains(&r.best.unwrap()));
    let r = search(
        &pos,
        Limits {
            nodes: Some(5000),
            ..Limits::default()
        },
    );
    assert!(r.nodes <= 5000 + 64, "{} nodes", r.nodes);
    assert!(r.best.is_some());
}

/// Plays `plies` random legal moves from the start (deterministic generator).
fn random_position(g: &Arc<Game>, seed: u64, plies: usize) -> Position {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut pos = Position::start(g);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.game_end_with(moves.len()).is_some() {
            break;
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        pos.make(moves[(s % moves.len() as u64) as usize]);
    }
    pos
}

#[test]
fn answers_are_legal() {
    let names = acedrex::variant::builtin_names();
    let mut n = 0;
    for i in 0..24u64 {
        let name = names[i as usize % names.len()];
        let g = game(name);
        let pos = random_position(&g, i + 1, 10 + 7 * i as usize);
        let legal = pos.clone().legal_moves();
        let r = search(
            &pos,
            Limits {
                depth: Some(4),
                nodes: Some(20_000),
                ..Limits::default()
            },
        );
        match r.best {
            Some(m) => assert!(legal.contains(&m), "{name} {}: {m:?}", pos.fen()),
            None => assert!(legal.is_empty()),
        }
        n += 1;
    }
    assert!(n >= 20);
}

#[test]
fn threads_give_legal_moves() {
    let g = game("grant-acedrex");
    let pos = random_position(&g, 7, 20);
    let mut engine = Engine::new(16, 3);
    let r = engine.search(
        &pos,
        &depth(5),
        &Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    );
    assert!(pos.clone().legal_moves().contains(&r.best.unwrap()));
}

#[test]
fn info_per_iteration() {
    let g = game("chess");
    let pos = Position::start(&g);
    let mut engine = Engine::new(16, 1);
    let mut depths = Vec::new();
    let r = engine.search(
        &pos,
        &depth(5),
        &Arc::new(AtomicBool::new(false)),
        &mut |i: &Info| {
            assert!(!i.pv.is_empty());
            depths.push(i.depth);
        },
    );
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    assert_eq!(r.depth, 5);
}

#[test]
fn dice_search_respects_the_roll() {
    let text = "variant dice-acedrex\ninherit grant-acedrex\ndice 8=K 7=A 6=U 5=R 4=L 3=C 2=G 1=P no-move reroll\n";
    let v = acedrex::variant::parse_variant("dice-test", text)
        .map_err(|d| acedrex::variant::render(&d))
        .unwrap();
    let g = Game::new(v);
    let pos = Position::start(&g);
    let mut engine = Engine::new(16, 1);
    let stop = Arc::new(AtomicBool::new(false));
    for (face, ty) in pos.dice_faces() {
        let r = engine.search_roll(&pos, Some(face), &depth(3), &stop, &mut |_| {});
        let allowed: Vec<Move> = pos.clone().dice_moves(face);
        match r.best {
            Some(m) => {
                assert!(allowed.contains(&m));
                assert_eq!(pos.at(m.from).kind(), ty);
            }
            None => assert!(allowed.is_empty(), "face {face}"),
        }
    }
}

#[test]
fn bench_contract() {
    let run = || acedrex::cli::bench(Some("chess"), Some(4)).unwrap();
    let (a, b) = (run(), run());
    let last = |s: &str| {
        s.lines()
            .last()
            .unwrap()
            .split(' ')
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let (la, lb) = (last(&a), last(&b));
    assert_eq!(la.len(), 4, "{a}");
    assert!(
        la[0].parse::<u64>().is_ok()
            && la[1] == "nodes"
            && la[2].parse::<u64>().is_ok()
            && la[3] == "nps"
    );
    assert_eq!(la[0], lb[0], "bench node count is deterministic");
}
