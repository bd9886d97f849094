#!/usr/bin/env python3
"""Seeded random walks through a HaChu variant, recording HaChu's legal move set at every ply.

  hachu_legal.py --variant lion [--acedrex-variant lion] [--games 6] [--plies 40] [--seed 1]
                 [--files 8 --ranks 8] [--engine /usr/games/hachu] [--acedrex target/release/acedrex]

Prints one line per ply: "moves <moves from the start, or -> ; legal <sorted legal moves, or ->".
Each walk picks its next move at random (seeded) from HaChu's set.

How HaChu is asked: it plays in force mode over the xboard protocol (`memory` first: HaChu lists
moves only with a hash table). Every candidate is sent as `usermove`; HaChu answers `Illegal move`
or makes it, and `undo` takes it back; every exchange ends with `ping`/`pong`. The candidates are
every square pair from a square of the side to move (the pass is `b1b1`), every two-leg move over
a neighbouring square (`b1c2,c2c3`, the Lion's locust form), and a queening pawn's `q` suffix.
HaChu plays the king-capture form of its games: its list holds moves that leave the mover's king
attacked. Such a move is dropped here, judged by HaChu too: after it, HaChu's `lift` of some piece of the
opponent marks the mover's royal square (as a target, or as a square taken on the way), or marks
nothing for any piece: HaChu's search stops at a king it can take before it lists a move.
acedrex is asked only for the board (`show`) before each ply; the board after a tried move is
worked out here.
Python 3 standard library only; needs the Debian package hachu.
"""
import argparse
import random
import re
import subprocess

LOG = []
FILES = 'abcdefghijklmnop'


class HaChu:
    def __init__(self, engine, variant):
        self.p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.n = 0
        self.variant = variant
        self.game = []
        for line in ['xboard', 'protover 2', 'memory 16']:
            self.send(line)
        self.restart()

    def restart(self):
        for line in ['new', 'variant ' + self.variant, 'force']:
            self.send(line)
        self.sync()

    def send(self, line):
        LOG.append(line)
        try:
            self.p.stdin.write(line + '\n')
            self.p.stdin.flush()
        except BrokenPipeError:
            raise SystemExit('hachu exited, game ' + ' '.join(self.game) + ', after: ' + ' | '.join(l for l in LOG[-80:] if l.startswith('usermove') or l == 'undo'))

    def sync(self):
        self.n += 1
        self.send('ping %d' % self.n)
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit('hachu exited, game ' + ' '.join(self.game) + ', after: ' + ' | '.join(l for l in LOG[-80:] if l.startswith('usermove') or l == 'undo'))
            if line.strip() == 'pong %d' % self.n:
                return out
            if not line.startswith('#'):
                out.append(line.strip())

    def play(self, move):
        self.send('usermove ' + move)
        ok = not any(o.startswith('Illegal') for o in self.sync())
        if ok:
            self.game.append(move)
        return ok

    def undo(self):
        """Takes the last move back by replaying the game: HaChu's own `undo` dies after some
        moves (a pass, a pawn's double step)."""
        self.game.pop()
        self.restart()
        for m in self.game:
            self.send('usermove ' + m)
        self.sync()

    def reach(self, square, files, ranks):
        """The squares the piece on `square` may move to or take on its way, from `lift`'s
        `highlight` board (HaChu marks them Y, R, M or C); the position is not changed."""
        self.send('lift ' + square)
        marked = set()
        for line in self.sync():
            if not line.startswith('highlight '):
                continue
            for i, row in enumerate(line.split()[1].split('/')):
                f = 0
                for tok in re.findall(r'[0-9]+|[A-Za-z]', row):
                    if tok.isdigit():
                        f += int(tok)
                    else:
                        marked.add('%s%d' % (FILES[f], ranks - i))
                        f += 1
        return marked


def board_of(acedrex, variant, moves):
    out = subprocess.run([acedrex, 'show', '--variant', variant, '--moves', ' '.join(moves)],
                         capture_output=True, text=True, check=True).stdout
    fen = next(l for l in out.splitlines() if l.startswith('fen ')).split()[1:]
    rows = fen[0].split('/')
    board = {}
    ranks = len(rows)
    for i, row in enumerate(rows):
        r, f, j = ranks - 1 - i, 0, 0
        while j < len(row):
            if row[j].isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                f += int(row[j:k])
                j = k
                continue
            plus = row[j] == '+'
            if plus:
                j += 1
            board[(f, r)] = ('+' if plus else '') + row[j]
            f += 1
            j += 1
    return board, fen[1]


