//! Live cross-checks against engines we did not write, on fresh positions from seeded random play:
//! Fairy-Stockfish's `go perft` (every variant in FAIRY_STOCKFISH_VARIANTS) and Fairy-Max's legal
//! moves for Grant Acedrex, both driven through the repository's peer harness (tests/peers). A missing
//! peer skips with a message, and fails under CI=true.

mod common;

use acedrex::movegen::perft::perft;
use acedrex::position::Position;
use common::{Rng, fairymax_moves, game, need_peer_script, peer_script, random_walk};
use std::io::Write;
use std::process::{Command, Stdio};

const FSF: &str = "/usr/games/fairy-stockfish";
const FAIRYMAX: &str = "/usr/games/fairymax";

/// The shipped variants Fairy-Stockfish plays under the same name, checked live against its perft.
const FAIRY_STOCKFISH_VARIANTS: &[&str] = &[
    "chess",
    "shatranj",
    "courier",
    "capablanca",
    "makruk",
    "nocastle",
    "amazon",
    "hoppelpoppel",
    "newzealand",
    "knightmate",
    "almost",
    "chigorin",
    "gardner",
    "losalamos",
    "gothic",
    "embassy",
    "janus",
    "centaur",
    "modern",
    "chancellor",
    "3check",
    "5check",
    "kingofthehill",
    "racingkings",
    "extinction",
    "kinglet",
    "threekings",
    "crazyhouse",
    "loop",
    "chessgi",
    "capahouse",
    "pocketknight",
    "bughouse",
    "koedem",
    "sittuyin",
    "xiangqi",
    "minixiangqi",
    "manchu",
    "antichess",
    "giveaway",
    "suicide",
    "losers",
    "horde",
    "shogi",
    "minishogi",
    "judkins",
    "gorogoro",
    "euroshogi",
    "dobutsu",
    "mini",
    "kyotoshogi",
    "micro",
    "supply",
    "placement",
    "fischerandom",
    "caparandom",
    "janggi",
    "janggitraditional",
    "janggimodern",
    "janggicasual",
    "asean",
    "ai-wok",
    "makpong",
    "cambodian",
    "karouk",
    "breakthrough",
    "clobber",
    "clobber10",
    "jesonmor",
    "codrus",
    "shatar",
    "seirawan",
    "shouse",
    "shako",
    "grand",
    "fairy",
];

/// Variants whose hands come from the partner's board: walks from the start never fill a hand, so
/// theirs start from full holdings.
const HAND_STARTS: &[(&str, &str)] = &[
    (
        "supply",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR[RNBACPrnbacp] w - - 0 1",
    ),
    (
        "bughouse",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QRBNPqrbnp] w KQkq - 0 1",
    ),
    (
        "koedem",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[KQRBNPkqrbnp] w KQkq - 0 1",
    ),
];

