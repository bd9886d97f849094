//! PGN: read every game; what reads writes back to PGN that reads as the same games.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(games) = acedrex::pgn::read_games(text, None) else {
        return;
    };
    for g in games {
        let written = g.to_pgn();
        let again = acedrex::pgn::read_games(&written, None)
            .unwrap_or_else(|e| panic!("written PGN does not read back: {e}\n{written}"));
        assert_eq!(again.len(), 1, "one game written, read as several:\n{written}");
        let again = &again[0];
        assert_eq!(again.plies.iter().map(|p| p.mv).collect::<Vec<_>>(),
            g.plies.iter().map(|p| p.mv).collect::<Vec<_>>(), "moves differ:\n{written}");
        assert_eq!(again.start.fen(), g.start.fen(), "start differs:\n{written}");
        assert_eq!(again.result, g.result, "result differs:\n{written}");
    }
});
