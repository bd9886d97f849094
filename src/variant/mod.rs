//! Variant files: parse text to a spec, validate it into a [`Variant`].

mod model;
pub use model::*;
