//! acedrex: a chess-variant engine where a variant is one data file and pieces are Betza strings.
//!
//! Pipeline: [`betza`] (notation) → [`variant`] (file format, validation) → [`tables`] (step tables)
//! → [`position`] / [`movegen`] / [`rules`] → search and front ends.

pub mod betza;
pub mod geometry;
pub mod tables;
pub mod variant;
pub mod game;
pub mod movegen;
pub mod position;
pub mod rules;
pub mod explore;
pub mod search;
pub mod eval;
