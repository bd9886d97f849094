//! Every case of the XBetza test vectors (45 pieces on an empty 12×12 board, 17 blocker
//! scenarios, all from f6): destinations must match exactly.
//! Source: tests/data/xbetza-vectors.json, computed by an independent reference interpreter and
//! cross-checked against XBoard's MovesFromString and Fairy-Stockfish (docs: xbetza.md §4).

use acedrex::explore::{Probe, destinations, list_line};
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("data/xbetza-vectors.json")).expect("valid JSON")
}

fn probe() -> Probe {
    Probe {
        files: 12,
        ranks: 12,
        at: "f6".into(),
        friends: vec![],
        enemies: vec![],
        black: false,
        moved: false,
    }
}

fn names(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v
        .as_array()
        .expect("list")
        .iter()
        .map(|s| s.as_str().expect("square").to_string())
        .collect();
    out.sort();
    out
}

#[test]
fn quiet_moves_on_an_empty_board() {
    let mut failures = Vec::new();
    for case in vectors()["pieces"].as_array().expect("pieces") {
        let betza = case["betza"].as_str().expect("betza");
        let got = destinations(betza, &probe()).unwrap_or_else(|e| panic!("{betza}: {e}"));
        let mut got: Vec<String> = got.iter().map(|d| d.name()).collect();
        got.sort();
        let want = names(&case["quiet"]);
        if got != want {
            failures.push(format!("{betza}: got {got:?}\n   want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn capture_targets_with_a_lone_enemy() {
    let mut failures = Vec::new();
    for case in vectors()["pieces"].as_array().expect("pieces") {
        let betza = case["betza"].as_str().expect("betza");
        let mut got = Vec::new();
        for f in 0..12u8 {
            for r in 1..=12u8 {
                let sq = format!("{}{}", (b'a' + f) as char, r);
                if sq == "f6" {
                    continue;
                }
                let p = Probe {
                    enemies: vec![sq.clone()],
                    ..probe()
                };
                let d = destinations(betza, &p).unwrap_or_else(|e| panic!("{betza}: {e}"));
                if d.iter().any(|d| d.capture && d.name() == format!("{sq}x")) {
                    got.push(sq);
                }
            }
        }
        got.sort();
        let want = names(&case["capture"]);
        if got != want {
            failures.push(format!("{betza}: got {got:?}\n   want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn blocker_scenarios() {
    let mut failures = Vec::new();
    for case in vectors()["scenarios"].as_array().expect("scenarios") {
        let betza = case["betza"].as_str().expect("betza");
        let mut p = probe();
        for (sq, who) in case["blockers"].as_object().expect("blockers") {
            match who.as_str() {
                Some("F") => p.friends.push(sq.clone()),
                _ => p.enemies.push(sq.clone()),
            }
        }
        let got = list_line(&destinations(betza, &p).unwrap_or_else(|e| panic!("{betza}: {e}")));
        let mut want: Vec<(String, String)> = case["destinations"]
            .as_object()
            .expect("destinations")
            .iter()
            .map(|(sq, kinds)| {
                (
                    sq.clone(),
                    if kinds.as_array().expect("kinds").iter().any(|k| k == "c") {
                        "x".into()
                    } else {
                        String::new()
                    },
                )
            })
            .collect();
        want.sort_by_key(|(sq, _)| {
            let b = sq.as_bytes();
            (b[0], sq[1..].parse::<u8>().expect("rank"))
        });
        let want = want
            .iter()
            .map(|(s, x)| format!("{s}{x}"))
            .collect::<Vec<_>>()
            .join(" ");
        if got != want {
            failures.push(format!(
                "{betza} {:?}: got  {got}\n   want {want}",
                case["blockers"]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn black_pawn_moves_towards_rank_one() {
    let p = Probe {
        black: true,
        enemies: vec!["e5".into(), "g5".into(), "e7".into()],
        ..probe()
    };
    assert_eq!(
        list_line(&destinations("fmWfcF", &p).expect("valid")),
        "e5x f5 g5x"
    );
}
