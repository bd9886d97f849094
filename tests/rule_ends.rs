//! Game ends of the rule kinds: several royal pieces (`royal-loss any|last`), extinction, goal
//! squares (with and without the reply), n-check, giving check forbidden. The positions marked
//! "Fairy-Stockfish" were played through Fairy-Stockfish 11.1 (`go perft 1` lists no move where the
//! game has ended; `go depth 4` reports `score mate 1` with the same first move).

mod common;

use acedrex::game::Game;
use acedrex::position::Position;
use acedrex::rules::Winner;
use acedrex::search::Score;
use common::{assert_positioned_errors, game, legal_texts, search_depth4, search_fen};
use std::sync::Arc;

fn end(variant: &str, fen: &str) -> Option<(Winner, &'static str)> {
    let g = game(variant);
    let mut pos = Position::from_fen(&g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    pos.game_end().map(|e| (e.winner, e.reason))
}

#[test]
fn the_third_check_wins() {
    // Fairy-Stockfish: White has given three checks ("0+3"); Black has no move.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0+3 0 1";
    assert_eq!(end("3check", fen), Some((Winner::White, "checks given")));
    // Fairy-Stockfish: mate 1 by f1b5+, the third check.
    let g = game("3check");
    let fen = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 3";
    assert_eq!(search_fen(&g, fen), (Score::Mate(1), "f1b5".to_string()));
    // The counters are played, undone and written back as Fairy-Stockfish writes them.
    let mut pos = Position::from_fen(&g, fen).unwrap();
    let hash = pos.hash();
    let m = pos.parse_move("f1b5").unwrap();
    pos.make(m);
    assert!(pos.fen().contains(" - 0+3 "), "{}", pos.fen());
    assert_eq!(pos.hash(), pos.fresh_hash());
    assert_eq!(pos.game_end().map(|e| e.winner), Some(Winner::White));
    pos.unmake();
    assert_eq!((pos.hash(), pos.fen()), (hash, fen.to_string()));
    assert_eq!(end("3check", fen), None);
}

#[test]
fn the_fifth_check_wins() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5+0 0 1";
    assert_eq!(end("5check", fen), Some((Winner::Black, "checks given")));
    let start = Position::start(&game("5check"));
    assert!(start.fen().contains(" - 5+5 0 1"));
}

#[test]
fn a_king_on_the_hill_wins() {
    // Fairy-Stockfish: White's king on d5, Black to move: no moves.
    let fen = "8/8/8/3K4/8/8/8/k7 b - - 0 1";
    assert_eq!(
        end("kingofthehill", fen),
        Some((Winner::White, "goal reached"))
    );
    // Fairy-Stockfish: mate 1 by c4d4.
    let g = game("kingofthehill");
    let (score, best) = search_fen(&g, "8/8/8/8/2K5/8/8/k7 w - - 0 1");
    assert_eq!(score, Score::Mate(1));
    assert!(["c4d4", "c4d5"].contains(&best.as_str()), "{best}");
}

#[test]
fn racing_kings_gives_the_reply_and_forbids_check() {
    // Fairy-Stockfish: White reached the 8th rank and Black has replied without reaching it.
    assert_eq!(
        end("racingkings", "6K1/8/8/8/8/8/8/k7 w - - 0 1"),
        Some((Winner::White, "goal reached"))
    );
    // Black to move still has its reply.
    assert_eq!(end("racingkings", "6K1/8/8/8/8/8/k7/8 b - - 0 1"), None);
    // Both kings there with White to move: Black equalised.
    assert_eq!(
        end("racingkings", "k5K1/8/8/8/8/8/8/8 w - - 0 1"),
        Some((Winner::Draw, "goal reached"))
    );
    // Black there first, Black to move after White's move: Black wins.
    assert_eq!(
        end("racingkings", "k7/8/8/8/8/8/8/6K1 b - - 0 1"),
        Some((Winner::Black, "goal reached"))
    );
    // Fairy-Stockfish: mate 1 by g7f8 (Black cannot reach the 8th rank in one); g8, h8 as good.
    let g = game("racingkings");
    let (score, best) = search_fen(&g, "8/6K1/8/8/8/8/k7/8 w - - 0 1");
    assert_eq!(score, Score::Mate(1));
    assert!(["g7f8", "g7g8", "g7h8"].contains(&best.as_str()), "{best}");
    // No move may give check: the rook may not go to the a-file or the 2nd rank.
    let mut pos = Position::from_fen(&g, "8/8/8/8/8/8/k7/4R2K w - - 0 1").unwrap();
    let moves = legal_texts(&mut pos);
    assert!(!moves.contains(&"e1a1".to_string()) && !moves.contains(&"e1e2".to_string()));
    assert!(moves.contains(&"e1b1".to_string()) && moves.contains(&"e1e3".to_string()));
}

