#!/usr/bin/env python3
"""Seeded random walks through a HaChu variant, recording HaChu's legal move set at every ply.

  hachu_legal.py --variant lion [--acedrex-variant lion] [--games 6] [--plies 40] [--seed 1]
                 [--files 8 --ranks 8] [--engine /usr/games/hachu] [--acedrex target/release/acedrex]
                 [--moves "f3f5 a9a8 ..."] [--promote +] [--prefer +] [--royal-by-lift]
                 [--lions N,+O] [--two-leg L!,+D] [--reach 2] [--pawn-suffix r]
                 [--contagion W --contagion-not-by K]

Prints one line per ply: "moves <moves from the start, or -> ; legal <sorted legal moves, or ->".
Each walk starts from the start position, or after `--moves` (played by HaChu first, each one checked
legal), and picks its next move at random (seeded) from HaChu's set, but for two kinds of moves
after which HaChu's own answers go wrong (see the comment in `main`).

How HaChu is asked: it plays in force mode over the xboard protocol (`memory` first: HaChu lists
moves only with a hash table). Every candidate is sent as `usermove`; HaChu answers `Illegal move`
or makes it, and `undo` takes it back; every exchange ends with `ping`/`pong`. The candidates are
every square pair from a square of the side to move (the pass is `b1b1`; with --reach, only the
destinations on a line through the piece or near it), every two-leg move over a neighbouring
square for pieces other than pawns (`b1c2,c2c3`, the Lion's locust form; with --two-leg, for the
named pieces only), and a queening pawn's `q` suffix. Pieces are read from acedrex's FEN, with
dressed ids (`a'`, `L!`) as HaChu writes Dai's.
HaChu plays the king-capture form of its games: its list holds moves that leave the mover's king
attacked. Such a move is dropped here, judged by HaChu too: after it, HaChu is set to move (`sd 1`, `go`),
and when it can take a king it does so at once and claims the game "{king capture}". With
--royal-by-lift the move is also dropped when HaChu's `lift` of a piece of the other side, asked
before that, highlights the king's square (wa-shogi: see the option's help).
acedrex is asked only for the board (`show`) before each ply, to know where the side to move has
its pieces.
Python 3 standard library only; needs the Debian package hachu.
"""
import argparse
import random
import re
import subprocess

LOG = []
PROMOTE = ''
PAWN_SUFFIX = 'q'
TWO_LEG = None
REACH = 0
FILES = 'abcdefghijklmnop'


