//! Betza/XBetza text: parse; what parses prints to text that parses back to the same tree, converts
//! to XBoard's dialect, and compiles to legs and step programs on a small and a large board.
#![no_main]

use acedrex::betza;
use acedrex::legs;
use acedrex::tables::exec;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(tree) = betza::parse(text) else {
        return;
    };
    let printed = tree.to_string();
    let again = betza::parse(&printed)
        .unwrap_or_else(|e| panic!("`{text}` prints as `{printed}`, which does not parse: {e}"));
    assert_eq!(
        tree, again,
        "`{text}` prints as `{printed}`, a different tree"
    );
    let _ = betza::to_xboard(&tree);
    if let Ok(paths) = legs::compile(&tree) {
        let _ = legs::describe(&paths);
        // The big board only for cheap pieces: it multiplies the cost of every walk.
        for (files, ranks, limit) in [(8, 8, acedrex_fuzz::WALK_LIMIT), (16, 16, 500)] {
            if acedrex_fuzz::walk_bound(&tree, u64::from(files)) > limit {
                continue;
            }
            for black in [false, true] {
                let _ = exec::program(&paths, black, files, ranks);
                let _ = exec::attack_table(&paths, black, files, ranks);
            }
        }
    }
});
