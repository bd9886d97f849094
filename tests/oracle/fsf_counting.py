#!/usr/bin/env python3
"""Generate tests/data/counting-fsf.txt: the makruk family's counting as Fairy-Stockfish plays it.

  python3 tests/oracle/fsf_counting.py [--engine /usr/games/fairy-stockfish] [--seed 1]

For each case (a variant, a FEN, scripted first moves) a seeded random walk is played with moves
chosen from Fairy-Stockfish's own legal list (`go perft 1`). Each ply records the FEN before the
move, the move, the FEN after it as Fairy-Stockfish prints it (`d`: the counting limit in plies in
the e.p. field, the count in the halfmove field) and Fairy-Stockfish's verdict on the position after
the move: `go depth 2 searchmoves MOVE` from the FEN before (no game history, so no repetition)
scores `mate 1` when the move won at once (`mate`), and `cp 0` when the position after it is drawn;
it was the counting rule that drew it (`draw`) when the same search with the count restarted (the
halfmove field 0) scores otherwise; 0 both ways (a drawn ending, a stalemate) is `even`, anything
else `play`. The walk stops at a draw, a mate or a position without moves. Python 3 standard library only; speaks to the engine through
tests/peers/fairy_stockfish.py.
"""
import argparse, random, sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / 'peers'))
from fairy_stockfish import Fsf  # noqa: E402

# (variant, FEN, scripted moves, random plies after them). Each side that counts is clearly behind.
CASES = [
    # Pieces' honour: a rook (16 moves, from the 3 pieces on the board: ply 6), near the limit, a
    # mate on the last ply, the count restarted by a capture that bares the king (board's honour
    # running before), two rooks (8), two khons (22), two knights (32), a khon (44), a met (64).
    ('makruk', '4k3/8/8/8/8/8/8/R3K3 w - - 0 1', [], 40),
    ('makruk', '4k3/8/8/8/8/8/3K4/R7 w - 32 27 1', [], 10),
    ('makruk', '7k/8/6K1/8/8/8/8/R7 w - 32 31 1', ['a1a8'], 0),
    ('makruk', '4k3/8/8/8/8/8/3s4/R3K3 w - 128 100 1', ['e1d2'], 12),
    ('makruk', '4k3/8/8/8/8/8/8/RR2K3 w - - 0 1', [], 20),
    ('makruk', '4k3/8/8/8/8/8/8/SS2K3 w - 44 38 1', [], 10),
    ('makruk', '4k3/8/8/8/8/8/8/NN2K3 w - 64 58 1', [], 10),
    ('makruk', '4k3/8/8/8/8/8/8/S3K3 w - 88 84 1', [], 8),
    ('makruk', '4k3/8/8/8/8/8/8/M3K3 w - 128 124 1', [], 8),
    # Board's honour: no pawn left, both sides with more than the king (64 moves from 0); the
    # capture of the last pawn starts it; with a pawn on the board nothing counts.
    ('makruk', '3sk3/8/8/8/8/8/8/RR2K3 w - 128 122 1', [], 10),
    ('makruk', '3sk3/8/8/8/8/8/3p4/RR2K3 w - - 0 1', ['e1d2'], 6),
    ('makruk', '4k3/8/8/8/p7/8/8/RR2K3 w - - 0 1', [], 12),
    # The family: makpong, cambodian, karouk (the first check wins), ai-wok (its ai-wok counts as
    # none of the honour pieces: 64 moves).
    ('makpong', '4k3/8/8/8/8/8/3K4/R7 w - 32 27 1', [], 10),
    ('cambodian', '4k3/8/8/8/8/8/3K4/R7 w - 32 27 1', [], 10),
    ('cambodian', '3sk3/8/8/8/8/8/8/RR2K3 w - - 0 1', [], 8),
    ('karouk', '4k3/8/8/8/8/8/8/R3K3 w - - 1+1 0 1', [], 20),
    ('ai-wok', '4k3/8/8/8/8/8/8/A3K3 w - - 0 1', [], 12),
    ('ai-wok', '4k3/8/8/8/8/8/3K4/A7 w - 128 124 1', [], 8),
    # ASEAN: only a bare king counts, from zero, pawns or not: a rook 16, khon and met 44, knight and
    # met 64, a khon alone nothing.
    ('asean', '4k3/8/8/8/8/P7/8/R3K3 w - - 0 1', [], 12),
    ('asean', '4k3/8/8/8/8/8/3K4/R7 w - 32 28 1', [], 8),
    ('asean', '4k3/8/8/8/8/8/8/BQ2K3 w - 88 84 1', [], 8),
    ('asean', '4k3/8/8/8/8/8/8/NQ2K3 w - 128 124 1', [], 8),
    ('asean', '4k3/8/8/8/8/8/8/B3K3 w - - 0 1', [], 10),
    # Sittuyin counts as ASEAN does, with its own letters (rook 16, elephant and general 44, horse and
    # general 64), and has no move-count rule.
    ('sittuyin', '4k3/8/8/8/8/8/3K4/R7[] w - 32 28 1', [], 8),
    ('sittuyin', '4k3/8/8/8/P7/8/8/R3K3[] w - - 0 1', [], 12),
    ('sittuyin', '4k3/8/8/8/8/8/8/SF2K3[] w - 88 84 1', [], 8),
    ('sittuyin', '4k3/8/8/8/8/8/8/NF2K3[] w - 128 124 1', [], 8),
]


