//! acedrex: a chess-variant engine where a variant is one data file and pieces are Betza strings.
//!
//! Pipeline: [`betza`] (notation) → [`variant`] (file format, validation) → [`tables`] (step tables)
//! → [`position`] / [`movegen`] / [`rules`] → [`search`] / [`eval`] → front ends: [`protocol`]
//! (xboard, uci), [`fmax`] (Fairy-Max export/import), [`play`] (terminal), [`pgn`], [`diagram`]
//! (SVG), [`explore`] (what a piece does), [`cli`] (the one-shot `go` and `bench`), and the `acedrex`
//! binary.

pub mod betza;
pub mod cli;
pub mod diagram;
pub mod eval;
pub mod explore;
pub mod fmax;
pub mod game;
pub mod geometry;
pub mod lab;
pub mod legs;
pub mod movegen;
pub mod pgn;
pub mod piece;
pub mod play;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod setup;
pub mod side;
pub mod tables;
pub mod variant;
