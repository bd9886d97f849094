//! The strength lab: balanced opening suites ([`openings`]), match statistics with the pentanomial
//! model and the SPRT ([`stats`]), UCI engines as child processes ([`uci`]) and the self-play
//! tester that plays a working build against a base build from a suite ([`tester`]), and the
//! tuner that fits the evaluation's parameters to self-play games ([`tune`]). The referee
//! is the library's own rules: every move is checked by the move generator and every game end is
//! the variant's.

pub mod openings;
pub mod stats;
pub mod tester;
pub mod tune;
pub mod uci;

use std::path::Path;

/// What can go wrong in the lab.
#[derive(Debug, thiserror::Error)]
pub enum LabError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("variant: {0}")]
    Variant(String),
    #[error("opening {index}: {message}")]
    Opening { index: usize, message: String },
    #[error("{engine}: {what}")]
    Engine { engine: String, what: String },
    #[error("{path}: {message}")]
    Results { path: String, message: String },
    #[error("{0}")]
    Usage(String),
}

impl LabError {
    pub fn io(path: &Path, source: std::io::Error) -> LabError {
        LabError::Io {
            path: path.display().to_string(),
            source,
        }
    }
}