def score(fsf, fen, move):
    out = fsf.ask(f'position fen {fen}', f'go depth 2 searchmoves {move}', until='bestmove')
    return [l.split(' score ')[1].split()[:2] for l in out if l.startswith('info depth 2 ') and ' score ' in l][-1]


def verdict(fsf, fen, move):
    """`mate` when the move wins at once (mate, or karouk's check); `draw` when the position after it
    scores 0 but scores otherwise with the count restarted (the halfmove field set to 0): the counting
    rule drew it; `even` when it scores 0 either way (a drawn ending, a stalemate: the verdict says
    nothing about counting); else `play`."""
    s = score(fsf, fen, move)
    if s == ['mate', '1']:
        return 'mate'
    f = fen.split()
    if f[3].isdigit():
        f[-2] = '0'
        ref = score(fsf, ' '.join(f), move)
    else:
        ref = s
    if s == ['cp', '0']:
        return 'even' if ref == ['cp', '0'] else 'draw'
    return 'play'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--engine', default='/usr/games/fairy-stockfish')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--out', default=str(Path(__file__).resolve().parents[1] / 'data' / 'counting-fsf.txt'))
    a = ap.parse_args()
    fsf = Fsf(a.engine)
    lines = [f'# The makruk family\'s counting as {fsf.name} (its UCI id name) plays it,',
             f'# generated by tests/oracle/fsf_counting.py (seed {a.seed}); read by tests/counting.rs.',
             '# Each line: variant;FEN before;move;FEN after (Fairy-Stockfish\'s `d`);verdict on the position after',
             '# the move: mate (`mate 1`), draw (`cp 0`, but not with the count restarted), even (`cp 0` both ways),',
             '# play (any other); see the script\'s header.',
             '# A case starts with a line `# case VARIANT FEN`.']
    for k, (v, start, script, plies) in enumerate(CASES):
        fsf.variant(v)
        rng = random.Random(f'{a.seed}:{k}')
        lines.append(f'# case {v} {start}')
        fen = fsf.fen(f'position fen {start}')
        moves = list(script)
        for i in range(len(script) + plies):
            legal = sorted(fsf.perft(f'position fen {fen}', 1)[1])
            if not legal:
                break
            m = moves[i] if i < len(moves) else rng.choice(legal)
            assert m in legal, (v, fen, m)
            after = fsf.fen(f'position fen {fen} moves {m}')
            what = verdict(fsf, fen, m)
            lines.append(f'{v};{fen};{m};{after};{what}')
            print(lines[-1], file=sys.stderr)
            fen = after
            if what in ('draw', 'mate'):
                break
    Path(a.out).write_text('\n'.join(lines) + '\n')
    fsf.close()


if __name__ == '__main__':
    main()
