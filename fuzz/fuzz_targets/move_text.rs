//! Move text, coordinate and SAN: bytes pick a variant and a few plies from its start, then the rest
//! is read as a move. A move read writes back to text that reads as the same move, and reading
//! never changes the position.
#![no_main]

use acedrex::pgn::{parse_san, san};
use acedrex::position::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [sel, plies, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let game = acedrex_fuzz::game(*sel);
    let mut pos = Position::start(game);
    for i in 0..(plies % 8) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let pick = usize::from(plies.rotate_left(u32::from(i))) * 7 + usize::from(i);
        pos.make(moves[pick % moves.len()]);
    }
    let before = pos.fen();
    if let Ok(m) = pos.parse_move(text) {
        let written = pos.move_text(m);
        assert_eq!(
            pos.parse_move(&written).ok(),
            Some(m),
            "`{text}` → `{written}`"
        );
    }
    assert_eq!(pos.fen(), before, "parse_move changed the position");
    if let Ok(m) = parse_san(&mut pos, text) {
        let written = san(&mut pos, m);
        assert_eq!(
            parse_san(&mut pos, &written).ok(),
            Some(m),
            "`{text}` → SAN `{written}`"
        );
    }
    assert_eq!(pos.fen(), before, "parse_san changed the position");
});
