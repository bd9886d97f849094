#!/usr/bin/env python3
"""The moves Fairy-Max accepts as legal after a move sequence: a legality oracle for any Fairy-Max variant.

  fairymax_legal.py [--engine /usr/games/fairymax] [--ini FMAX.INI] [--variant grande-acedrex] [--size WxH] [MOVE...]
  fairymax_legal.py ... --batch          one move sequence per stdin line, one answer line each
  fairymax_legal.py ... --gate he        also try gating moves (Seirawan): each move of a first-rank
                                         piece with each letter as a suffix (`b1c3h`), and a first-rank
                                         corner piece onto an own one of that rank (castling that gates
                                         on the rook's square, `h1e1h`)

Prints the accepted moves on one line, sorted by from-square, then to-square, squares in rank order
(a1 b1 .. a2 b2 ..), in coordinate form without a promotion suffix: Fairy-Max promotes by itself (a move
of the sequence may carry one, e.g. `b7a8n`; Fairy-Max reads it in either case). Squares are named as
acedrex and XBoard name them, ranks from 1, also on 10-rank boards, where Fairy-Max's own move text counts
ranks from 0; the script translates both ways. A sequence that extends the previous one is played on
from there instead of being replayed from the start. Exit
status 1 when Fairy-Max rejects a move of the sequence (in --batch mode that line is answered with
"rejected N MOVE" and the run goes on), 2 when it does not know the variant or the engine is missing.

How: the sequence is replayed in force mode; Fairy-Max's `p` command prints the board; every piece of the
side to move is tried on every square not holding one of its own pieces (those are never legal, and
Fairy-Max reads a move onto its own king as a castling request); each accepted try is taken back with
`undo`. Every exchange ends with `ping N` and waits for `pong N`, so no reply is mistaken for another's.
Python 3 standard library only; needs the Debian package fairymax.
"""
import argparse
import re
import subprocess
import sys

FILES = 'abcdefghijklmnopqrstuvwxyz'


class Rejected(Exception):
    """Fairy-Max refused a move of the sequence: (index from 1, move)."""


class UnknownVariant(Exception):
    pass


