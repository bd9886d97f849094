//! A UCI engine run as a child process: one reader thread turns its output into lines on a channel,
//! so that every wait has a deadline and a hung or crashed engine is a fault, not a hang.

use super::LabError;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` or `isready`.
const HANDSHAKE: Duration = Duration::from_secs(30);

/// What one `go` returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub bestmove: String,
    /// The last score the engine reported, in centipawns from its own side (mates as ±100000).
    pub score: Option<i32>,
    pub elapsed: Duration,
}

/// A running UCI engine.
pub struct UciEngine {
    pub name: String,
    /// Nodes per move for this engine where a node-limited run gives it its own count (node
    /// odds against a fixed opponent), else the run's.
    pub nodes: Option<u64>,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// What a UCI engine is sent as `VariantPath` for `variant` (a shipped name, or a file's path):
/// nothing for a shipped variant, the file otherwise.
pub fn variant_path(variant: &str) -> Option<PathBuf> {
    crate::variant::builtin(variant)
        .is_none()
        .then(|| PathBuf::from(variant))
}

impl UciEngine {
    /// Starts `path` (no arguments: acedrex detects UCI from the first line), completes the
    /// handshake and selects the variant with `UCI_Variant` (after `VariantPath` when the
    /// variant is a file).
    pub fn start(
        path: &Path,
        name: &str,
        variant: &str,
        variant_path: Option<&Path>,
        hash_mb: usize,
    ) -> Result<UciEngine, LabError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| LabError::io(path, e))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = UciEngine {
            name: name.to_string(),
            nodes: None,
            child,
            stdin,
            lines: rx,
        };
        e.send("uci")?;
        e.wait_for("uciok", HANDSHAKE)?;
        e.send(&format!("setoption name Hash value {hash_mb}"))?;
        e.send("setoption name Threads value 1")?;
        if let Some(p) = variant_path {
            e.send(&format!("setoption name VariantPath value {}", p.display()))?;
        }
        e.send(&format!("setoption name UCI_Variant value {variant}"))?;
        e.ready()?;
        Ok(e)
    }

    fn fault(&self, what: impl Into<String>) -> LabError {
        LabError::Engine {
            engine: self.name.clone(),
            what: what.into(),
        }
    }

    pub fn send(&mut self, line: &str) -> Result<(), LabError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| self.fault(format!("cannot write `{line}`: {e}")))
    }

    /// Reads lines until one starts with `word`; returns it. Errors on timeout or exit.
    fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<String, LabError> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.next_line(deadline, word)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    fn next_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, LabError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => {
                Err(self.fault(format!("no `{waiting_for}` in time")))
            }
            Err(RecvTimeoutError::Disconnected) => {
                Err(self.fault(format!("exited while we waited for `{waiting_for}`")))
            }
        }
    }

    /// `isready` → `readyok`.
    pub fn ready(&mut self) -> Result<(), LabError> {
        self.send("isready")?;
        self.wait_for("readyok", HANDSHAKE).map(|_| ())
    }

    pub fn new_game(&mut self) -> Result<(), LabError> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// Sends the position and `go ARGS`; waits up to `timeout` for `bestmove`.
    pub fn go(
        &mut self,
        fen: &str,
        moves: &[String],
        args: &str,
        timeout: Duration,
    ) -> Result<Answer, LabError> {
        let mut pos = format!("position fen {fen}");
        if !moves.is_empty() {
            pos += " moves ";
            pos += &moves.join(" ");
        }
        self.send(&pos)?;
        let t0 = Instant::now();
        self.send(&format!("go {args}"))?;
        let deadline = t0 + timeout;
        let mut score = None;
        loop {
            let line = self.next_line(deadline, "bestmove")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    let bestmove = words
                        .next()
                        .ok_or_else(|| self.fault("`bestmove` without a move"))?
                        .to_string();
                    return Ok(Answer {
                        bestmove,
                        score,
                        elapsed: t0.elapsed(),
                    });
                }
                Some("info") => score = info_score(&line).or(score),
                _ => {}
            }
        }
    }
}

/// The score of an `info` line: `score cp N` or `score mate N` (as ±(100000 - N)).
fn info_score(line: &str) -> Option<i32> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == "score" {
            let kind = words.next()?;
            let n: i32 = words.next()?.parse().ok()?;
            return match kind {
                "cp" => Some(n),
                "mate" if n > 0 => Some(100_000 - n),
                "mate" => Some(-100_000 - n),
                _ => None,
            };
        }
    }
    None
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::info_score;

    #[test]
    fn scores_of_info_lines() {
        assert_eq!(
            info_score("info depth 5 score cp -34 nodes 10 pv e2e4"),
            Some(-34)
        );
        assert_eq!(
            info_score("info depth 9 score mate 3 pv a1a8"),
            Some(99_997)
        );
        assert_eq!(info_score("info depth 9 score mate -2"), Some(-99_998));
        assert_eq!(info_score("info string hello"), None);
    }
}
