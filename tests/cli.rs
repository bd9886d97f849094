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
