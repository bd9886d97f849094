//! Fixed-depth searches, one thread, fresh 16 MB table each time. The node count of each case is
//! computed once and every timed run must reproduce it exactly, so a faster search cannot be a
//! different one; criterion reports nodes per second.

use acedrex::game::Game;
use acedrex::position::Position;
use acedrex::search::{Engine, Limits};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// (name, variant, FEN or start, depth)
const CASES: &[(&str, &str, Option<&str>, u32)] = &[
    ("grant-acedrex start d8", "grant-acedrex", None, 8),
    (
        "chess kiwipete d8",
        "chess",
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        8,
    ),
];

fn run(engine: &mut Engine, pos: &Position, depth: u32) -> u64 {
    engine.clear();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = engine.search(pos, &limits, &Arc::new(AtomicBool::new(false)), &mut |_| {});
    black_box(r.best);
    r.nodes
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for &(name, variant, fen, depth) in CASES {
        let game = Game::new(acedrex::variant::builtin(variant).expect("shipped variant"));
        let pos = match fen {
            Some(f) => Position::from_fen(&game, f).expect("valid FEN"),
            None => Position::start(&game),
        };
        let mut engine = Engine::new(16, 1);
        engine.prepare(&pos);
        let nodes = run(&mut engine, &pos, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            b.iter(|| {
                assert_eq!(
                    run(&mut engine, &pos, depth),
                    nodes,
                    "{name}: the search is not deterministic"
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
