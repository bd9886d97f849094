#!/usr/bin/env python3
"""Fairy-Stockfish as a perft oracle, over UCI.

  fairy_stockfish.py [--engine /usr/games/fairy-stockfish] --variant V --depth N [--divide] [FEN]
  fairy_stockfish.py ... --batch         one FEN per stdin line, one answer line each
                                         (a line `startpos moves ...` is a game from the start)

Prints the `go perft N` node count of FEN (default: the variant's start position); --batch answers many
FENs from one engine process.
--divide prints a JSON object {"nodes": total, "moves": {move: count}} instead of the bare count.
Also the module the reference-file generator tests/oracle/fsf_perft.py imports (class Fsf).
Python 3 standard library only; needs the Debian package fairy-stockfish.
"""
import argparse
import json
import subprocess
import sys
import re

MOVE = re.compile(r"[A-Za-z0-9@+=,]+")


class Fsf:
    """A Fairy-Stockfish process spoken to over UCI."""

    def __init__(self, path='/usr/games/fairy-stockfish'):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.name = next(l[len('id name '):] for l in self.ask('uci', until='uciok') if l.startswith('id name '))

    def ask(self, *lines, until):
        """Send lines; return the output lines up to and including the first one starting with `until`."""
        self.p.stdin.write(''.join(l + '\n' for l in lines))
        self.p.stdin.flush()
        out = []
        for l in self.p.stdout:
            out.append(l.rstrip('\n'))
            if l.startswith(until):
                return out
        sys.exit('fairy-stockfish ended unexpectedly')

    def variants(self):
        """The names its UCI_Variant option accepts."""
        out = self.ask('uci', until='uciok')
        line = next(l for l in out if l.startswith('option name UCI_Variant '))
        words = line.split()
        return [words[i + 1] for i, w in enumerate(words) if w == 'var']

    def variant(self, v):
        self.ask(f'setoption name UCI_Variant value {v}', 'isready', until='readyok')

    def fen(self, position):
        out = self.ask(position, 'd', 'isready', until='readyok')
        return next(l[len('Fen: '):] for l in out if l.startswith('Fen: '))

    def perft(self, position, depth):
        """Return (total, {move: count}) of `go perft depth` from a `position ...` command."""
        out = self.ask(position, f'go perft {depth}', until='Nodes searched')
        # Move lines: `e2e4: 20`, drops `P@e4: 3`, shogi promotions `h8c3+: 1`.
        moves = dict(l.split(': ') for l in out if ': ' in l and MOVE.fullmatch(l.split(':')[0]))
        return int(out[-1].split()[-1]), {m: int(n) for m, n in moves.items()}

    def close(self):
        self.p.stdin.write('quit\n')
        self.p.stdin.flush()
        self.p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--engine', default='/usr/games/fairy-stockfish')
    ap.add_argument('--variant', default='chess')
    ap.add_argument('--depth', type=int, required=True)
    ap.add_argument('--divide', action='store_true')
    ap.add_argument('--batch', action='store_true', help='read one FEN per stdin line')
    ap.add_argument('fen', nargs='*', help='a FEN (its fields as one or several arguments)')
    a = ap.parse_args()
    try:
        fsf = Fsf(a.engine)
    except FileNotFoundError:
        sys.exit(f'{a.engine} not found: install the Debian package fairy-stockfish')
    if a.variant not in fsf.variants():
        sys.exit(f'Fairy-Stockfish does not know the variant {a.variant}')
    fsf.variant(a.variant)
    fens = (l.strip() for l in sys.stdin if l.strip()) if a.batch else [' '.join(a.fen) or None]
    for fen in fens:
        # A game from the start keeps its history (janggi's passes end the game by history).
        pos = 'position startpos' if not fen else f'position {fen}' if fen.startswith('startpos') else f'position fen {fen}'
        nodes, moves = fsf.perft(pos, a.depth)
        print(json.dumps({'nodes': nodes, 'moves': moves}) if a.divide else nodes, flush=True)
    fsf.close()


if __name__ == '__main__':
    main()
