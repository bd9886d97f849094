//! FEN: the first byte picks a built-in variant, the rest is the FEN. A FEN that loads writes back to
//! a FEN that loads to the same position, and every legal move of it can be made and taken back.
#![no_main]

use acedrex::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let game = acedrex_fuzz::game(sel);
    let Ok(mut pos) = Position::from_fen(game, text) else {
        return;
    };
    let fen = pos.fen();
    let again = Position::from_fen(game, &fen)
        .unwrap_or_else(|e| panic!("`{text}` writes as `{fen}`, which does not load: {e}"));
    assert_eq!(again.fen(), fen, "FEN round trip of `{text}`");
    let _ = pos.game_end();
    for m in pos.legal_moves() {
        pos.make(m);
        assert_eq!(
            pos.hash(),
            pos.fresh_hash(),
            "incremental hash after {m:?} from `{fen}`"
        );
        pos.unmake();
    }
    assert_eq!(pos.fen(), fen, "make/unmake restores `{fen}`");
});
