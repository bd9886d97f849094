//! Compiled step tables: Betza trees turned into legs with vectors, ranges and modalities.

pub mod legs;
