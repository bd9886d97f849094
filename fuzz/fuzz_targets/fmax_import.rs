//! fmax.ini import: every translated block is a variant file; those that load and compile export
//! back to an fmax.ini without panicking.
#![no_main]

use acedrex::game::Game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (files, _skipped) = acedrex::fmax::import(text);
    for (name, file) in files {
        let Ok(v) = acedrex::variant::parse_variant(&name, &file) else {
            continue;
        };
        if Game::new(v.clone()).is_ok() {
            let _ = acedrex::fmax::export(&[v]);
        }
    }
});
