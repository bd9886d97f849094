#!/usr/bin/env python3
"""Search speed at the Grant Acedrex start against Fairy-Max 5.0b (Debian package fairymax).

  python3 benches/fairymax_search.py [--seconds 5] [--runs 3] [--depth 7] [--acedrex target/release/acedrex]

Fairy-Max plays `grande-acedrex` from its own fmax.ini over the xboard protocol (`post`, `st N`,
then `st 1000` and `sd D` for the time to depth); acedrex runs `acedrex go --movetime` and `--depth`. Runs
alternate between the engines. Prints each engine's nodes per second (from its last thinking line:
nodes over the time it reports), the time each takes to reach depth D, and the ratios. The two
engines count nodes differently and prune differently: nodes per second compares the speed of the
machinery, time to depth the whole search.
"""
import argparse
import re
import statistics
import subprocess
import time


def fairymax(engine, limit):
    """(nodes, seconds, depth) of Fairy-Max's last thinking line under `limit` (`st 5`, `sd 7`)."""
    script = f'xboard\nprotover 2\nnew\nvariant grande-acedrex\npost\n{limit}\ngo\n'
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(script)
    p.stdin.flush()
    last = None
    for line in p.stdout:
        m = re.match(r'\s*(\d+)\s+-?\d+\s+(\d+)\s+(\d+)\s', line)
        if m:
            last = (int(m[3]), int(m[2]) / 100, int(m[1]))
        if line.startswith('move '):
            break
    p.stdin.write('quit\n')
    p.stdin.close()
    p.wait()
    return last


def acedrex(binary, args):
    """(nodes, seconds, depth) of acedrex's last info line for `acedrex go` with `args`."""
    out = subprocess.run([binary, 'go', '--variant', 'grant-acedrex', *args], capture_output=True,
                         text=True, check=True).stdout
    last = None
    for line in out.splitlines():
        m = re.match(r'info depth (\d+) .*nodes (\d+) .*time (\d+)', line)
        if m:
            last = (int(m[2]), int(m[3]) / 1000, int(m[1]))
    return last


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seconds', type=int, default=5)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--depth', type=int, default=7)
    ap.add_argument('--acedrex', default='target/release/acedrex')
    ap.add_argument('--fairymax', default='/usr/games/fairymax')
    a = ap.parse_args()
    nps = {'acedrex': [], 'fairymax': []}
    to_depth = {'acedrex': [], 'fairymax': []}
    for _ in range(a.runs):
        n, s, _ = fairymax(a.fairymax, f'st {a.seconds}')
        nps['fairymax'].append(n / s)
        n, s, _ = acedrex(a.acedrex, ['--movetime', str(a.seconds * 1000)])
        nps['acedrex'].append(n / s)
        start = time.monotonic()
        # A long move time first: without it Fairy-Max's default clock stops the search early.
        n, s, d = fairymax(a.fairymax, f'st 1000\nsd {a.depth}')
        to_depth['fairymax'].append((time.monotonic() - start, n, d))
        start = time.monotonic()
        n, s, d = acedrex(a.acedrex, ['--depth', str(a.depth)])
        to_depth['acedrex'].append((time.monotonic() - start, n, d))
    for name in ('acedrex', 'fairymax'):
        runs = ', '.join(f'{v / 1e6:.2f}' for v in nps[name])
        t = statistics.median(x[0] for x in to_depth[name])
        nodes = statistics.median(x[1] for x in to_depth[name])
        reached = min(x[2] for x in to_depth[name])
        print(f'{name:9} nodes per second (M, {a.runs} runs of {a.seconds} s): {runs}; '
              f'time to depth {a.depth}: {t:.2f} s ({nodes:,.0f} nodes, median of {a.runs}; '
              f'depth reached {reached})')
    ratio = statistics.median(nps['acedrex']) / statistics.median(nps['fairymax'])
    depth_ratio = statistics.median(x[0] for x in to_depth['fairymax']) / statistics.median(
        x[0] for x in to_depth['acedrex'])
    print(f'acedrex/Fairy-Max: nodes per second {ratio:.2f}x; time to depth {a.depth} {depth_ratio:.1f}x faster')


if __name__ == '__main__':
    main()