class HaChu:
    def __init__(self, engine, variant):
        self.engine, self.variant = engine, variant
        self.n = 0
        self.game = []
        self.p = None
        self.restart()

    def restart(self):
        """A new HaChu process: one that has played other moves may answer differently (a state
        that outlives `new` decides whether a Lion may take a protected Lion by a leap)."""
        if self.p:
            try:
                self.p.stdin.close()
            except BrokenPipeError:
                pass
            self.p.wait()
        self.p = subprocess.Popen([self.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        for line in ['xboard', 'protover 2', 'memory 16', 'new', 'variant ' + self.variant,
                     'force']:
            self.send(line)
        self.sync()

    def send(self, line):
        LOG.append(line)
        try:
            self.p.stdin.write(line + '\n')
            self.p.stdin.flush()
        except BrokenPipeError:
            raise SystemExit('hachu exited, game ' + ' '.join(self.game) + ', after: ' + ' | '.join(l for l in LOG[-80:] if l.startswith('usermove') or l == 'undo'))

    def sync(self, may_die=False):
        """HaChu's lines up to the answer to a new `ping`. With `may_die`, a HaChu that exits on
        the way (HaChu 0.21's cashew-shogi search crashes after some of its own moves) ends the
        answer instead: the caller restarts it."""
        self.n += 1
        try:
            self.send('ping %d' % self.n)
        except SystemExit:
            if may_die:
                return []
            raise
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line and may_die:
                return out
            if not line:
                raise SystemExit('hachu exited, game ' + ' '.join(self.game) + ', after: ' + ' | '.join(l for l in LOG[-80:] if l.startswith('usermove') or l == 'undo'))
            if line.startswith('tellusererror'):
                raise SystemExit('hachu refuses: ' + line.strip())
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
        """Takes the last move back by replaying the game in a new process: HaChu's own `undo`
        dies after some moves (a pass, a pawn's double step)."""
        self.game.pop()
        self.restart()
        for m in self.game:
            self.send('usermove ' + m)
        self.sync()

    def king_capture(self):
        """Whether the side to move can take a king: HaChu, set to move at depth 1, then plays the
        capture and claims the game "{king capture}". The game is replayed afterwards by `undo`."""
        self.send('sd 1')
        self.send('go')
        out = self.sync(may_die=True)
        if self.p.poll() is None:
            self.send('force')
        return any('king capture' in line for line in out)

    def captures_onto(self, froms, targets):
        """Whether HaChu's own move list, asked by `lift` for each square of `froms`, holds a
        move onto one of `targets` (occupied squares, so a capture: highlighted `R`, or `M` when
        it may promote). The position is left as it is."""
        for f in froms:
            self.send('lift ' + name(f))
        hit = False
        for line in self.sync():
            if not line.startswith('highlight '):
                continue
            marks = cells(line.split()[1])
            hit = hit or any(t in marks for t in targets)
        return hit

def board_of(acedrex, variant, moves):
    out = subprocess.run([acedrex, 'show', '--variant', variant, '--moves', ' '.join(moves)],
                         capture_output=True, text=True, check=True).stdout
    fen = next(l for l in out.splitlines() if l.startswith('fen ')).split()[1:]
    return cells(fen[0]), fen[1]


def cells(placement):
    """The occupied squares of a FEN-like placement (a FEN's, or the marks of HaChu's
    `highlight`): {(file, rank): id}, where an id is a letter, dressed or not (`a'`, `L!`, as
    HaChu writes Dai's), with `+` before it for a promoted piece, and runs of digits are empty
    squares."""
    rows = placement.split('/')
    board = {}
    for i, row in enumerate(rows):
        r, f, j = len(rows) - 1 - i, 0, 0
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
            dress = row[j + 1] if j + 1 < len(row) and row[j + 1] in "'!" else ''
            board[(f, r)] = ('+' if plus else '') + row[j] + dress
            f += 1
            j += 1 + len(dress)
    return board


def white_piece(p):
    """Whether a piece as FEN writes it (`P`, `+d`, `a'`) is White's."""
    return p.lstrip('+')[0].isupper()


def kind(p):
    """A piece's id without its side or `+`: `P`, `A'`, `L!`."""
    return p.lstrip('+').upper()


def square(text):
    return (FILES.index(text[0]), int(text[1:]) - 1)


def name(sq):
    return '%s%d' % (FILES[sq[0]], sq[1] + 1)


def candidates(board, white, files, ranks, promote=''):
    """With `promote` (`+`), every move of a piece not yet promoted is also offered with that
    suffix, as XBoard sends a shogi promotion."""
    own = [sq for sq, p in board.items() if white_piece(p) == white]
    out = []
    for f0 in own:
        first = len(out)
        moves_of(board, white, files, ranks, f0, out)
        if promote and not board[f0].startswith('+'):
            out += [m + promote for m in out[first:]]
    return out


def moves_of(board, white, files, ranks, f0, out):
    if True:
        pawn = kind(board[f0]) == 'P'
        for x in range(files):
            for y in range(ranks):
                t = (x, y)
                if t != f0 and t in board and white_piece(board[t]) == white:
                    continue
                if REACH and not reachable(f0, t):
                    continue
                last = y == (ranks - 1 if white else 0)
                out.append(name(f0) + name(t) + (PAWN_SUFFIX if pawn and last and not PROMOTE else ''))
        # HaChu also takes a pawn's e.p. capture in two legs (`h5g5,g5g6`), the same move as
        # `h5g6`: pawns are offered the one-leg form only.
        two_legs = not pawn and (TWO_LEG is None or board[f0].upper() in TWO_LEG)
        steps = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)] if two_legs else []
        for dx, dy in steps:
            e = (f0[0] + dx, f0[1] + dy)
            if e not in board or white_piece(board[e]) == white:
                continue
            for ex, ey in [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]:
                t = (e[0] + ex, e[1] + ey)
                if not (0 <= t[0] < files and 0 <= t[1] < ranks):
                    continue
                if t != f0 and t in board and white_piece(board[t]) == white:
                    continue
                out.append(name(f0) + name(e) + ',' + name(e) + name(t))


