//! A variant ready to play: its validated definition and its compiled tables, shared by positions.

use crate::tables::Tables;
use crate::variant::Variant;
use std::sync::Arc;

#[derive(Debug)]
pub struct Game {
    pub variant: Variant,
    pub tables: Tables,
}

impl Game {
    /// Compiles a variant.
    pub fn new(variant: Variant) -> Result<Arc<Game>, String> {
        let tables = Tables::build(&variant)?;
        Ok(Arc::new(Game { variant, tables }))
    }

    pub fn letter(&self, piece_type: u8) -> char {
        self.tables.pieces[piece_type as usize].letter
    }
}
