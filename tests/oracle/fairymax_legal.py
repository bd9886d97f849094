#!/usr/bin/env python3
"""Generate tests/perft/grant-acedrex-fairymax.txt: Fairy-Max's legal move sets for Grant Acedrex positions.

  python3 tests/oracle/fairymax_legal.py [--engine /usr/games/fairymax] [--seed 1] [--games 8]

Positions: the start position, targeted move sequences (king leap, promotion, aanca, unicorn) and every
position of seeded random games (2..80 plies; at each ply a capture is preferred with probability 0.5).
Each position is one query of the probe tests/peers/fairymax_legal.py, about a second each; games run in
parallel, one Fairy-Max process per CPU.
Needs the Debian package fairymax. Python 3 standard library only.
"""
import argparse, os, random, re, subprocess, sys, threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / 'tests' / 'peers'))
from fairymax_legal import FairyMax, Rejected  # noqa: E402
FILES = 'abcdefghijkl'
BACK_RANK = 'RLUGCAKCGULR'          # a..l, both colours (kings face each other on g1 / g12)
PROMOTION = 'RLUGCAACGULR'          # by the file of the destination square; f and g promote to aanca

# (what it tests, moves from the start position). Every sequence was checked to be accepted by Fairy-Max.
TARGETED = [
    ('white king leaps g1e1 over f1 (aanca), g1i1 over the empty h1, g1g3 over g2 (crocodile)',
     'e1d2 a9a8 i1l3 a8a7 h1g2 a7a6'),
    ('black king leaps from g12 (g12e10 g12g10 g12i10)', 'a4a5'),
    ('no leap onto an enemy piece: black giraffe on i3, so g1e3 g1g3 but no g1i3',
     'a4a5 d12g10 b4b5 g10i7 c4c5 i7l5 d4d5 l5i3'),
    ('white in check by the lion d2: leaps e3 i3 allowed, g3 attacked by the lion',
     'a4a5 b12e11 b4b5 e11e8 c4c5 e8e5 k4k5 e5d2'),
    ('leap right kept after a check (king never moved); e1 now empty, so g1e1 too',
     'a4a5 b12e11 b4b5 e11e8 c4c5 e8e5 k4k5 e5d2 e1d2 l9l8'),
    ('leap right lost after Kg1-g2-g1', 'g1g2 a9a8 g2g1 a8a7'),
    ('black leap right lost after Kg12-g11-g12', 'a4a5 g12g11 a5a6 g11g12 b4b5'),
    ('white pawn b11 can promote by capture: b11a12 (rook) or b11c12 (unicorn)',
     'a4a5 l9l8 a5a6 l8l7 a6a7 l7l6 a7a8 l6l5 a8b9 a9a8 b9b10 a8a7 b10b11 a7a6'),
    ('after b11c12: white unicorn on c12',
     'a4a5 l9l8 a5a6 l8l7 a6a7 l7l6 a7a8 l6l5 a8b9 a9a8 b9b10 a8a7 b10b11 a7a6 b11c12'),
    ('black pawn a2 can promote on b1 (lion)',
     'a4a5 l9l8 a5a6 l8l7 a6a7 l7l6 a7a8 l6l5 a8b9 a9a8 b9b10 a8a7 b10b11 a7a6 b11c12 a6a5 l1l2 a5a4 l2l3 '
     'a4a3 l3l2 a3a2 l2l3'),
    ('after a2b1: black lion on b1',
     'a4a5 l9l8 a5a6 l8l7 a6a7 l7l6 a7a8 l6l5 a8b9 a9a8 b9b10 a8a7 b10b11 a7a6 b11c12 a6a5 l1l2 a5a4 l2l3 '
     'a4a3 l3l2 a3a2 l2l3 a2b1'),
    ('white pawn g11 can promote by capture: g11f12 (aanca) or g11h12 (crocodile)',
     'f4f5 l9l8 f5f6 l8l7 f6f7 l7l6 f7f8 l6l5 f8g9 k9k8 g9g10 k8k7 g10g11 k7k6'),
    ('after g11f12: white aanca on f12 (promotion on the f-file)',
     'f4f5 l9l8 f5f6 l8l7 f6f7 l7l6 f7f8 l6l5 f8g9 k9k8 g9g10 k8k7 g10g11 k7k6 g11f12'),
    ('after g11h12: white crocodile on h12',
     'f4f5 l9l8 f5f6 l8l7 f6f7 l7l6 f7f8 l6l5 f8g9 k9k8 g9g10 k8k7 g10g11 k7k6 g11h12'),
    ('black pawn c2 can promote by capture: c2b1 (lion) or c2d1 (giraffe)',
     'a1a2 d9d8 a2a3 d8d7 a3a2 d7d6 a2a3 d6d5 a3a2 d5c4 a2a3 c4c3 a3a2 c3c2 a2a3'),
    ('after c2d1: black giraffe on d1',
     'a1a2 d9d8 a2a3 d8d7 a3a2 d7d6 a2a3 d6d5 a3a2 d5c4 a2a3 c4c3 a3a2 c3c2 a2a3 c2d1'),
    ('white unicorn on d3', 'c1d3 l9l8'),
    ('white aanca on e3 (f-file open), unicorn on d3', 'c1d3 l9l8 f4f5 l8l7 f1e3 k9k8'),
    ('white unicorn on e5: slide f6 g7 h8 and capture on i9', 'c1d3 l9l8 f4f5 l8l7 f1e3 k9k8 d3e5 k8k7'),
]


