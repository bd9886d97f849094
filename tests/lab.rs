//! The strength lab end to end: the shipped suites load, and `acedrex sprt` plays the binary against
//! itself over UCI, appends its pairs and resumes from them.

use std::path::{Path, PathBuf};
use std::process::Command;

fn acedrex() -> &'static str {
    env!("CARGO_BIN_EXE_acedrex")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("acedrex-lab-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every shipped variant has a suite whose positions load and are not over.
#[test]
fn every_variant_has_a_suite() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in acedrex::variant::builtin_names() {
        let path = root.join("openings").join(format!("{name}.fen"));
        let fens = acedrex::lab::openings::read(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(fens.len() >= 100, "{name}: only {} openings", fens.len());
        let game = acedrex::game::Game::new(acedrex::variant::load(name).unwrap());
        let mut seen = std::collections::HashSet::new();
        for f in &fens {
            let mut pos = acedrex::position::Position::from_fen(&game, f)
                .unwrap_or_else(|e| panic!("{name}: {f}: {e}"));
            assert!(pos.game_end().is_none(), "{name}: {f} is over");
            assert!(seen.insert(pos.hash()), "{name}: {f} twice");
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(&format!("acedrex openings --variant {name} ")),
            "{name}: the header names its command"
        );
    }
}

/// A suite written as moves (for a peer that cannot take a FEN) replays legally from the start
/// and names its command.
#[test]
fn move_suites_replay_from_the_start() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in acedrex::variant::builtin_names() {
        let path = root.join("openings").join(format!("{name}.moves"));
        if !path.exists() {
            continue;
        }
        let lines = acedrex::lab::openings::read(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(lines.len() >= 20, "{name}: only {} openings", lines.len());
        let game = acedrex::game::Game::new(acedrex::variant::load(name).unwrap());
        let mut seen = std::collections::HashSet::new();
        for line in &lines {
            let mut pos = acedrex::position::Position::start(&game);
            for text in line.split_whitespace() {
                let m = pos
                    .parse_move(text)
                    .unwrap_or_else(|e| panic!("{name}: {line}: {e}"));
                pos.make(m);
            }
            assert!(pos.game_end().is_none(), "{name}: {line} is over");
            assert!(seen.insert(pos.hash()), "{name}: {line} twice");
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(&format!("acedrex openings --variant {name} "))
                && text.contains("--moves"),
            "{name}: the header names its command"
        );
    }
}

/// Writes a three-opening shatranj suite into `dir`.
fn write_suite(dir: &Path) {
    let out = Command::new(acedrex())
        .args(["openings", "--variant", "shatranj", "--count", "3"])
        .args(["--depth", "3"])
        .arg("-o")
        .arg(dir.join("suite.fen"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The binary against itself at shatranj on `dir`'s suite and results file, `nodes` a move.
fn sprt(dir: &Path, nodes: u32, games: u32, extra: &[&str]) -> std::process::Output {
    let bin = acedrex();
    Command::new(bin)
        .args(["sprt", "--new", bin, "--base", bin, "--variant", "shatranj"])
        .arg("--openings")
        .arg(dir.join("suite.fen"))
        .arg("--results")
        .arg(dir.join("results.txt"))
        .args([
            "--nodes",
            &nodes.to_string(),
            "--max-games",
            &games.to_string(),
        ])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn sprt_plays_pairs_and_resumes() {
    let dir = scratch("resume");
    write_suite(&dir);
    let out = sprt(&dir, 2000, 2, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("games 2 (1 pairs)"), "{report}");
    let results = std::fs::read_to_string(dir.join("results.txt")).unwrap();
    assert_eq!(results.lines().count(), 2, "{results}");
    // The same engine at fixed nodes plays the same game from each side: the pair scores 1.
    assert!(report.contains("pentanomial [0, 0, 1, 0, 0]"), "{report}");
    // Started again with a larger limit: one more pair, after the one on file.
    let out = sprt(&dir, 2000, 4, &[]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("games 4 (2 pairs)"), "{report}");
    let results = std::fs::read_to_string(dir.join("results.txt")).unwrap();
    let pairs: Vec<&str> = results.lines().skip(1).collect();
    assert_eq!(pairs.len(), 2, "{results}");
    assert!(pairs[0].starts_with("pair 0 opening 1 "), "{results}");
    assert!(pairs[1].starts_with("pair 1 opening 2 "), "{results}");
    // Asked for more games than the three openings give, a node-limited run stops after one
    // pass through the suite: a second would replay the same games.
    let out = sprt(&dir, 2000, 20, &[]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("games 6 (3 pairs)"), "{report}");
    assert!(
        report.contains("all 3 openings of the suite are played"),
        "{report}"
    );
    // Other settings on the same file are refused rather than mixed.
    let out = sprt(&dir, 3000, 6, &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("other settings"));
    let _ = std::fs::remove_dir_all(&dir);
}

fn tune(dir: &Path, games: u32, nodes: u32) -> std::process::Output {
    Command::new(acedrex())
        .args(["tune", "--variant", "shatranj"])
        .arg("--openings")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/shatranj.fen"))
        .arg("--data")
        .arg(dir.join("data.txt"))
        .arg("-o")
        .arg(dir.join("tuned.txt"))
        .args(["--games", &games.to_string(), "--nodes", &nodes.to_string()])
        .args(["--passes", "3", "--match-games", "2"])
        .output()
        .unwrap()
}

/// `acedrex tune` end to end: games appended to the data file and resumed from it, a fit that
/// does not raise the error, an `eval` line the variant file accepts, a two-game match.
#[test]
fn tune_plays_fits_and_resumes() {
    let dir = scratch("tune");
    let out = tune(&dir, 2, 300);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = std::fs::read_to_string(dir.join("data.txt")).unwrap();
    assert!(first.starts_with("# acedrex tune data; variant shatranj\n"));
    assert_eq!(first.matches("\n# game ").count(), 2, "{first}");
    let out = tune(&dir, 3, 300);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let second = std::fs::read_to_string(dir.join("data.txt")).unwrap();
    assert!(second.starts_with(&first), "the second run appends");
    assert_eq!(second.matches("\n# game ").count(), 3);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("3 games, "), "{stdout}");
    // error BEFORE -> AFTER: the fit never raises it.
    let errors: Vec<f64> = stdout
        .split_once("error ")
        .unwrap()
        .1
        .split_whitespace()
        .take(3)
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(errors.len() == 2 && errors[1] <= errors[0], "{stdout}");
    assert!(
        stdout.contains("tuned against untuned: 2 games"),
        "{stdout}"
    );
    let tuned = std::fs::read_to_string(dir.join("tuned.txt")).unwrap();
    let line = stdout.lines().find(|l| l.starts_with("eval ")).unwrap();
    assert!(tuned.ends_with(&format!("{line}\n")), "{tuned}");
    let v = acedrex::variant::parse_variant("tuned.txt", &tuned).unwrap();
    assert_eq!(v.eval.line().as_deref(), Some(line));
    // Each game's line records its nodes, and the note over the `eval` line gives the data's
    // nodes even when this run's `--nodes` differs and it plays no game.
    assert_eq!(second.matches(" nodes 300\n").count(), 3, "{second}");
    let out = tune(&dir, 3, 700);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_to_string(dir.join("data.txt")).unwrap(),
        second
    );
    let tuned = std::fs::read_to_string(dir.join("tuned.txt")).unwrap();
    assert!(
        tuned.contains("of 3 games at 300 nodes per move"),
        "{tuned}"
    );
    // A data file of another variant is refused.
    let out = Command::new(acedrex())
        .args(["tune", "--variant", "chess", "--data"])
        .arg(dir.join("data.txt"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not the data of `chess`"));
}

/// `--new-nodes` gives the new engine its own node count (a gauntlet against a fixed opponent):
/// the same binary at 10 nodes a move against itself at 3,000 loses every game, and the results
/// file records the odds, so a run without them cannot resume it. (At 30 nodes one game reaches
/// a position where the stronger side sees nothing better than equality and gives perpetual
/// check: a draw.)
#[test]
fn sprt_node_odds() {
    let dir = scratch("odds");
    write_suite(&dir);
    let out = sprt(&dir, 3000, 4, &["--new-nodes", "10"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("+0 =0 -4"), "{report}");
    let results = std::fs::read_to_string(dir.join("results.txt")).unwrap();
    assert!(results.contains("nodes 3000 new nodes 10 "), "{results}");
    let out = sprt(&dir, 3000, 4, &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("other settings"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `acedrex tune --engine` plays the data games with a UCI engine and referees them: here acedrex
/// itself behind a script that logs what it is asked, and a fake engine whose move is illegal.
#[cfg(unix)]
#[test]
fn tune_with_an_engine() {
    let dir = scratch("tune-engine");
    let log = dir.join("asked.txt");
    let logged = logged_engine(&dir, "logged.sh", &log);
    let run = |engine: &Path, data: &str| {
        Command::new(acedrex())
            .args(["tune", "--variant", "shatranj", "--engine"])
            .arg(engine)
            .arg("--openings")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/shatranj.fen"))
            .arg("--data")
            .arg(dir.join(data))
            .args(["--games", "2", "--nodes", "300", "--passes", "2"])
            .args(["--match-games", "0"])
            .output()
            .unwrap()
    };
    let out = run(&logged, "data.txt");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let data = std::fs::read_to_string(dir.join("data.txt")).unwrap();
    assert_eq!(data.matches("\n# game ").count(), 2, "{data}");
    assert!(
        data.lines().filter(|l| !l.starts_with('#')).count() > 10,
        "{data}"
    );
    let asked = std::fs::read_to_string(&log).unwrap();
    assert!(asked.contains("setoption name UCI_Variant value shatranj"));
    // Every move was the engine's, each at 300 nodes ± 20 %.
    let nodes: Vec<u64> = asked
        .lines()
        .filter_map(|l| l.strip_prefix("go nodes "))
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(nodes.len() > 10, "{asked}");
    assert!(nodes.iter().all(|n| (240..=360).contains(n)), "{nodes:?}");
    // An engine whose move is illegal stops the run with its name and move.
    let fake = script(
        &dir,
        "fake.sh",
        "while read -r line; do case \"$line\" in\n\
         uci) echo uciok;; isready) echo readyok;; go*) echo 'bestmove a1a1';; quit) exit;;\n\
         esac; done\n"
            .into(),
    );
    let out = run(&fake, "fake.txt");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("illegal move a1a1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--label-engine`: the fit's positions are labelled by a UCI engine's search of each at the
/// depth asked, not by the results of their games.
#[cfg(unix)]
#[test]
fn tune_labelled_by_an_engine() {
    let dir = scratch("tune-label");
    let log = dir.join("asked.txt");
    let logged = logged_engine(&dir, "logged.sh", &log);
    let run = |label: Option<&Path>| {
        let mut cmd = Command::new(acedrex());
        cmd.args(["tune", "--variant", "shatranj", "--openings"])
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/shatranj.fen"))
            .arg("--data")
            .arg(dir.join("data.txt"))
            .args(["--games", "2", "--nodes", "300", "--passes", "2"])
            .args(["--match-games", "0"]);
        if let Some(engine) = label {
            cmd.arg("--label-engine")
                .arg(engine)
                .args(["--label-depth", "2"]);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let by_results = run(None);
    let by_engine = run(Some(&logged));
    let data = std::fs::read_to_string(dir.join("data.txt")).unwrap();
    let asked = std::fs::read_to_string(&log).unwrap();
    // One search of the depth asked per position fitted or held out, of that position.
    let counts: Vec<usize> = by_engine
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    let (fitted, held) = (counts[1], counts[2]);
    assert!(fitted > 10, "{by_engine}");
    assert_eq!(
        asked.lines().filter(|l| *l == "go depth 2").count(),
        fitted + held,
        "{asked}"
    );
    for fen in asked
        .lines()
        .filter_map(|l| l.strip_prefix("position fen "))
    {
        assert!(
            data.lines().any(|l| l.ends_with(fen)),
            "{fen} not in {data}"
        );
    }
    // The engine's judgement is not the games' results: the fit starts from another error.
    let error = |out: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix("error "))
            .unwrap()
            .to_string()
    };
    assert_ne!(error(&by_results), error(&by_engine));
    let _ = std::fs::remove_dir_all(&dir);
}

/// An executable shell script in `dir`.
#[cfg(unix)]
fn script(dir: &Path, name: &str, body: String) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// acedrex behind a script that logs what it is told to `log`.
#[cfg(unix)]
fn logged_engine(dir: &Path, name: &str, log: &Path) -> PathBuf {
    script(
        dir,
        name,
        format!("tee {} | exec {}\n", log.display(), acedrex()),
    )
}

/// `--new-file`: the new engine loads a variant file of the same variant by `VariantPath`, the
/// base engine does not; the results file records it; a file of another variant is refused.
#[cfg(unix)]
#[test]
fn sprt_new_file() {
    let dir = scratch("new-file");
    write_suite(&dir);
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/shatranj.txt");
    let file = dir.join("trial.txt");
    std::fs::copy(&shipped, &file).unwrap();
    let (new_log, base_log) = (dir.join("new.txt"), dir.join("base.txt"));
    let new = logged_engine(&dir, "new.sh", &new_log);
    let base = logged_engine(&dir, "base.sh", &base_log);
    let run = |file: &Path| {
        Command::new(acedrex())
            .args(["sprt", "--variant", "shatranj", "--new"])
            .arg(&new)
            .arg("--base")
            .arg(&base)
            .arg("--new-file")
            .arg(file)
            .arg("--openings")
            .arg(dir.join("suite.fen"))
            .arg("--results")
            .arg(dir.join("results.txt"))
            .args(["--nodes", "200", "--max-games", "2"])
            .output()
            .unwrap()
    };
    let out = run(&file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let told = |log: &Path| std::fs::read_to_string(log).unwrap();
    let path_option = format!("setoption name VariantPath value {}", file.display());
    assert!(told(&new_log).contains(&path_option), "{}", told(&new_log));
    assert!(
        !told(&base_log).contains("VariantPath"),
        "{}",
        told(&base_log)
    );
    let results = std::fs::read_to_string(dir.join("results.txt")).unwrap();
    assert!(
        results.contains(&format!(" new file {} ", file.display())),
        "{results}"
    );
    let other = dir.join("chess.txt");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/chess.txt"),
        &other,
    )
    .unwrap();
    let out = run(&other);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("variant `chess`, not `shatranj`"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