def reachable(f0, t):
    """Whether `t` lies on a queen line from `f0` or within REACH king steps of it."""
    dx, dy = abs(t[0] - f0[0]), abs(t[1] - f0[1])
    return dx == 0 or dy == 0 or dx == dy or max(dx, dy) <= REACH


def lion_leap(board, move, lions):
    """A one-leg move of a piece of `lions` onto one of them two squares away. Whether HaChu
    allows it when the target is protected depends on memory it never set (the same position
    gets both answers, after different games), so such moves are left out of the recorded sets;
    tests/hachu.rs leaves them out of acedrex's too, and checks the rule on its own."""
    squares = re.findall(r'[a-p][0-9]+', move)
    if len(squares) != 2 or not lions:
        return False
    f, t = square(squares[0]), square(squares[1])
    return (kind(board.get(f, '?')) in lions and kind(board.get(t, '?')) in lions
            and max(abs(f[0] - t[0]), abs(f[1] - t[1])) == 2)


def castles_without_right(board, move, game, files):
    """A king's two-file move along its first rank after the king or that corner's piece has
    left its square (or was taken there): HaChu does not keep castling rights and castles then too;
    acedrex keeps them as chess does, so such moves are not asked."""
    squares = re.findall(r'[a-p][0-9]+', move)
    if len(squares) != 2:
        return False
    f, t = square(squares[0]), square(squares[1])
    if board.get(f, '?').upper() != 'K' or f[1] != t[1] or abs(f[0] - t[0]) != 2:
        return False
    corner = name((files - 1 if t[0] > f[0] else 0, f[1]))
    touched = set()
    for m in game:
        touched.update(re.findall(r'[a-p][0-9]+', m))
    return squares[0] in touched or corner in touched


def contagion_text(board, move, kinds, not_by):
    """`move` as HaChu writes it in werewolf: a piece other than a werewolf or a king that takes a
    werewolf on its destination becomes one, and HaChu writes the move as a promotion to it
    (`e2d3w`); it reads the move without the suffix too, which is how it was asked."""
    squares = re.findall(r'[a-p][0-9]+', move)
    mover, victim = board.get(square(squares[0]), '?'), board.get(square(squares[-1]), '')
    if (victim and kind(victim) in kinds and kind(mover) not in not_by
            and kind(mover) != kind(victim)):
        return re.sub(r'[a-z]+$', '', move) + kind(victim).lower()
    return move


def is_pass(move):
    """A move from a square to itself (`b1b1`)."""
    squares = re.findall(r'[a-p][0-9]+', move)
    return len(squares) == 2 and squares[0] == squares[1]


def royal_squares(board, white):
    return [name(sq) for sq, p in board.items() if p.upper() == 'K' and white_piece(p) == white]


