//! fmax.ini import: every translated block is a variant file; those that load compile, generate
//! their start moves and export back to an fmax.ini without panicking.
#![no_main]

use acedrex::game::Game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (files, _skipped) = acedrex::fmax::import(text);
    // Two blocks at most keep one run short: each builds a game and its export builds another.
    for (name, file) in files.into_iter().take(2) {
        let Ok(v) = acedrex::variant::parse_variant(&name, &file) else {
            continue;
        };
        // What loads compiles and plays its start position.
        let game = Game::new(v.clone());
        let _ = acedrex::position::Position::start(&game).legal_moves();
        let _ = acedrex::fmax::export(&[v]);
    }
});