def square(text):
    return (FILES.index(text[0]), int(text[1:]) - 1)


def apply(board, move, files):
    """The board after a move HaChu accepted (acedrex refuses the ones that leave a king attacked,
    so it cannot be asked): the legs, a piece taken on the way, castling (a king moving two files:
    the corner piece on its side jumps over it), e.p. and queening."""
    b = dict(board)
    squares = [square(t) for t in re.findall(r'[a-p][0-9]+', move)]
    start, end = squares[0], squares[-1]
    piece = b.pop(start)
    for via in squares[1:-1]:
        b.pop(via, None)
    if piece.upper() == 'P' and start[0] != end[0] and end not in b:
        b.pop((end[0], start[1]), None)
    if piece.upper() == 'K' and abs(end[0] - start[0]) == 2 and start[1] == end[1]:
        corner = (files - 1 if end[0] > start[0] else 0, start[1])
        b[((start[0] + end[0]) // 2, start[1])] = b.pop(corner)
    if move.endswith('q'):
        piece = 'Q' if piece.isupper() else 'q'
    b[end] = piece
    return b


def name(sq):
    return '%s%d' % (FILES[sq[0]], sq[1] + 1)


def candidates(board, white, files, ranks):
    own = [sq for sq, p in board.items() if p[-1].isupper() == white]
    out = []
    for f0 in own:
        pawn = board[f0][-1].upper() == 'P'
        for x in range(files):
            for y in range(ranks):
                t = (x, y)
                if t != f0 and t in board and board[t][-1].isupper() == white:
                    continue
                last = y == (ranks - 1 if white else 0)
                out.append(name(f0) + name(t) + ('q' if pawn and last else ''))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                e = (f0[0] + dx, f0[1] + dy)
                if (dx, dy) == (0, 0) or e not in board or board[e][-1].isupper() == white:
                    continue
                for ex in (-1, 0, 1):
                    for ey in (-1, 0, 1):
                        t = (e[0] + ex, e[1] + ey)
                        if (ex, ey) == (0, 0) or not (0 <= t[0] < files and 0 <= t[1] < ranks):
                            continue
                        if t != f0 and t in board and board[t][-1].isupper() == white:
                            continue
                        out.append(name(f0) + name(e) + ',' + name(e) + name(t))
    return out


def royal_squares(board, white):
    return [name(sq) for sq, p in board.items() if p.upper() == 'K' and p[-1].isupper() == white]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--variant', required=True)
    ap.add_argument('--acedrex-variant')
    ap.add_argument('--games', type=int, default=6)
    ap.add_argument('--plies', type=int, default=40)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--files', type=int, default=8)
    ap.add_argument('--ranks', type=int, default=8)
    ap.add_argument('--engine', default='/usr/games/hachu')
    ap.add_argument('--acedrex', default='target/release/acedrex')
    a = ap.parse_args()
    variant = a.acedrex_variant or a.variant
    rng = random.Random(a.seed)
    for _ in range(a.games):
        h = HaChu(a.engine, a.variant)
        moves = []
        for _ in range(a.plies + 1):
            board, side = board_of(a.acedrex, variant, moves)
            white = side == 'w'
            legal = []
            for m in candidates(board, white, a.files, a.ranks):
                if not h.play(m):
                    continue
                after = apply(board, m, a.files)
                kings = set(royal_squares(after, white))
                reach = [h.reach(name(sq), a.files, a.ranks)
                         for sq, p in after.items() if p[-1].isupper() != white]
                # A king that can be taken ends HaChu's search before it lists any move: then no
                # piece gets a highlight at all.
                exposed = not any(reach) or any(r & kings for r in reach)
                h.undo()
                if not exposed:
                    legal.append(m)
            print('moves %s ; legal %s' % (' '.join(moves) or '-', ' '.join(sorted(legal)) or '-'),
                  flush=True)
            if not legal:
                break
            move = rng.choice(sorted(legal))
            assert h.play(move)
            moves.append(move)
        h.send('quit')


if __name__ == '__main__':
    main()