def square(s):
    return FILES.index(s[0]), int(s[1:]) - 1


class Board:
    """Just enough of Grant Acedrex to tell captures: piece letters, promotion by file; no legality."""

    def __init__(self):
        self.at = {}
        for f, c in enumerate(BACK_RANK):
            self.at[f, 0], self.at[f, 11] = c, c.lower()
            self.at[f, 3], self.at[f, 8] = 'P', 'p'

    def is_capture(self, move):
        return square(re.fullmatch(r'([a-l]\d+)([a-l]\d+)', move)[2]) in self.at

    def play(self, move):
        frm, to = re.fullmatch(r'([a-l]\d+)([a-l]\d+)', move).groups()
        piece = self.at.pop(square(frm))
        f, r = square(to)
        if piece in 'Pp' and r == (11 if piece == 'P' else 0):
            piece = PROMOTION[f] if piece == 'P' else PROMOTION[f].lower()
        self.at[f, r] = piece


ENGINE = threading.local()   # one Fairy-Max per worker thread


def legal(engine, moves):
    if not hasattr(ENGINE, 'fm'):
        ENGINE.fm = FairyMax(engine, variant='grande-acedrex')
    try:
        return ENGINE.fm.legal(moves)
    except Rejected as e:
        sys.exit(f'Fairy-Max rejects move {e.args[0]} ({e.args[1]}) of "{" ".join(moves)}"')


def line(moves, legal_moves):
    return f'moves {" ".join(moves) or "-"} ; legal {" ".join(legal_moves) or "-"}'


def random_game(tool, seed, game):
    """Lines for every position of one random game."""
    rng, board, moves, out = random.Random(f'{seed}:{game}'), Board(), [], []
    length = rng.randint(2, 80)
    while True:
        ms = legal(tool, moves)
        out.append(line(moves, ms))
        if len(moves) == length or not ms:
            return out
        captures = [m for m in ms if board.is_capture(m)]
        m = rng.choice(captures if captures and rng.random() < 0.5 else ms)
        board.play(m); moves.append(m)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--engine', default='/usr/games/fairymax')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--games', type=int, default=8)
    ap.add_argument('--out', default=str(ROOT / 'tests/perft/grant-acedrex-fairymax.txt'))
    a = ap.parse_args()
    tool = a.engine
    version = subprocess.run(['dpkg-query', '-W', '-f', '${Version}', 'fairymax'], capture_output=True, text=True)
    lines = [f'# Grant Acedrex legal move sets: Fairy-Max 5.0b (Debian package fairymax {version.stdout or "?"}), '
             'variant grande-acedrex,',
             '# probed over the xboard protocol by tests/peers/fairymax_legal.py; generated by '
             f'tests/oracle/fairymax_legal.py (seed {a.seed}, {a.games} games).',
             '# Format: "moves <moves from the start position, or -> ; legal <the legal moves, or - if none>".',
             '# The legal list is a set (printed sorted by from-square, then to-square, each rank by rank a1..l1, a2..).',
             '# Moves are coordinates with two-digit ranks (g1g3, a11a12) and no promotion suffix: Fairy-Max promotes',
             '# by itself, by the file of the destination (a/l rook, b/k lion, c/j unicorn, d/i giraffe, e/h crocodile,',
             '# f/g aanca). Fairy-Max rules: no castling, king leaps only on its first move, stalemate and bare king',
             '# are not terminal here (a position without legal moves is checkmate or stalemate).',
             '# start position', line([], legal(tool, []))]
    with ThreadPoolExecutor(os.cpu_count()) as pool:
        targeted = list(pool.map(lambda t: line(t[1].split(), legal(tool, t[1].split())), TARGETED))
        games = list(pool.map(lambda g: random_game(tool, a.seed, g), range(1, a.games + 1)))
    for (what, _), l in zip(TARGETED, targeted):
        lines += [f'# {what}', l]
    for g, game in enumerate(games, 1):
        lines += [f'# random game {g}: every position of {len(game) - 1} plies '
                  '(seeded; a capture is chosen with probability 0.5 when one exists)'] + game
    Path(a.out).write_text('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
