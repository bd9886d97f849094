//! Fairy-Max interchange: write acedrex variants as a loadable `fmax.ini`, and read Fairy-Max's
//! `fmax.ini` blocks back into acedrex variant files. The encoding is documented in
//! docs xbetza.md §5; [`rays`] holds the ray words and an interpreter of them.

pub mod export;
pub mod import;
pub mod rays;

pub use export::export;
pub use import::import;
