//! Perft: the number of legal move paths of a given length, as Fairy-Stockfish counts them.

use crate::position::{Move, Position};

/// Leaf count at `depth` (bulk-counted at the last ply).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
    perft_with(pos, depth, &mut buffers)
}

fn perft_with(pos: &mut Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
    list.clear();
    pos.pseudo_moves(list);
    let ctx = pos.legality();
    let mut nodes = 0;
    for &m in list.iter() {
        if !pos.is_legal_with(m, &ctx) {
            continue;
        }
        if depth == 1 {
            nodes += 1;
        } else {
            pos.make(m);
            nodes += perft_with(pos, depth - 1, rest);
            pos.unmake();
        }
    }
    nodes
}

/// Per root move counts, in the generator's order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .into_iter()
        .map(|m| {
            pos.make(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake();
            (m, n)
        })
        .collect()
}
