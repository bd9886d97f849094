//! Runs N generated protocol sessions natively (no libFuzzer), each from pseudo-random bytes, and
//! lists the distinct failures (exit status 1 if there is any): `cargo run --release --example sessions -- N [xboard|uci|usi] [SEED]`.
//! With a file in place of N, prints the session that fuzz input stands for and runs it.
//! `SKIP=memory,cores` leaves out generated lines starting with those words (to get past a known
//! crash). An allocation failure aborts the process rather than being listed.

use acedrex::protocol::Protocol;
use std::collections::BTreeMap;
fn main() {
    let p = match std::env::args().nth(2).as_deref() {
        Some("uci") => Protocol::Uci,
        Some("usi") => Protocol::Usi,
        _ => Protocol::Xboard,
    };
    let first = std::env::args().nth(1).unwrap();
    // A file instead of a count: print the session a fuzz input stands for, then run it.
    if let Ok(data) = std::fs::read(&first) {
        let mut u = arbitrary::Unstructured::new(&data);
        let steps = <Vec<acedrex_fuzz::session::Step> as arbitrary::Arbitrary>::arbitrary(&mut u)
            .unwrap_or_default();
        let steps = &steps[..steps.len().min(40)];
        let text: String = acedrex_fuzz::session::lines(p, steps)
            .into_iter()
            .map(|l| l + "\n")
            .collect();
        print!("{text}");
        let t = std::time::Instant::now();
        acedrex_fuzz::session::run_text(p, &text);
        eprintln!("ran in {:?}", t.elapsed());
        return;
    }
    let n: usize = first.parse().unwrap();
    let mut x: u64 = std::env::args()
        .nth(3)
        .map_or(0x9E3779B97F4A7C15, |s| s.parse().unwrap());
    std::panic::set_hook(Box::new(|_| {}));
    let mut seen: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let t = std::time::Instant::now();
    for i in 0..n {
        let len = 50 + (i % 300);
        let data: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let mut u = arbitrary::Unstructured::new(&data);
        let Ok(steps) =
            <Vec<acedrex_fuzz::session::Step> as arbitrary::Arbitrary>::arbitrary(&mut u)
        else {
            continue;
        };
        let steps = &steps[..steps.len().min(40)];
        let skip = std::env::var("SKIP").unwrap_or_default();
        let text: String = acedrex_fuzz::session::lines(p, steps)
            .into_iter()
            .filter(|l| skip.is_empty() || !skip.split(',').any(|w| l.starts_with(w)))
            .map(|l| l + "\n")
            .collect();
        let r = std::panic::catch_unwind(|| acedrex_fuzz::session::run_text(p, &text));
        if let Err(e) = r {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let key: String = msg.lines().next().unwrap_or("").chars().take(80).collect();
            let entry = seen.entry(key).or_insert((0, msg.clone()));
            entry.0 += 1;
        }
    }
    eprintln!("{n} sessions in {:?}", t.elapsed());
    for (k, (c, m)) in &seen {
        eprintln!("=== {c}x {k}\n{}", m.chars().take(3000).collect::<String>());
    }
    if !seen.is_empty() {
        std::process::exit(1);
    }
}