fn seed(default: u64) -> u64 {
    std::env::var("ACEDREX_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Runs a peer script with `lines` on stdin (its --batch mode); returns one output line per input line.
fn batch(script: &str, args: &[&str], lines: &[String]) -> Vec<String> {
    let mut child = Command::new("python3")
        .arg(peer_script(script))
        .args(args)
        .arg("--batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start python3");
    let mut stdin = child.stdin.take().expect("stdin");
    for l in lines {
        writeln!(stdin, "{l}").expect("write");
    }
    drop(stdin);
    let out = child.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "{script} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(answers.len(), lines.len(), "{script}: one answer per query");
    answers
}

#[test]
fn perft_equals_fairy_stockfish_on_fresh_random_positions() {
    let test = "perft_equals_fairy_stockfish_on_fresh_random_positions";
    if !need_peer_script(test, FSF, "apt-get install -y fairy-stockfish") {
        return;
    }
    let seed = seed(2026);
    let mut checked = 0;
    for variant in FAIRY_STOCKFISH_VARIANTS {
        let g = game(variant);
        let mut rng = Rng(seed ^ variant.len() as u64);
        let mut cases = Vec::new();
        for _ in 0..4 {
            // Shuffle variants walk from a fresh arrangement of their back rank.
            let hands = HAND_STARTS.iter().find(|(v, _)| v == variant);
            let mut pos = match (&g.variant.shuffle, hands) {
                (_, Some((_, fen))) => Position::from_fen(&g, fen).expect("a start with holdings"),
                (Some(_), None) => {
                    let n = rng.below(usize::MAX) as u64;
                    Position::from_setup(&g, &g.variant.random_start(n)).expect("a start")
                }
                (None, None) => Position::start(&g),
            };
            let plies = 10 + rng.below(50);
            random_walk(&mut pos, &mut rng, plies);
            // Fairy-Stockfish ends shatranj and courier games at a bare king; skip those positions.
            if pos.is_bare(acedrex::position::Side::White)
                || pos.is_bare(acedrex::position::Side::Black)
            {
                continue;
            }
            // Fairy-Stockfish gets the FEN alone: count from it too, without the walk's history
            // (a pass just made would otherwise let the next pass end the game).
            let fen = pos.fen();
            let mut fresh = Position::from_fen(&g, &fen).expect("own FEN");
            cases.push((fen, perft(&mut fresh, 3)));
        }
        let fens: Vec<String> = cases.iter().map(|(f, _)| f.clone()).collect();
        let theirs = batch(
            "fairy_stockfish.py",
            &["--engine", FSF, "--variant", variant, "--depth", "3"],
            &fens,
        );
        for ((fen, ours), theirs) in cases.iter().zip(theirs) {
            assert_eq!(ours.to_string(), theirs, "{variant} {fen}");
            checked += 1;
        }
    }
    assert!(
        checked >= 2 * FAIRY_STOCKFISH_VARIANTS.len(),
        "only {checked} positions compared"
    );
}

/// Janggi's ends depend on the game's history (two passes, a pass under bikjang): along seeded
/// random games from the start, given to Fairy-Stockfish as `startpos moves ...`, the legal moves
/// agree at every ply, and both list none once the game has ended. Passes are played often.
#[test]
fn janggi_moves_and_ends_equal_fairy_stockfish_along_random_games() {
    let test = "janggi_moves_and_ends_equal_fairy_stockfish_along_random_games";
    if !need_peer_script(test, FSF, "apt-get install -y fairy-stockfish") {
        return;
    }
    let mut ended = 0;
    for variant in [
        "janggi",
        "janggitraditional",
        "janggimodern",
        "janggicasual",
    ] {
        let g = game(variant);
        let mut rng = Rng(seed(12) ^ variant.len() as u64);
        let (mut queries, mut ours) = (Vec::new(), Vec::new());
        for _ in 0..4 {
            let mut pos = Position::start(&g);
            let mut played: Vec<String> = Vec::new();
            for _ in 0..80 {
                let moves = pos.legal_moves();
                let mut list: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
                list.sort();
                queries.push(format!("startpos moves {}", played.join(" ")));
                ours.push(list);
                if moves.is_empty() {
                    ended += 1;
                    break;
                }
                let pass = moves
                    .iter()
                    .position(|m| m.kind() == acedrex::position::MoveKind::Pass);
                let m = match pass {
                    Some(i) if rng.below(3) == 0 => moves[i],
                    _ => moves[rng.below(moves.len())],
                };
                played.push(pos.move_text(m));
                pos.make(m);
            }
        }
        let answers = batch(
            "fairy_stockfish.py",
            &[
                "--engine",
                FSF,
                "--variant",
                variant,
                "--depth",
                "1",
                "--divide",
            ],
            &queries,
        );
        for ((query, ours), answer) in queries.iter().zip(&ours).zip(answers) {
            let v: serde_json::Value = serde_json::from_str(&answer).expect("json");
            let mut theirs: Vec<String> = v["moves"]
                .as_object()
                .expect("moves")
                .keys()
                .cloned()
                .collect();
            theirs.sort();
            assert_eq!(ours, &theirs, "{variant} {query}");
        }
    }
    assert!(ended > 0, "no random game reached an end");
}

#[test]
fn legal_moves_equal_fairy_max_on_fresh_random_games() {
    let test = "legal_moves_equal_fairy_max_on_fresh_random_games";
    if !need_peer_script(test, FAIRYMAX, "apt-get install -y fairymax") {
        return;
    }
    let g = game("grant-acedrex");
    let mut rng = Rng(seed(7));
    let mut games = Vec::new();
    for _ in 0..6 {
        let mut pos = Position::start(&g);
        let mut played = Vec::new();
        for _ in 0..(5 + rng.below(60)) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let mut text = pos.move_text(m);
            if m.promotion().is_some() {
                text.pop(); // Fairy-Max promotes by itself
            }
            played.push(text);
            pos.make(m);
        }
        games.push((played.join(" "), fairymax_moves(&mut pos)));
    }
    let queries: Vec<String> = games.iter().map(|(p, _)| p.clone()).collect();
    let answers = batch(
        "fairymax_legal.py",
        &["--engine", FAIRYMAX, "--variant", "grande-acedrex"],
        &queries,
    );
    for ((played, ours), answer) in games.iter().zip(answers) {
        assert!(
            !answer.starts_with("rejected"),
            "Fairy-Max {answer} after {played}"
        );
        let mut theirs: Vec<String> = answer.split_whitespace().map(String::from).collect();
        theirs.sort();
        assert_eq!(ours, &theirs, "after {played}");
    }
}
