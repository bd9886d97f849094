//! PGN: the first byte picks the variant (or the `Variant` tag), the rest is PGN. Every game read
//! writes back to PGN that reads as the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    // Mostly a fixed variant (as for a file loaded by path): the `Variant` tag path compiles the
    // variant's tables on every call, which would dominate the run.
    let fixed = (sel % 4 != 0).then(|| acedrex_fuzz::game(sel / 4));
    let Ok(games) = acedrex::pgn::read_games(text, fixed) else {
        return;
    };
    for g in games {
        let written = g.to_pgn();
        let again = acedrex::pgn::read_games(&written, fixed)
            .unwrap_or_else(|e| panic!("written PGN does not read back: {e}\n{written}"));
        assert_eq!(
            again.len(),
            1,
            "one game written, read as several:\n{written}"
        );
        let again = &again[0];
        assert_eq!(
            again.plies.iter().map(|p| p.mv).collect::<Vec<_>>(),
            g.plies.iter().map(|p| p.mv).collect::<Vec<_>>(),
            "moves differ:\n{written}"
        );
        assert_eq!(
            again.start.fen(),
            g.start.fen(),
            "start differs:\n{written}"
        );
        assert_eq!(again.result, g.result, "result differs:\n{written}");
    }
});