#[test]
fn losing_a_whole_kind_loses() {
    // Fairy-Stockfish: Black (who just moved) has no queen: White to move has won.
    let fen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(end("extinction", fen), Some((Winner::White, "extinction")));
    // Fairy-Stockfish: three kings, one lost.
    let fen = "knbqkbnk/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNK b - - 0 1";
    assert_eq!(end("threekings", fen), Some((Winner::Black, "extinction")));
    // Kinglet: only the pawns count.
    let fen = "rnbqkbnr/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(end("kinglet", fen), Some((Winner::White, "extinction")));
    assert_eq!(
        end("kinglet", "rnbqkbnr/p7/8/8/8/8/PPPPPPPP/1NBQKBN1 w - - 0 1"),
        None
    );
    // The king is an ordinary piece: it may stay attacked, and take and be taken.
    let g = game("extinction");
    let mut pos = Position::from_fen(
        &g,
        "rnb1kbnr/pppppppp/8/8/1q6/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1",
    )
    .unwrap();
    assert!(!pos.in_check());
    let moves = legal_texts(&mut pos);
    assert!(moves.contains(&"e1d2".to_string()), "{moves:?}");
    // Taking the last queen is a win found by search: mate in 1.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let g2 = game("extinction");
    let (score, _) = search_fen(
        &g2,
        "rnb1kbnr/pppppppp/8/8/8/2q5/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert_eq!(score, Score::Mate(1));
    assert_eq!(end("extinction", fen), None);
}

/// Two kings a side, one royal kind: the rules decide what check means.
fn two_kings(rule: &str) -> Arc<Game> {
    let text = format!(
        "variant twokings\nboard 8x8\npiece K king K royal\npiece R rook R\nstart k6k/8/8/8/8/8/8/K3R2K w - - 0 1\n{rule}"
    );
    Game::new(acedrex::variant::parse_variant("twokings.txt", &text).expect("valid"))
}

#[test]
fn several_royals_any_may_not_be_left_attacked() {
    let g = two_kings("royal-loss any\n");
    // The rook on b8 holds the b-file.
    let mut pos = Position::from_fen(&g, "kr5k/8/8/8/8/8/8/K3R2K w - - 0 1").unwrap();
    assert!(!pos.in_check());
    // a1b1 and a1b2 step into the rook's file: illegal; a1a2 is fine.
    let moves = legal_texts(&mut pos);
    assert!(!moves.contains(&"a1b1".to_string()) && moves.contains(&"a1a2".to_string()));
    // One king attacked is check; with no way out, mate.
    let mut pos = Position::from_fen(&g, "k6k/8/8/8/8/8/1r6/Kr5K w - - 0 1").unwrap();
    assert!(pos.in_check());
    assert_eq!(
        pos.game_end().map(|e| (e.winner, e.reason)),
        Some((Winner::Black, "checkmate"))
    );
}

#[test]
fn several_royals_last_only_the_last_is_protected() {
    let g = two_kings("royal-loss last\n");
    // The same mate under `any` is no check here: the other king is still there.
    let mut pos = Position::from_fen(&g, "k6k/8/8/8/8/8/1r6/Kr5K w - - 0 1").unwrap();
    assert!(!pos.in_check());
    let n = pos.legal_moves().len();
    assert!(n > 0);
    assert_eq!(pos.game_end(), None);
    // Black takes one king: the game goes on; the last one is then protected by the check rule.
    let mut pos = Position::from_fen(&g, "k6k/8/8/8/8/8/8/Kr5K b - - 0 1").unwrap();
    let m = pos.parse_move("b1a1").unwrap();
    pos.make(m);
    assert_eq!(pos.game_end(), None);
    assert_eq!(pos.royal_count(acedrex::position::Side::White), 1);
    // Taking the last royal piece wins; search sees it as a mate.
    let mut pos = Position::from_fen(&g, "k6k/8/8/8/8/8/8/r6K b - - 0 1").unwrap();
    let m = pos.parse_move("a1h1").unwrap();
    pos.make(m);
    assert_eq!(
        pos.game_end().map(|e| (e.winner, e.reason)),
        Some((Winner::Black, "royal piece captured"))
    );
    // White's last king next to Black's rook: it must step out of check.
    let mut pos = Position::from_fen(&g, "k6k/8/8/8/8/8/8/6rK w - - 0 1").unwrap();
    assert!(pos.in_check());
    let moves = legal_texts(&mut pos);
    assert_eq!(moves, ["h1g1", "h1h2"]);
    let (score, _) = search_fen(&g, "k6k/8/8/8/8/8/1r6/Kr5K b - - 0 1");
    assert!(matches!(score, Score::Mate(n) if n > 0), "{score:?}");
}

#[test]
fn hand_keys_are_checked_with_positions() {
    let base = "variant t\nboard 8x8\npiece K king K royal\npiece P pawn fmW\n";
    let hands = "start k7/8/8/8/8/8/8/7K[P] w - - 0 1\n";
    let plain = "start k7/8/8/8/8/8/8/7K w - - 0 1\n";
    let cases = [
        (
            format!("{hands}captures anywhere\n"),
            "t.txt:6:10",
            "unknown captures rule",
        ),
        (
            format!("{hands}drop-ranks P 2to7\n"),
            "t.txt:6:14",
            "`2to7` is not a rank range",
        ),
        (
            format!("{hands}drop-ranks P 0-7\n"),
            "t.txt:6:14",
            "rank 0: expected 1 to 8",
        ),
        (
            format!("{hands}drop-ranks P 7-2\n"),
            "t.txt:6:14",
            "the rank range 7-2 is empty",
        ),
        (
            format!("{hands}drop-ranks Q 2-7\n"),
            "t.txt:6:12",
            "`Q` in the drop-ranks pieces",
        ),
        (
            format!("{plain}drop-ranks P 2-7\n"),
            "t.txt:6:12",
            "`drop-ranks` in a game without hands",
        ),
        (
            format!("{hands}promoted-captures keep\n"),
            "t.txt:6:19",
            "`promoted-captures` without `captures to-hand`",
        ),
        (
            "start k7/8/8/8/8/8/8/7K[Z] w - - 0 1\n".to_string(),
            "t.txt:5:25",
            "`Z` in the holdings of the start position is not a declared piece",
        ),
        (
            "start k7/8/8/8/8/8/8/P~6K w - - 0 1\n".to_string(),
            "t.txt:5:23",
            "`~` (a promoted piece that goes back to hand demoted)",
        ),
    ];
    let cases: Vec<(&str, &str, &str)> =
        cases.iter().map(|(l, a, m)| (l.as_str(), *a, *m)).collect();
    assert_positioned_errors(base, &cases);
}

#[test]
fn rule_keys_are_checked_with_positions() {
    let base = "variant t\nboard 8x8\npiece K king K royal\npiece P pawn fmW\nstart k7/8/8/8/8/8/8/7K w - - 0 1\n";
    let cases = [
        (
            "royal-loss most\n",
            "t.txt:6:12",
            "unknown royal-loss rule `most`",
        ),
        ("extinction X\n", "t.txt:6:12", "`X` in the extinction rule"),
        (
            "extinction P at-most x\n",
            "t.txt:6:22",
            "`x` is not a count",
        ),
        (
            "goal K i9\n",
            "t.txt:6:8",
            "goal region `i9` leaves the 8x8 board",
        ),
        ("goal K d4-\n", "t.txt:6:8", "`d4-` is not a goal region"),
        (
            "goal K reply\n",
            "t.txt:6:14",
            "the goal squares are missing",
        ),
        ("checks-to-win 0\n", "t.txt:6:15", "`checks-to-win 0`"),
        (
            "giving-check never\n",
            "t.txt:6:14",
            "unknown giving-check rule",
        ),
    ];
    assert_positioned_errors(base, &cases);
    // No royal piece is allowed only where extinction decides the game.
    let text = "variant t\nboard 8x8\npiece K king K\nstart k7/8/8/8/8/8/8/7K w - - 0 1\n";
    assert!(acedrex::variant::parse_variant("t.txt", text).is_err());
    let with = format!("{text}extinction K\n");
    assert!(acedrex::variant::parse_variant("t.txt", &with).is_ok());
    // Counting checks needs a royal piece to check.
    let counted = format!("{with}checks-to-win 3\n");
    let errors = acedrex::variant::parse_variant("t.txt", &counted).unwrap_err();
    assert!(errors[0].to_string().contains("t.txt:6:15"), "{errors:?}");
}

#[test]
fn a_stalemated_bughouse_side_loses_and_a_crazyhouse_one_draws() {
    // Fairy-Stockfish at `go depth 3`: bughouse `score mate 0`, crazyhouse `score cp 0`.
    let fen = "k7/8/1Q6/8/8/8/8/2K5[] b - - 0 1";
    assert_eq!(end("bughouse", fen), Some((Winner::White, "stalemate")));
    assert_eq!(end("crazyhouse", fen), Some((Winner::Draw, "stalemate")));
}

#[test]
fn antichess_losing_every_piece_or_being_stalemated_wins() {
    // Fairy-Stockfish: Black has no piece left; it has no move, and it has won.
    let bare = "8/8/8/8/8/8/8/P7 b - - 0 1";
    assert_eq!(
        end("antichess", bare),
        Some((Winner::Black, "all pieces lost"))
    );
    // Fairy-Stockfish: the pawns block each other, White to move is stalemated, and wins.
    let blocked = "8/8/8/8/8/8/p7/P7 w - - 0 1";
    assert_eq!(
        end("antichess", blocked),
        Some((Winner::White, "stalemate"))
    );
    // Fairy-Stockfish: mate -1 by a1a8, the one legal move: the capture is forced and leaves Black
    // without pieces.
    let g = game("antichess");
    let fen = "k7/8/8/8/8/8/8/R7 w - - 0 1";
    assert_eq!(search_fen(&g, fen), (Score::Mate(-1), "a1a8".to_string()));
    let mut pos = Position::from_fen(&g, fen).unwrap();
    let moves = legal_texts(&mut pos);
    assert_eq!(moves, ["a1a8"]);
    // The same army in giveaway: the king may be taken; nothing is ever in check.
    let pos = Position::from_fen(&game("giveaway"), "4k3/8/8/8/8/8/8/4R2K b - - 0 1").unwrap();
    assert!(!pos.in_check());
}

#[test]
fn suicide_stalemate_goes_to_the_side_with_fewer_pieces() {
    // Fairy-Stockfish: White is stalemated with one piece against two, and wins.
    assert_eq!(
        end("suicide", "8/8/8/8/8/p6p/P7/8 w - - 0 1"),
        Some((Winner::White, "stalemate"))
    );
    // Fairy-Stockfish: equal numbers, stalemated: a draw (no moves either).
    assert_eq!(
        end("suicide", "8/8/8/8/8/p7/P7/8 w - - 0 1"),
        Some((Winner::Draw, "stalemate"))
    );
    // Antichess gives the same stalemate to the stalemated side whatever the count.
    assert_eq!(
        end("antichess", "8/8/8/8/8/p6p/P7/8 w - - 0 1"),
        Some((Winner::White, "stalemate"))
    );
    // Fairy-Stockfish: mate -1 by h3h2, the one move: it stalemates White, who has fewer pieces.
    let g = game("suicide");
    assert_eq!(
        search_fen(&g, "8/8/8/8/8/p6p/P7/8 b - - 0 1"),
        (Score::Mate(-1), "h3h2".to_string())
    );
}

#[test]
fn losers_mated_stalemated_or_bared_wins() {
    // Fairy-Stockfish: Black is checkmated (Kf6 guards the queen), and wins.
    assert_eq!(
        end("losers", "7k/p5Q1/P4K2/8/8/8/8/8 b - - 0 1"),
        Some((Winner::Black, "checkmate"))
    );
    // Fairy-Stockfish: Black is stalemated, and wins.
    assert_eq!(
        end("losers", "7k/p7/P4KQ1/8/8/8/8/8 b - - 0 1"),
        Some((Winner::Black, "stalemate"))
    );
    // Fairy-Stockfish: Black has only its king left; the game is over whoever is to move.
    for side in ["w", "b"] {
        let fen = format!("4k3/8/8/8/8/8/8/4K2R {side} K - 0 1");
        assert_eq!(end("losers", &fen), Some((Winner::Black, "bare king")));
    }
    // Fairy-Stockfish: mate -1 by h1h8, forced, which bares Black.
    let g = game("losers");
    assert_eq!(
        search_fen(&g, "4k2n/8/8/8/8/8/8/4K2R w - - 0 1"),
        (Score::Mate(-1), "h1h8".to_string())
    );
    // Fairy-Stockfish: in check from d2, the only legal capture is the king's; the rook's h1h8
    // would not exist anyway, and Kxd2 is forced over the king's quiet steps.
    let mut pos = Position::from_fen(&g, "4k3/8/8/8/8/8/3r4/4K2R w K - 0 1").unwrap();
    let moves = legal_texts(&mut pos);
    assert_eq!(moves, ["e1d2"]);
}

#[test]
fn horde_loses_with_its_last_pawn() {
    // Fairy-Stockfish: White has no piece left: no moves, Black has won.
    assert_eq!(
        end("horde", "4k3/8/8/8/8/8/8/8 w - - 0 1"),
        Some((Winner::Black, "extinction"))
    );
    // Fairy-Stockfish: mate 1 by d2e1, taking the last pawn.
    let g = game("horde");
    assert_eq!(
        search_fen(&g, "4k3/8/8/8/8/8/3q4/4P3 b - - 0 1"),
        (Score::Mate(1), "d2e1".to_string())
    );
    // Fairy-Stockfish: Black's king is royal as ever: mated by pawns, Black loses.
    assert_eq!(
        end("horde", "7k/5PP1/6PP/8/8/8/8/8 b - - 0 1"),
        Some((Winner::White, "checkmate"))
    );
}

#[test]
fn anti_chess_keys_are_checked_with_positions() {
    let base = "variant t\nboard 8x8\npiece K king K\npiece P pawn fmWifmnD\nstart k7/8/8/8/8/8/8/7K w - - 0 1\n";
    let cases = [
        (
            "must-capture maybe\n",
            "t.txt:6:14",
            "unknown must-capture rule",
        ),
        (
            "checkmate checkmated-draws\n",
            "t.txt:6:11",
            "unknown checkmate rule",
        ),
        (
            "extinction all\nextinction-result extinct-draws\n",
            "t.txt:7:19",
            "unknown extinction result",
        ),
        (
            "extinction-result extinct-wins\n",
            "t.txt:6:19",
            "`extinction-result` without an `extinction` rule",
        ),
        (
            "extinction all\ninitial-ranks P 0-2\n",
            "t.txt:7:17",
            "rank 0 is not on the board",
        ),
        (
            "extinction all\ninitial-ranks P 3-2\n",
            "t.txt:7:19",
            "runs backwards",
        ),
        (
            "extinction all\ninitial-ranks X 1\n",
            "t.txt:7:15",
            "`X` in the initial-ranks rule",
        ),
        (
            "extinction all\ninitial-ranks P x-2\n",
            "t.txt:7:17",
            "`x-2` is not a band of ranks",
        ),
        (
            "extinction all\nstalemate fewer\n",
            "t.txt:7:11",
            "unknown stalemate rule",
        ),
    ];
    assert_positioned_errors(base, &cases);
    // `extinction all` is what lets a file go without a royal piece here.
    let ok = format!("{base}extinction all\nextinction-result extinct-wins\nmust-capture yes\n");
    let v = acedrex::variant::parse_variant("t.txt", &ok).expect("valid");
    assert!(v.end.must_capture && v.end.extinction.is_some_and(|e| e.all));
}

#[test]
fn breakthrough_the_first_pawn_on_the_far_rank_wins() {
    // Fairy-Stockfish: White's pawn on a8, Black to move: no moves.
    let fen = "P7/8/8/8/8/8/8/7p b - - 0 1";
    assert_eq!(
        end("breakthrough", fen),
        Some((Winner::White, "goal reached"))
    );
    // Fairy-Stockfish: White to move may step onto a8; Black's pawn on h1 has already won.
    let g = game("breakthrough");
    let fen = "8/P7/8/8/8/8/8/7p w - - 0 1";
    assert_eq!(
        end("breakthrough", fen),
        Some((Winner::Black, "goal reached"))
    );
    let fen = "8/P7/8/8/8/8/7p/8 w - - 0 1";
    assert_eq!(search_fen(&g, fen).0, Score::Mate(1));
    // A side without pieces has lost.
    let fen = "8/8/8/8/8/8/8/P7 b - - 0 1";
    assert_eq!(end("breakthrough", fen).map(|e| e.0), Some(Winner::White));
}

#[test]
fn clobber_the_last_to_move_wins() {
    // Fairy-Stockfish: no stone next to an enemy one, White to move has no move and loses.
    let fen = "5/5/5/2P2/5/2p2 w - - 0 1";
    assert_eq!(end("clobber", fen), Some((Winner::Black, "stalemate")));
    // Fairy-Stockfish: mate 1 by c3c2, the last move.
    let g = game("clobber");
    let fen = "5/5/5/2P2/2p2/5 w - - 0 1";
    assert_eq!(search_fen(&g, fen), (Score::Mate(1), "c3c2".to_string()));
    // Fairy-Stockfish: the same on 10x10.
    let fen = "10/10/10/10/10/10/10/2P7/10/2p7 w - - 0 1";
    assert_eq!(end("clobber10", fen), Some((Winner::Black, "stalemate")));
}

#[test]
fn jesonmor_a_knight_holding_the_centre_through_the_reply_wins() {
    // Fairy-Stockfish: White's knight on e5 with White to move: Black could not dislodge it.
    let fen = "n8/9/9/9/4N4/9/9/9/8N w - - 0 1";
    assert_eq!(end("jesonmor", fen), Some((Winner::White, "goal reached")));
    // Black to move may still take it: no end yet.
    let fen = "n8/9/9/9/4N4/9/9/9/8N b - - 0 1";
    assert_eq!(end("jesonmor", fen), None);
    // Fairy-Stockfish: mate 1 by f3e5 (counted when White moves again).
    let g = game("jesonmor");
    let fen = "n8/9/9/9/9/9/5N3/9/8N w - - 0 1";
    assert_eq!(search_fen(&g, fen), (Score::Mate(1), "f3e5".to_string()));
}

#[test]
fn codrus_losing_the_king_wins() {
    // Fairy-Stockfish: Black has no king: it has won, White has no moves.
    let fen = "8/8/8/8/8/8/8/q3K3 w - - 0 1";
    assert_eq!(end("codrus", fen), Some((Winner::Black, "all pieces lost")));
    // Fairy-Stockfish: mate -1 by e1e8, the forced capture of Black's king.
    let g = game("codrus");
    let fen = "4k3/8/8/8/8/8/8/4R2K w - - 0 1";
    assert_eq!(search_fen(&g, fen), (Score::Mate(-1), "e1e8".to_string()));
}

#[test]
fn karouk_the_first_check_wins() {
    // Fairy-Stockfish: mate 1 by a1a8, a check.
    let g = game("karouk");
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 1+1 0 1";
    assert_eq!(search_fen(&g, fen), (Score::Mate(1), "a1a8".to_string()));
    // Fairy-Stockfish: after it ("0+1"), Black has no moves.
    let fen = "R3k3/8/8/8/8/8/8/4K3 b - - 0+1 0 1";
    assert_eq!(end("karouk", fen), Some((Winner::White, "checks given")));
    assert!(Position::start(&g).fen().contains(" w DEde - 1+1 0 1"));
}

#[test]
fn makpong_a_king_in_check_may_only_take_its_checker() {
    // Fairy-Stockfish: the king on e1 could step to d1 or f1 in makruk; in makpong it is mated.
    let fen = "8/8/8/8/8/4k3/4r3/4K3 w - - 0 1";
    assert_eq!(end("makruk", fen), None);
    assert_eq!(end("makpong", fen), Some((Winner::Black, "checkmate")));
    // Fairy-Stockfish: an unprotected checker is taken, the only king move.
    let mut pos = Position::from_fen(&game("makpong"), "8/8/8/4k3/8/8/4r3/4K3 w - - 0 1").unwrap();
    assert_eq!(legal_texts(&mut pos), ["e1e2"]);
    // Two checkers: the king may not move at all (only the rook's capture is left).
    let fen = "8/8/8/4k3/8/5n2/4r3/3RK3 w - - 0 1";
    let mut pos = Position::from_fen(&game("makpong"), fen).unwrap();
    assert!(legal_texts(&mut pos).iter().all(|m| !m.starts_with("e1")));
}

#[test]
fn cambodian_rights_name_the_unmoved_king_and_met_by_file() {
    // Fairy-Stockfish: after c3c4 e8g7 d1b2 the rights are White's met and Black's met ("Ed").
    let g = game("cambodian");
    let pos = common::play(
        &g,
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1",
        "c3c4 e8g7 d1b2",
    );
    assert_eq!(
        pos.fen(),
        "rnsm1snr/6k1/pppppppp/8/2P5/PP1PPPPP/1K6/RNS1MSNR b Ed - 2 2"
    );
    // Read back: the king's leap is gone, the met's is there.
    let mut pos = Position::from_fen(&g, "8/8/8/4k3/8/8/8/3KM3 w E - 0 1").unwrap();
    let moves = legal_texts(&mut pos);
    assert!(moves.contains(&"e1e3".to_string()) && !moves.contains(&"d1b2".to_string()));
}

#[test]
fn makruk_family_keys_are_checked_with_positions() {
    let base = "variant t\nboard 8x8\npiece K king K royal\npiece M met FifD\nstart k7/8/8/8/8/8/8/3KM3 w DE - 0 1\n";
    let cases = [
        (
            "rights-by-file KX\n",
            "t.txt:6:17",
            "`X` in the rights-by-file pieces",
        ),
        (
            "royal-in-check never\n",
            "t.txt:6:16",
            "unknown royal-in-check rule",
        ),
    ];
    assert_positioned_errors(base, &cases);
    let ok = format!("{base}rights-by-file KM\nroyal-in-check takes-checker\n");
    let v = acedrex::variant::parse_variant("t.txt", &ok).expect("valid");
    assert!(v.end.royal_takes_checker && v.rights_by_file == ['K', 'M']);
    let kingless = "variant t\nboard 8x8\npiece P pawn fmW\nstart p7/8/8/8/8/8/8/7P w - - 0 1\nextinction all\nroyal-in-check takes-checker\n";
    let errors = acedrex::variant::parse_variant("t.txt", kingless).unwrap_err();
    assert!(errors[0].to_string().contains("t.txt:6:16"), "{errors:?}");
}

#[test]
fn shatar_a_bare_king_draws_at_once() {
    // Fairy-Stockfish: Black bared, either side to move: no moves, the game is drawn.
    for fen in [
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 b - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        assert_eq!(end("shatar", fen), Some((Winner::Draw, "bare king")));
    }
    assert_eq!(end("shatar", "4k3/r7/8/8/8/8/8/R3K3 w - - 0 1"), None);
    let mut pos = Position::from_fen(&game("shatar"), "4k3/8/8/8/8/8/8/R3K3 b - - 0 1").unwrap();
    assert!(legal_texts(&mut pos).is_empty());
    // `bare-king draw` is a keyword of the bare-king rule.
    let text = "variant t\nboard 8x8\npiece K king K royal\nstart k7/8/8/8/8/8/8/7K w - - 0 1\nbare-king drawn\n";
    let errors = acedrex::variant::parse_variant("t.txt", text).unwrap_err();
    assert!(errors[0].to_string().contains("t.txt:5:11"), "{errors:?}");
}

/// Supply chess (Fairy-Stockfish 11.1's `go perft 1` agrees): a drop goes on the dropper's own
/// side of the river, an advisor in its palace only, and no drop may give check.
#[test]
fn supply_drops_stay_home_and_give_no_check() {
    let g = game("supply");
    let drops = |fen: &str| -> Vec<String> {
        let mut pos = Position::from_fen(&g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        legal_texts(&mut pos)
            .into_iter()
            .filter(|m| m.contains('@'))
            .collect()
    };
    let moves = drops("4k4/9/9/9/9/9/9/9/9/3K5[RNC] w - - 0 1");
    let ranks_ok = |m: &String| m[3..].parse::<u8>().is_ok_and(|r| (1..=5).contains(&r));
    assert!(moves.iter().all(ranks_ok), "{moves:?}");
    // The rook on the open e-file would check the general on e10; the cannon has no screen there.
    assert!(!moves.iter().any(|m| m.starts_with("R@e")), "{moves:?}");
    assert!(moves.contains(&"R@d5".to_string()) && moves.contains(&"C@e3".to_string()));
    // Behind a screen on e6 the cannon would check.
    let moves = drops("4k4/9/9/9/4P4/9/9/9/9/3K5[C] w - - 0 1");
    assert!(!moves.iter().any(|m| m.starts_with("C@e")), "{moves:?}");
    assert!(moves.contains(&"C@d3".to_string()), "{moves:?}");
    // Advisors only in the palace, elephants anywhere on their own half.
    let moves = drops("3k5/9/9/9/9/9/4P4/9/9/4K4[AB] w - - 0 1");
    let advisor: Vec<&String> = moves.iter().filter(|m| m.starts_with("A@")).collect();
    assert_eq!(
        advisor,
        [
            "A@d1", "A@d2", "A@d3", "A@e2", "A@e3", "A@f1", "A@f2", "A@f3"
        ]
    );
    // Forty-five points of its own half, less the general's and the soldier's.
    assert_eq!(
        moves.iter().filter(|m| m.starts_with("B@")).count(),
        9 * 5 - 2
    );
}

#[test]
fn shako_castles_with_the_outermost_rook_on_the_kings_rank() {
    // Fairy-Stockfish: f2h2 and f2d2, the rooks to g2 and e2; written back as KQkq-style rights.
    let g = game("shako");
    let mut pos = Position::from_fen(&g, "4k5/10/10/10/10/10/10/10/ER3K2RE/10 w KQ - 0 1").unwrap();
    let moves = legal_texts(&mut pos);
    assert!(moves.contains(&"f2h2".to_string()) && moves.contains(&"f2d2".to_string()));
    let pos = common::play(&g, "4k5/10/10/10/10/10/10/10/ER3K2RE/10 w KQ - 0 1", "f2d2");
    assert!(
        pos.fen()
            .starts_with("4k5/10/10/10/10/10/10/10/E2KR3RE/10 b - "),
        "{}",
        pos.fen()
    );
    assert!(Position::start(&g).fen().contains(" w KQkq - 0 1"));
    let base = "variant t\nboard 8x8\npiece K king KisO2 royal\npiece R rook R\nstart r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\n";
    let cases = [
        (
            "castling-rook X\n",
            "t.txt:6:15",
            "`X` in the castling-rook piece",
        ),
        ("castling-rook RK\n", "t.txt:6:15", "`RK` names 2 pieces"),
    ];
    assert_positioned_errors(base, &cases);
}

/// Placement chess (Fairy-Stockfish 11.1's `go perft 1` and `d` agree): a side holding pieces must
/// drop one, on its first rank, bishops on both colours; a king dropped on e1 and a rook dropped
/// in a corner beside it may castle.
#[test]
fn placement_drops_come_first_on_both_colours_and_castle() {
    let g = game("placement");
    let mut pos = Position::start(&g);
    let moves = legal_texts(&mut pos);
    assert_eq!(moves.len(), 40, "{moves:?}");
    assert!(
        moves.iter().all(|m| m.contains('@') && m.ends_with('1')),
        "{moves:?}"
    );
    // a1 is the last dark square: the queen may not take it from the bishops.
    let mut pos = Position::from_fen(
        &g,
        "8/pppppppp/8/8/8/8/PPPPPPPP/2KRNRN1[QBBkqrrbbnn] w - - 0 1",
    )
    .expect("fen");
    assert_eq!(
        legal_texts(&mut pos),
        ["B@a1", "B@b1", "B@h1", "Q@b1", "Q@h1"]
    );
    // A rook dropped in the corner beside the king at home gives the castling right.
    let mut pos =
        Position::from_fen(&g, "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3[RRrr] w - - 0 1").expect("fen");
    let before = pos.hash();
    let m = pos.parse_move("R@h1").expect("R@h1");
    pos.make(m);
    assert_eq!(
        pos.fen(),
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K2R[Rrr] b K - 1 1"
    );
    assert_eq!(pos.hash(), pos.fresh_hash());
    pos.unmake();
    assert_eq!(pos.hash(), before);
    assert_eq!(
        pos.fen(),
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3[RRrr] w - - 0 1"
    );
}

#[test]
fn grand_promotes_only_to_a_lost_kind() {
    // Fairy-Stockfish 11.1 (grand, `go perft 1`): with the whole army on the board the pawn on a8
    // may only step to a9 unpromoted, and from a9 it has no move at all; each list below is
    // Fairy-Stockfish's `go perft 1` for the pawn.
    let g = game("grand");
    let pawn_moves = |fen: &str| -> Vec<String> {
        let mut pos = Position::from_fen(&g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        legal_texts(&mut pos)
            .into_iter()
            .filter(|m| m.starts_with("a8") || m.starts_with("a9"))
            .collect()
    };
    let full = "4k5/10/P9/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1";
    assert_eq!(pawn_moves(full), ["a8a9"]);
    let stuck = "4k5/P9/10/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1";
    assert_eq!(pawn_moves(stuck), Vec::<String>::new());
    // The queen and a rook lost: a9 with a promotion to either, or as a pawn; a10 only promoting.
    let lost = "4k5/10/P9/10/10/10/10/10/1NB1KCABN1/R9 w - - 0 1";
    assert_eq!(pawn_moves(lost), ["a8a9", "a8a9q", "a8a9r"]);
    let last = "4k5/P9/10/10/10/10/10/10/1NB1KCABN1/R9 w - - 0 1";
    assert_eq!(pawn_moves(last), ["a9a10q", "a9a10r"]);
    // Once a queen is back, the next pawn may not make another.
    let mut pos =
        Position::from_fen(&g, "4k5/PP8/10/10/10/10/10/10/1NB1KCABN1/R8R w - - 0 1").unwrap();
    let m = pos.parse_move("a9a10q").unwrap();
    pos.make(m);
    let m = pos.parse_move("e10e9").unwrap();
    pos.make(m);
    let b: Vec<String> = legal_texts(&mut pos)
        .into_iter()
        .filter(|m| m.starts_with("b9"))
        .collect();
    assert!(b.is_empty(), "{b:?}");
}

/// Plays `moves` from `fen` in `variant` and returns the position.
fn played(variant: &str, fen: &str, moves: &[&str]) -> Position {
    let g = game(variant);
    let mut pos = Position::from_fen(&g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for m in moves {
        let mv = pos
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e:?}", pos.fen()));
        pos.make(mv);
    }
    pos
}

#[test]
fn shatar_mates_by_the_series_of_checks() {
    // Expected values from Fairy-Stockfish 11.1 (UCI_Variant shatar): `position fen F moves M...`,
    // then `go depth 3 searchmoves X` with X the mating move; its score for X is given per case.
    let result = |fen: &str, moves: &[&str]| {
        played("shatar", fen, moves)
            .game_end()
            .map(|e| (e.winner, e.reason))
    };
    // A smothered mate by the knight alone: `score mate -1` for g5f7, the mated side wins.
    let knight = "6rk/6pp/8/6N1/8/8/8/K7 w - - 0 1";
    assert_eq!(
        result(knight, &["g5f7"]),
        Some((Winner::Black, "checkmate by forbidden pieces"))
    );
    // A rook's mate is its own shak: `score mate 1` for a1a8.
    let rook = "7k/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    assert_eq!(result(rook, &["a1a8"]), Some((Winner::White, "checkmate")));
    // The bishop mates after the rook's check drove the king to h8: `score mate 1` for c1b2.
    let series = "6k1/4K2p/8/8/8/8/4R3/2B5 w - - 0 1";
    assert_eq!(
        result(series, &["e2g2", "g8h8", "c1b2"]),
        Some((Winner::White, "checkmate"))
    );
    // The same mate with no check before it: niol, `score cp 0` for c1b2.
    let alone = "7k/4K2p/8/8/8/8/6R1/2B5 w - - 0 1";
    assert_eq!(
        result(alone, &["c1b2"]),
        Some((Winner::Draw, "checkmate without a series check"))
    );
    // (The same board: only the checks before it differ.)
    let board = |p: Position| p.fen().split(' ').next().unwrap().to_string();
    assert_eq!(
        board(played("shatar", alone, &["c1b2"])),
        board(played("shatar", series, &["e2g2", "g8h8", "c1b2"]))
    );
    // The rook's check, then a quiet move each: the series is broken, `score cp 0` for c1b2.
    let broken = "6k1/p3K2p/8/8/8/8/4R3/2B5 w - - 0 1";
    assert_eq!(
        result(broken, &["e2g2", "g8h8", "g2g3", "a7a6", "c1b2"]),
        Some((Winner::Draw, "checkmate without a series check"))
    );
    // The search scores the mates alike: after the rook's check the bishop's mate is a mate in 1.
    let pos = played("shatar", series, &["e2g2", "g8h8"]);
    assert_eq!(search_depth4(&pos), (Score::Mate(1), "c1b2".to_string()));
    // Without it, c1b2 draws and the knight's mate loses: neither is played as a mate.
    for (fen, mating) in [(alone, "c1b2"), (knight, "g5f7")] {
        let (score, best) = search_fen(&game("shatar"), fen);
        assert!(
            !matches!(score, Score::Mate(n) if n > 0) && best != mating,
            "{fen}: {score:?} {best}"
        );
    }
}

#[test]
fn checkmate_series_is_checked_with_positions() {
    let base = "variant t\nboard 8x8\npiece K king K royal\npiece N knight N\nstart k7/8/8/8/8/8/8/6NK w - - 0 1\n";
    let cases = [
        (
            "checkmate-series X\n",
            "t.txt:6:18",
            "`X` in the checkmate-series pieces",
        ),
        (
            "checkmate-series N by N\n",
            "t.txt:6:20",
            "`by` after the checkmate-series kinds: expected `not-by LETTERS`",
        ),
        (
            "checkmate-series N not-by Y\n",
            "t.txt:6:27",
            "`Y` in the checkmate-series `not-by` pieces",
        ),
    ];
    assert_positioned_errors(base, &cases);
}

#[test]
fn shatranj_a_bare_king_may_bare_back_only_a_single_piece() {
    // Fairy-Stockfish (`go perft 1`): Black bared by a king and one ferz moves once (3 moves),
    // and has lost once it has moved without baring White back.
    assert_eq!(end("shatranj", "8/8/8/7k/5K2/8/3Q4/8 b - - 0 1"), None);
    assert_eq!(
        end("shatranj", "8/8/8/7k/5K2/8/3Q4/8 w - - 0 1"),
        Some((Winner::White, "bare king"))
    );
    // Against two ferzes no reply bares White: no moves, lost at once.
    assert_eq!(
        end("shatranj", "8/8/8/7k/5K2/8/3QQ3/8 b - - 0 1"),
        Some((Winner::White, "bare king"))
    );
}
