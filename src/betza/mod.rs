//! Betza / XBetza piece notation: parser, syntax tree and canonical printer. Knows no board.

mod ast;
pub mod directions;
mod parse;
mod print;
pub mod xboard;

pub use ast::*;
pub use parse::{BetzaError, MAX_LEGS, parse};
pub use xboard::{NotInXboard, to_xboard};
