//! The command line as a shell uses it.

use std::process::{Command, Stdio};

/// Output into a pipe whose reader has gone (`acedrex piece ... | head -1`): the command stops
/// quietly instead of panicking.
#[test]
fn closed_pipe_ends_quietly() {
    for args in [
        &["piece", "t[FR]"][..],
        &["moves", "--variant", "chess"],
        &["perft", "1", "--divide", "--variant", "chess"],
        &["show", "--variant", "chess"],
        &["eval", "--variant", "chess"],
    ] {
        // The reader is closed before the command starts, so its first write fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_acedrex"))
            .args(args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.is_empty(), "{args:?} wrote to stderr: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
    }
}

/// `--hash` sets the table size a protocol session starts with; out of range is refused by name.
#[test]
fn hash_flag_is_bounded() {
    let run = |args: &[&str], input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_acedrex"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    for protocol in ["uci", "xboard"] {
        let out = run(&[protocol, "--hash", "0"], "");
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--hash"),
            "{out:?}"
        );
    }
    let out = run(
        &["uci", "--hash", "1"],
        "isready\nposition startpos\ngo depth 2\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("bestmove"), "{text}");
    let out = run(
        &["xboard", "--hash", "65536"],
        "xboard\nprotover 2\nping 3\nquit\n",
    );
    // Where the machine cannot give that much, the default table stays and the session goes on.
    assert!(String::from_utf8_lossy(&out.stdout).contains("pong 3"));
}

/// `acedrex variants` lists every shipped variant once, and a misspelt name gets the closest ones.
#[test]
fn variants_are_listed_and_misspellings_suggested() {
    let out = Command::new(env!("CARGO_BIN_EXE_acedrex"))
        .arg("variants")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names, acedrex::variant::builtin_names(), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_acedrex"))
        .args(["moves", "--variant", "capablnca"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("did you mean `capablanca`"), "{err}");
}

/// `acedrex eval`: the terms of each side, the phase, the totals; the same position as the UCI
/// `eval` command.
#[test]
fn eval_prints_the_terms() {
    let out = Command::new(env!("CARGO_BIN_EXE_acedrex"))
        .args(["eval", "--variant", "capablanca", "--moves", "e2e4"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    insta::assert_snapshot!(String::from_utf8(out.stdout).unwrap());
}
