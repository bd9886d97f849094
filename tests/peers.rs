//! The peer harness itself (tests/peers): the scripts compile, and the match runner's PGN reading,
//! ending classes and time controls hold on known XBoard output (its `selftest`, no XBoard needed).

mod common;

use common::{need_program, peer_script};
use std::process::Command;

fn python(args: &[&str]) -> (bool, String) {
    let out = Command::new("python3")
        .args(args)
        .output()
        .expect("run python3");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn the_harness_scripts_compile() {
    if !need_program(
        "the_harness_scripts_compile",
        "python3",
        &["--version"],
        "apt-get install -y python3",
    ) {
        return;
    }
    for script in ["fairymax_legal.py", "fairy_stockfish.py", "xboard_match.py"] {
        let path = peer_script(script).display().to_string();
        let code = format!("import ast, sys; ast.parse(open({path:?}).read(), {path:?})");
        let (ok, text) = python(&["-c", &code]);
        assert!(ok, "{script}: {text}");
    }
}

#[test]
fn the_match_runner_reads_xboard_output() {
    if !need_program(
        "the_match_runner_reads_xboard_output",
        "python3",
        &["--version"],
        "apt-get install -y python3",
    ) {
        return;
    }
    let path = peer_script("xboard_match.py").display().to_string();
    let (ok, text) = python(&[&path, "selftest"]);
    assert!(ok && text.contains("selftest ok"), "{text}");
}
