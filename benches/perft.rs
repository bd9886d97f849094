//! Perft speed (nodes per second) with node counts asserted, so a faster result cannot be a wrong one.

use acedrex::game::Game;
use acedrex::movegen::perft::perft;
use acedrex::position::Position;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const CASES: &[(&str, &str, &str, u32, u64)] = &[
    ("grant-acedrex start", "grant-acedrex", "", 3, 206_209),
    (
        "grant-acedrex middlegame",
        "grant-acedrex",
        "1C2ca4lr/12/g5k4g/ppp2pppppcp/4p5p1/12/12/7u4/PPPPPPP2PPP/3U8/3K2C3A1/RL1G4G1LR w - - 4 14",
        3,
        279_475,
    ),
    ("chess start", "chess", "", 4, 197_281),
    (
        "chess kiwipete",
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
        97_862,
    ),
    ("courier start", "courier", "", 4, 500_337),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for &(name, variant, fen, depth, nodes) in CASES {
        let game = Game::new(acedrex::variant::builtin(variant).expect("shipped"));
        let mut pos = if fen.is_empty() {
            Position::start(&game)
        } else {
            Position::from_fen(&game, fen).expect("fen")
        };
        assert_eq!(perft(&mut pos, depth), nodes, "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(perft(&mut pos, depth), nodes))
        });
    }
    group.finish();
}

fn bench_parse_compile(c: &mut Criterion) {
    let text = include_str!("../variants/grant-acedrex.txt");
    c.bench_function("parse+compile grant-acedrex", |b| {
        b.iter(|| {
            let v =
                acedrex::variant::parse_variant("grant-acedrex.txt", std::hint::black_box(text))
                    .expect("valid");
            Game::new(v)
        })
    });
}

criterion_group!(benches, bench_perft, bench_parse_compile);
criterion_main!(benches);
