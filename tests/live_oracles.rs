//! Live cross-checks against engines we did not write, on fresh positions from seeded random play:
//! Fairy-Stockfish's `go perft` (chess, shatranj, courier, capablanca, makruk) and Fairy-Max's legal
//! moves for Grant Acedrex (../shared/tools/fairymax-legal). Outside CI a missing oracle skips with a
//! message; under CI=true it fails.

mod common;

use acedrex::movegen::perft::perft;
use acedrex::position::Position;
use common::{Rng, fairymax_moves, game, random_walk};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

const FSF: &str = "/usr/games/fairy-stockfish";

fn oracle_present(path: &str) -> bool {
    if Path::new(path).exists() {
        return true;
    }
    assert!(
        std::env::var("CI").is_err(),
        "oracle {path} is missing under CI"
    );
    eprintln!("skipping: {path} is not installed");
    false
}

/// Fairy-Stockfish's perft for a FEN.
fn fsf_perft(variant: &str, fen: &str, depth: u32) -> u64 {
    let mut child = Command::new(FSF)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start fairy-stockfish");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(
        stdin,
        "uci\nsetoption name UCI_Variant value {variant}\nposition fen {fen}\ngo perft {depth}"
    )
    .expect("write");
    let mut nodes = None;
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("line");
        if let Some(n) = line.strip_prefix("Nodes searched: ") {
            nodes = Some(n.trim().parse().expect("count"));
            break;
        }
    }
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let _ = child.wait();
    nodes.expect("Fairy-Stockfish printed no node count")
}

#[test]
fn perft_equals_fairy_stockfish_on_fresh_random_positions() {
    if !oracle_present(FSF) {
        return;
    }
    let seed = std::env::var("ACEDREX_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2026);
    for variant in ["chess", "shatranj", "courier", "capablanca", "makruk"] {
        let g = game(variant);
        let mut rng = Rng(seed ^ variant.len() as u64);
        for _ in 0..4 {
            let mut pos = Position::start(&g);
            let plies = 10 + rng.below(50);
            random_walk(&mut pos, &mut rng, plies);
            // Fairy-Stockfish ends shatranj and courier games at a bare king; skip those positions.
            if pos.is_bare(acedrex::position::Side::White)
                || pos.is_bare(acedrex::position::Side::Black)
            {
                continue;
            }
            let fen = pos.fen();
            assert_eq!(
                perft(&mut pos, 3),
                fsf_perft(variant, &fen, 3),
                "{variant} {fen}"
            );
        }
    }
}

#[test]
fn legal_moves_equal_fairy_max_on_fresh_random_games() {
    let tool =
        std::env::var("FAIRYMAX_LEGAL").unwrap_or_else(|_| "../shared/tools/fairymax-legal".into());
    if !oracle_present("/usr/games/fairymax") || !oracle_present(&tool) {
        return;
    }
    let g = game("grant-acedrex");
    let mut rng = Rng(std::env::var("ACEDREX_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7));
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
        let out = Command::new("python3")
            .arg(&tool)
            .arg("--moves")
            .arg(played.join(" "))
            .output()
            .expect("run fairymax-legal");
        assert!(
            out.status.success(),
            "fairymax-legal failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut theirs: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .map(String::from)
            .collect();
        let ours = fairymax_moves(&mut pos);
        theirs.sort();
        assert_eq!(ours, theirs, "after {}", played.join(" "));
    }
}
