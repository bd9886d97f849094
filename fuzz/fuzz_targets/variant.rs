//! Variant files: parse and validate; what `check` accepts is compiled into a game, and then a few
//! legal moves (chosen by the input's last bytes) are played and taken back.
#![no_main]

use acedrex::game::Game;
use acedrex::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (_spec, _diags) = acedrex::variant::parse_spec("fuzz.txt", text);
    let Ok(variant) = acedrex::variant::parse_variant("fuzz.txt", text) else {
        return;
    };
    let side = u64::from(variant.files.max(variant.ranks));
    if variant
        .pieces
        .iter()
        .any(|p| acedrex_fuzz::walk_bound(&p.betza, side) > acedrex_fuzz::WALK_LIMIT)
    {
        return;
    }
    let game = Game::new(variant);
    let mut pos = Position::start(&game);
    let start = pos.fen();
    let picks = text.as_bytes().iter().rev().take(6);
    let mut played = 0;
    for &b in picks {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.game_end().is_some() {
            break;
        }
        let m = moves[usize::from(b) % moves.len()];
        pos.make(m);
        assert_eq!(pos.hash(), pos.fresh_hash(), "incremental hash after {m:?}");
        played += 1;
    }
    for _ in 0..played {
        pos.unmake();
    }
    assert_eq!(pos.fen(), start, "make/unmake restores the start position");
});