class FairyMax:
    """One Fairy-Max process in force mode, spoken to over the xboard protocol."""

    def __init__(self, engine='/usr/games/fairymax', ini=None, variant='grande-acedrex', size=None):
        # Fairy-Max's command line is `fairymax [HASH_BITS [INI_FILE]]`.
        argv = [engine] + (['22', ini] if ini else [])
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.serial = 0
        self.variant = variant
        self.exchange('xboard', 'protover 2')
        reply = self.exchange('new', f'variant {variant}', 'force')
        if any(line.startswith('Error') or line.endswith('not supported') for line in reply):
            self.close()
            raise UnknownVariant(variant)
        # `setup (...) WxH+H_parent FEN` gives the board size; without it the board is 8x8.
        sent = next((re.search(r'\) (\d+)x(\d+)\+', line) for line in reply if line.startswith('setup ')), None)
        # A block without a `#` parent field sends no size (Fairy-Max's falcon is 10x8): --size.
        given = re.fullmatch(r'(\d+)x(\d+)', size or '') or sent
        self.files, self.ranks = (int(given[1]), int(given[2])) if given else (8, 8)
        self.played = []

    def exchange(self, *commands):
        """Sends the commands and a ping; returns every line printed before the matching pong."""
        self.serial += 1
        pong = f'pong {self.serial}'
        self.proc.stdin.write(''.join(c + '\n' for c in commands) + f'ping {self.serial}\n')
        self.proc.stdin.flush()
        lines = []
        for line in self.proc.stdout:
            line = line.rstrip('\r\n')
            if line == pong:
                return lines
            lines.append(line)
        raise RuntimeError(f'Fairy-Max exited (after {" ".join(commands)!r})')

    def engine_move(self, move):
        """`move` in Fairy-Max's text: on 10 ranks it numbers them from 0 (a1 is its a0)."""
        if self.ranks != 10:
            return move
        m = re.fullmatch(r'([a-z])(\d+)([a-z])(\d+)(.*)', move)
        if not m:
            return move
        return f'{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}{m[5]}'

    def accepts(self, move):
        """Whether Fairy-Max accepts `move` (acedrex's square names) in the current position."""
        reply = self.exchange(self.engine_move(move))
        return not any(line.startswith('Illegal move') for line in reply)

    def reset(self, moves):
        """Brings the game to `moves` from the start position; raises Rejected on the first refused move."""
        if self.played != moves[:len(self.played)]:
            self.exchange('new', f'variant {self.variant}', 'force')
            self.played = []
        for i, m in enumerate(moves[len(self.played):], len(self.played) + 1):
            if not self.accepts(m):
                # The refused move left the game where it was; start afresh for the next query.
                self.exchange('new', f'variant {self.variant}', 'force')
                self.played = []
                raise Rejected(i, m)
            self.played.append(m)

    def board(self):
        """The board as rows of piece characters, rank 1 first ('.' empty)."""
        rows = []
        for line in self.exchange('p'):
            cells = line.split()
            if len(cells) == self.files and all(len(c) == 1 for c in cells):
                rows.append(cells)
        # Printed from the top rank down; rows past the board (Fairy-Max's spare area) follow it.
        if len(rows) < self.ranks:
            raise RuntimeError(f'could not read the board from `p` ({len(rows)} rows)')
        return rows[:self.ranks][::-1]

    def legal(self, moves, gate=''):
        """The moves Fairy-Max accepts after `moves`, sorted by from-square, then to-square (rank order)."""
        self.reset(moves)
        white = len(moves) % 2 == 0
        # White pieces print in upper case, its pawns as '*'; Black's in lower case, its pawns as '+'.
        mine = (lambda c: c.isupper() or c == '*') if white else (lambda c: c.islower() or c == '+')
        rows = self.board()
        square = lambda f, r: f'{FILES[f]}{r + 1}'
        cells = [(f, r) for r in range(self.ranks) for f in range(self.files)]
        found = []
        first = 0 if white else self.ranks - 1
        pawn = '*' if white else '+'
        for f, r in cells:
            if not mine(rows[r][f]):
                continue
            # Gating: a piece of the first rank (not a pawn) with a letter from the hand.
            gates = gate if r == first and rows[r][f] != pawn else ''
            for tf, tr in cells:
                own = mine(rows[tr][tf])
                # Fairy-Max reads a move onto its own king as castling (its partners start in the
                # corners): only a corner piece onto an own piece may be castling that gates there.
                corner = f in (0, self.files - 1) and (tf, tr) != (f, r)
                if own and not (gates and tr == first and corner):
                    continue
                move = square(f, r) + square(tf, tr)
                for suffix in ([] if own else ['']) + list(gates):
                    if self.accepts(move + suffix):
                        found.append(move + suffix)
                        self.take_back(gate)
        return found

    def take_back(self, gate):
        """Takes back the try just accepted. Fairy-Max 5.0b's `undo` replays the game from its move
        history, which packs a gating move's suffix wrongly (its unused promotion field goes negative
        and spills into the gated piece): once the game holds a gating move, the replay drops it. Then
        the game is set up afresh and replayed here instead (after any suffixed move, to be safe)."""
        gated = gate and any(m[-1].isalpha() for m in self.played)
        if not gated:
            self.exchange('undo')
            return
        played, self.played = self.played, []
        self.exchange('new', f'variant {self.variant}', 'force')
        self.reset(played)

    def close(self):
        try:
            self.proc.stdin.write('quit\n')
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass
        self.proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--engine', default='/usr/games/fairymax')
    ap.add_argument('--ini', help='an fmax.ini to load instead of the installed one')
    ap.add_argument('--variant', default='grande-acedrex')
    ap.add_argument('--size', help="the board, FILESxRANKS, when the variant's setup does not say it")
    ap.add_argument('--batch', action='store_true', help='read one move sequence per stdin line')
    ap.add_argument('--gate', default='', help='letters of pieces in hand to try as gating suffixes (seirawan: he)')
    ap.add_argument('moves', nargs='*', help='the moves from the start position (one argument may hold several)')
    a = ap.parse_args()
    try:
        fm = FairyMax(a.engine, a.ini, a.variant, a.size)
    except FileNotFoundError:
        sys.exit(f'{a.engine} not found: install the Debian package fairymax')
    except UnknownVariant:
        print(f'Fairy-Max does not know the variant {a.variant}', file=sys.stderr)
        sys.exit(2)
    status = 0
    try:
        queries = sys.stdin if a.batch else [' '.join(a.moves)]
        for query in queries:
            moves = query.split()
            try:
                print(' '.join(fm.legal(moves, a.gate)), flush=True)
            except Rejected as e:
                index, move = e.args
                if not a.batch:
                    print(f'Fairy-Max rejects move {index} of the sequence: {move}', file=sys.stderr)
                    status = 1
                    break
                print(f'rejected {index} {move}', flush=True)
    finally:
        fm.close()
    sys.exit(status)


if __name__ == '__main__':
    main()
