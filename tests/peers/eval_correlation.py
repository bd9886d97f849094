#!/usr/bin/env python3
"""Evaluation correlation: how closely some of acedrex's evaluation terms follow one column of a
peer's evaluation, over the positions of a data file.

  eval_correlation.py --data FILE --engine CMD [--engine CMD]... --terms T [T...] --column NAME
                      --variant V [--peer CMD] [--positions N] [--seed S]

FILE is a data file of `acedrex tune` (`RESULT FEN` lines). N positions drawn from it (seeded, so
two runs draw the same ones) are given to the peer (Fairy-Stockfish by default) and to each
engine over UCI (`eval`). For each engine the script prints the Pearson correlation of the sum of
the named terms' middlegame values (acedrex's `eval` table, White's view) with the peer's column
(Stockfish's trace, `Total` middlegame, White's view), and both standard deviations in pawns.
An engine may be named: `NAME=CMD`.

  python3 tests/peers/eval_correlation.py --data tune-capablanca.txt --variant capablanca \\
      --engine "base=target/release/acedrex uci" --terms king attack shelter --column "King safety"

Python 3 standard library only.
"""
import argparse
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_profile import Uci  # noqa: E402


def correlation(xs, ys):
    """Pearson's, 0 when either side is constant (a term that never moves)."""
    try:
        return statistics.correlation(xs, ys)
    except statistics.StatisticsError:
        return 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="a data file of `acedrex tune`")
    ap.add_argument("--engine", action="append", required=True, help="[NAME=]CMD, e.g. 'acedrex uci'")
    ap.add_argument("--terms", nargs="+", required=True, help="acedrex's terms to sum")
    ap.add_argument("--column", required=True, help="the peer's trace column, e.g. 'King safety'")
    ap.add_argument("--peer", default="/usr/games/fairy-stockfish")
    ap.add_argument("--variant", required=True)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    with open(args.data) as f:
        fens = [line.split(" ", 1)[1].strip() for line in f if line.strip() and not line.startswith("#")]
    random.seed(args.seed)
    fens = random.sample(fens, min(args.positions, len(fens)))
    peer = Uci(args.peer, args.variant)
    engines = {}
    for spec in args.engine:
        name, cmd = spec.split("=", 1) if "=" in spec.split(" ")[0] else (spec, spec)
        engines[name] = Uci(cmd, args.variant)
    column, sums = [], {name: [] for name in engines}
    for fen in fens:
        traced = peer.trace(fen, [])
        if args.column not in traced:
            continue
        column.append(traced[args.column])
        for name, uci in engines.items():
            t = uci.trace(fen, [])
            sums[name].append(sum(t.get(term, 0.0) for term in args.terms))
    if len(column) < 2:
        raise SystemExit(f"the peer printed no `{args.column}` column")
    print(f"{len(column)} positions; peer `{args.column}` sd {statistics.pstdev(column):.3f}")
    for name, values in sums.items():
        print(
            f"{name}: {'+'.join(args.terms)} correlation {correlation(column, values):.3f}, "
            f"sd {statistics.pstdev(values):.3f}"
        )
    for uci in [peer, *engines.values()]:
        uci.send("quit")


if __name__ == "__main__":
    main()
