//! Variant files: parse text to a [`VariantSpec`] (spans kept, nothing checked), resolve `inherit`,
//! validate into a [`Variant`]. Every problem becomes a [`Diagnostic`] that points into the file.
//!
//! ```
//! let chess = acedrex::variant::builtin("chess").unwrap();
//! assert_eq!((chess.files, chess.ranks), (8, 8));
//! ```

mod diag;
mod load;
mod model;
mod parse;
mod shuffle;
mod spec;
mod validate;

#[cfg(test)]
mod tests;

pub use diag::{Diagnostic, Source, Span, Spanned, render};
pub use load::{LoadError, builtin, builtin_names, check_files, load, parse_variant, source_text};
pub use model::*;
pub use parse::{KEYS, parse_spec};
pub use shuffle::{Shuffle, ShuffleError};
pub use spec::*;
pub use validate::{MAX_BOARD, MAX_EVAL_MATERIAL, MAX_EVAL_PERCENT, validate};

/// The comment block every shipped variant file opens with: the format's keys in brief, one source
/// for all of them (`tests/variant_files.rs` checks the files against it and rewrites them with
/// `ACEDREX_BLESS=1`).
pub const FORMAT_HEADER: &str = include_str!("format-header.txt");