def after_royals(board, white, move):
    """The mover's king squares after `move` (a king's move takes its king along)."""
    squares = re.findall(r'[a-p][0-9]+', move)
    f, t = square(squares[0]), square(squares[-1])
    kings = [sq for sq, p in board.items() if p.upper() == 'K' and white_piece(p) == white]
    return [t if k == f else k for k in kings]


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
    ap.add_argument('--lions', default='',
                    help='ids of the pieces under Lion-trading rules: letters (`L`), or ids '
                         'separated by commas (`N,+O`: a Lion and a promoted kirin)')
    ap.add_argument('--moves', default='',
                    help='moves to play from the start before each walk (to reach a rare position, '
                         'such as one with a crown prince); each must be legal for HaChu')
    ap.add_argument('--royal-by-lift', action='store_true',
                    help='also drop a move after which HaChu lists, for a piece of the other side '
                         '(asked by `lift`), a capture of the mover\'s king: HaChu\'s wa-shogi '
                         'takes the piece after the king in its piece list (Black\'s treacherous '
                         'fox, as it sets up the start) for a crown prince, and while that piece '
                         'is on the board it never claims that king\'s capture')
    ap.add_argument('--prefer', default='',
                    help='play a move with this suffix (`+`: a promotion) whenever the walk has one, so '
                         'that promoted pieces soon move')
    ap.add_argument('--promote', default='',
                    help='also offer every move of an unpromoted piece with this suffix (`+`)')
    ap.add_argument('--two-leg', default=None,
                    help='ids, separated by commas, of the only pieces offered two-leg moves '
                         '(`L!,+D,+H`: the pieces with Lion power); default every piece but pawns')
    ap.add_argument('--pawn-suffix', default='q',
                    help='the suffix offered with a pawn\'s move to the last rank without --promote '
                         '(`r`: werewolf\'s pawns promote to a rook only)')
    ap.add_argument('--contagion', default='',
                    help='ids, separated by commas, of kinds whose taker becomes their kind (werewolf\'s '
                         '`W`): such a capture is recorded with that kind\'s suffix, as HaChu writes it')
    ap.add_argument('--contagion-not-by', default='',
                    help='ids, separated by commas, of kinds that stay what they are when they take one '
                         'of --contagion (`K`)')
    ap.add_argument('--reach', type=int, default=0,
                    help='offer only destinations on a queen line from the piece or within this '
                         'many king steps of it (a superset of every move when no piece leaps '
                         'further off the lines); default 0: every square')
    a = ap.parse_args()
    global PROMOTE, TWO_LEG, REACH, PAWN_SUFFIX
    PROMOTE = a.promote
    PAWN_SUFFIX = a.pawn_suffix
    contagious = a.contagion.split(',') if a.contagion else []
    not_by = a.contagion_not_by.split(',') if a.contagion_not_by else []
    TWO_LEG = a.two_leg.split(',') if a.two_leg is not None else None
    REACH = a.reach
    lions = a.lions.split(',') if ',' in a.lions else list(a.lions)
    variant = a.acedrex_variant or a.variant
    rng = random.Random(a.seed)
    for _ in range(a.games):
        h = HaChu(a.engine, a.variant)
        moves = []
        for m in a.moves.split():
            if not h.play(m):
                raise SystemExit('hachu refuses %s after: %s' % (m, ' '.join(moves) or '-'))
            moves.append(m)
        homes = set(royal_squares(board_of(a.acedrex, variant, [])[0], True)) | set(
            royal_squares(board_of(a.acedrex, variant, [])[0], False))
        for _ in range(a.plies + 1):
            board, side = board_of(a.acedrex, variant, moves)
            white = side == 'w'
            legal = []
            for m in candidates(board, white, a.files, a.ranks, a.promote):
                if lion_leap(board, m, lions) or castles_without_right(board, m, moves, a.files):
                    continue
                if not h.play(m):
                    continue
                exposed = a.royal_by_lift and h.captures_onto(
                    [sq for sq, p in board.items() if white_piece(p) != white],
                    after_royals(board, white, m))
                exposed = exposed or h.king_capture()
                h.undo()
                if not exposed:
                    legal.append(contagion_text(board, m, contagious, not_by) if contagious else m)
            print('moves %s ; legal %s' % (' '.join(moves) or '-', ' '.join(sorted(legal)) or '-'),
                  flush=True)
            if not legal:
                break
            # Some moves are recorded but never played, for HaChu's sake: a pass (after replaying
            # one, HaChu lets a Lion take a protected Lion from afar, and its `undo` dies), and a
            # piece other than a king onto a king's start square (HaChu's castling code then
            # mistakes that piece's moves: it refuses a queen on e1 its step to d1).
            # Nor a pawn's move that could promote and does not: HaChu then takes that pawn's
            # right to promote away for good (but on the last rank), a state of the piece that
            # acedrex does not keep.
            def playable(m):
                squares = re.findall(r'[a-p][0-9]+', m)
                king = board[square(squares[0])].upper() == 'K'
                declines = (a.promote and kind(board[square(squares[0])]) == 'P'
                            and m + a.promote in legal)
                return not is_pass(m) and not declines and (king or squares[-1] not in homes)
            playable = sorted(filter(playable, legal)) or sorted(legal)
            if a.prefer and any(m.endswith(a.prefer) for m in playable):
                playable = [m for m in playable if m.endswith(a.prefer)]
            move = rng.choice(playable)
            assert h.play(move)
            moves.append(move)
        h.send('quit')
        h.p.wait()


if __name__ == '__main__':
    main()
