#!/usr/bin/env python3
"""Headless XBoard matches between two xboard (CECP) engines, refereed by XBoard under Xvfb.

  xboard_match.py --first CMD --second CMD [--variant grande-acedrex] [--games 2] [--tc 0:10+0.1]
                  [--openings FILE] [--out DIR] [--first-name N] [--second-name N] [--max-moves 300] ...

Each game is one XBoard run (-mg 1) on a private X server, so a crash or hang spoils only that game. The
first engine is the one XBoard takes a variant definition (`setup`/`piece`) from. Colours alternate: the
first engine has White in games 1, 3, 5, ...; with --openings, games 2k-1 and 2k play opening k with
the colours swapped (--games defaults to two per opening). An openings file holds one opening a line:
a FEN, or coordinate moves from the start position ("e2e4 e7e5"); blank lines and # comments are
skipped. XBoard loads an opening before the first engine's `setup` line arrives, so for a variant that
engine defines (HaChu's wa-shogi) it refuses the moves; with --openings-by-engines the relay plays each
engine's moves of the opening instead, and XBoard checks them as they come.

Time controls: M:SS+INC or SS+INC (base and increment), M:SS (sudden death), MPS/M:SS (moves per
session), st=N (N seconds a move).

Writes to --out: games.pgn (every game, XBoard's extended move info), game-N.debug (XBoard's protocol log
of game N), game-N.pgn, xboard.stderr, summary.json. Prints one line per game, a short summary, and last
the summary as one JSON line (also summary.json): per engine points, W/D/L, and the faults XBoard saw
(illegal moves, false claims, crashes or hangs, time forfeits) and `Illegal move`/`Error` replies the
engine sent; how each game ended. Exit status 0 when every game finished, 1 otherwise, 2 on bad usage.

Needs the Debian packages xboard and xvfb. Python 3 standard library only.
"""
import argparse
import json
import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

RESULTS = ('1-0', '0-1', '1/2-1/2', '*')
ROLES = ('first', 'second')
# Endings that are an engine's fault; the engine that lost the game committed it.
FAULTS = {'illegal move': 'illegal_moves', 'false claim': 'false_claims', 'crash': 'crashes',
          'time forfeit': 'time_forfeits'}


# ------------------------------------------------------------------ time control

def seconds(text):
    """'M:SS' or 'SS' (fractions allowed) as seconds."""
    parts = text.split(':')
    if len(parts) > 2:
        raise ValueError(text)
    return sum(float(p) * 60 ** i for i, p in enumerate(reversed(parts)))


def time_control(tc, max_moves):
    """XBoard arguments for a time control and the longest a game under it can take (seconds)."""
    if tc.startswith('st='):
        st = float(tc[3:])
        # XBoard reads -st as minutes[:seconds].
        return ['-st', f'0:{tc[3:]}'], 2 * max_moves * (st + 0.5) + 30
    if '/' in tc:
        mps, base = tc.split('/', 1)
        sessions = math.ceil(max_moves / int(mps))
        return ['-mps', mps, '-tc', base], 2 * seconds(base) * sessions * 1.2 + 30
    base, inc = (tc.split('+', 1) + ['0'])[:2]
    if ':' not in base:
        base = f'0:{base}'
    return ['-tc', base, '-inc', inc], 2 * (seconds(base) + float(inc) * max_moves) * 1.2 + 30


# ------------------------------------------------------------------ PGN

def parse_pgn(text):
    """The games of an XBoard PGN file: [{'tags': {...}, 'movetext': str}]."""
    games, tags, body = [], None, []
    for line in text.splitlines():
        m = re.match(r'\s*\[(\w+)\s+"(.*)"\]\s*$', line)
        if m:
            if tags is not None and body:
                games.append({'tags': tags, 'movetext': ' '.join(body)})
                tags, body = None, []
            tags = tags if tags is not None else {}
            tags[m[1]] = m[2]
        elif tags is not None and line.strip():
            body.append(line.strip())
    if tags is not None:
        games.append({'tags': tags, 'movetext': ' '.join(body)})
    return games


def without_comments(movetext):
    return re.sub(r'\{[^}]*\}', ' ', movetext)


def plies(movetext):
    tokens = without_comments(movetext).split()
    return sum(1 for t in tokens if t not in RESULTS and not re.fullmatch(r'\d+\.+', t))


def reason(movetext):
    """The comment XBoard writes before the result token: why the game ended ('' if none)."""
    text = movetext.rstrip()
    for r in RESULTS:
        if text.endswith(r):
            text = text[:-len(r)].rstrip()
            break
    m = re.search(r'\{([^{}]*)\}$', text)
    if not m:
        return ''
    c = m[1].strip()
    # Extended move info ("+0.33/5 0.4") is not a reason.
    return '' if re.fullmatch(r'[-+]?[\d.]+/\d+(\s+[\d.:]+)?', c) else c


def ending(why, result):
    """A fixed category for how a game ended."""
    r = why.lower()
    table = [
        ('false claim', lambda: 'false' in r and 'claim' in r),
        ('illegal move', lambda: 'illegal' in r or 'invalid move' in r),
        ('time forfeit', lambda: 'on time' in r or 'time forfeit' in r or 'flag' in r),
        ('crash', lambda: any(w in r for w in ('exit', 'crash', 'died', 'terminated', 'error writing',
                                                 'error reading'))),
        ('stalemate', lambda: 'stalemate' in r),
        ('checkmate', lambda: 'checkmate' in r or 'mates' in r),
        ('bare king', lambda: 'bare king' in r),
        ('repetition', lambda: 'repetition' in r or 'perpetual' in r),
        ('50-move rule', lambda: '50-move' in r or 'fifty' in r),
        ('move cap', lambda: 'long game' in r or 'game too long' in r),
        ('insufficient material', lambda: 'insufficient' in r),
        ('resignation', lambda: 'resign' in r),
        ('draw agreed', lambda: 'agree' in r),
        ('adjudication', lambda: 'adjudicat' in r),
    ]
    if result == '*':
        return 'unfinished'
    return next((name for name, hit in table if hit()), 'other' if r else 'no reason given')


# ------------------------------------------------------------------ processes

class Display:
    """A private Xvfb server; XBoard needs a display even with -noGUI."""

    def __init__(self, log):
        read, write = os.pipe()
        self.proc = subprocess.Popen(['Xvfb', '-displayfd', str(write), '-screen', '0', '1280x1024x24',
                                      '-nolisten', 'tcp'], pass_fds=[write], stdout=log, stderr=log,
                                     start_new_session=True)
        os.close(write)
        with os.fdopen(read) as r:
            number = r.readline().strip()
        if not number:
            raise RuntimeError('Xvfb did not start')
        self.name = f':{number}'

    def close(self):
        stop_group(self.proc)


def stop_group(proc, grace=5):
    """Stops a process started in its own session, with everything it started."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(grace)
            if sig == signal.SIGTERM:
                # XBoard can leave engines behind that ignore its `quit`.
                os.killpg(proc.pid, signal.SIGKILL)
            break
        except subprocess.TimeoutExpired:
            continue
        except ProcessLookupError:
            break
    try:
        proc.wait(1)
    except subprocess.TimeoutExpired:
        pass


def absolute_command(cmd):
    """The engine command with a relative program path made absolute (XBoard runs in another directory)."""
    words = shlex.split(cmd)
    if words and os.sep in words[0] and os.path.exists(words[0]):
        words[0] = os.path.abspath(words[0])
    return shlex.join(words)


class Book:
    """The engine's side of an opening played through the relay: while the game's plies are within
    the opening, the relay answers XBoard with the opening's next move itself and hands every move to
    the engine in force mode; the ply after the opening, it sends the engine `go` (or its opponent's
    move, then `go`). XBoard thus sees the engines play the opening, and checks every move of it."""

    MOVE = re.compile(r'([a-p]\d+[a-p]\d+\S*|\+?[A-Za-z]@[a-p]\d+|@@@@)$')

    def __init__(self, moves, send, tell):
        self.moves, self.send, self.tell = moves, send, tell
        self.ply, self.forced, self.held = 0, False, False
        # How XBoard writes a move to this engine: `usermove e2e4` once it has accepted the
        # engine's `usermove=1` feature, else the bare move.
        self.prefix = ''

    def line(self, line):
        """Handles one line from XBoard; False when it is to be passed on unchanged."""
        words = line.split()
        if words == ['accepted', 'usermove']:
            self.prefix = 'usermove '
            return False
        if len(words) == 1 and not self.prefix and self.MOVE.match(words[0]):
            words = ['usermove', words[0]]
        cmd = words[0] if words else ''
        if cmd == 'new':
            self.ply, self.forced, self.held = 0, False, False
            return False
        if cmd == 'force':
            self.forced = True
            return False
        if cmd == 'go':
            self.forced = False
            return self.turn()
        if cmd == 'usermove' and len(words) > 1:
            self.ply += 1
            if not self.held:
                if self.forced or self.ply >= len(self.moves):
                    return False
                self.send('force\n')
                self.held = True
            self.send(line)
            if not self.forced:
                self.turn()
            return True
        return False

    def turn(self):
        """The engine is to move: from the opening, or by thinking once the opening is over."""
        if self.ply < len(self.moves):
            if not self.held:
                self.send('force\n')
                self.held = True
            move = self.moves[self.ply]
            self.send(f'{self.prefix}{move}\n')
            self.tell(f'move {move}\n')
            self.ply += 1
            return True
        if self.held:
            self.held = False
            self.send('go\n')
            return True
        return False


def relay(argv):
    """`xboard_match.py relay [--drop CMD]... [--book MOVES] -- ENGINE...`: runs ENGINE with XBoard's
    lines passed on, less the commands named by --drop (compared by first word). The engine's output goes
    straight to XBoard. With --book, the relay plays the engine's moves of that opening (see Book)."""
    ap = argparse.ArgumentParser(prog='xboard_match.py relay')
    ap.add_argument('--drop', action='append', default=[])
    ap.add_argument('--book', default='')
    ap.add_argument('engine', nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    engine = a.engine[1:] if a.engine[:1] == ['--'] else a.engine
    child = subprocess.Popen(engine, stdin=subprocess.PIPE, text=True, bufsize=1)
    signal.signal(signal.SIGTERM, lambda *_: (child.terminate(), sys.exit(0)))
    # XBoard signals the process it started: pass its interrupts on to the engine.
    signal.signal(signal.SIGINT, lambda *_: child.send_signal(signal.SIGINT))

    def send(line):
        child.stdin.write(line)
        child.stdin.flush()

    def tell(line):
        sys.stdout.write(line)
        sys.stdout.flush()

    book = Book(a.book.split(), send, tell) if a.book else None
    try:
        for line in iter(sys.stdin.readline, ''):
            if line.split()[:1] and line.split()[0] in a.drop:
                continue
            if book and book.line(line):
                continue
            send(line)
        child.stdin.close()
    except BrokenPipeError:
        pass
    sys.exit(child.wait())


def engine_command(cmd, drop, book=''):
    """The command XBoard starts for an engine: absolute, and behind the relay when lines are dropped
    or the relay plays an opening."""
    cmd = absolute_command(cmd)
    if not drop and not book:
        return cmd
    drops = ' '.join(f'--drop {shlex.quote(d)}' for d in drop)
    books = f'--book {shlex.quote(book)}' if book else ''
    return f'{shlex.quote(sys.executable)} {shlex.quote(os.path.abspath(__file__))} relay {drops} {books} -- {cmd}'


# ------------------------------------------------------------------ one game

def load_openings(path):
    openings = []
    for line in Path(path).read_text().splitlines():
        line = line.split('#', 1)[0].strip()
        if line:
            openings.append(line)
    if not openings:
        raise ValueError(f'{path} holds no opening')
    return openings


def is_fen(opening):
    return '/' in opening.split()[0]


def opening_args(opening, gamedir, variant):
    """XBoard arguments that start a game from an opening (a FEN or moves from the start)."""
    if opening is None:
        return []
    if is_fen(opening):
        (gamedir / 'opening.fen').write_text(opening + '\n')
        return ['-lpf', str(gamedir / 'opening.fen'), '-lpi', '1']
    moves = opening.split()
    text = ''.join(f'{i // 2 + 1}. {m} ' if i % 2 == 0 else f'{m} ' for i, m in enumerate(moves))
    (gamedir / 'opening.pgn').write_text(f'[Event "opening"]\n[Variant "{variant}"]\n[Result "*"]\n\n{text}*\n')
    return ['-lgf', str(gamedir / 'opening.pgn'), '-lgi', '1', '-td', '0']


def engine_lines(debug_text, role):
    """What an engine sent, from XBoard's protocol log (lines `<number> <first : text`)."""
    tag = 'first ' if role == 'first' else 'second'
    return [m[1] for m in re.finditer(r'^\d+ <' + tag + r': (.*)$', debug_text, re.M)]


def on_move(debug_text, white_role):
    """The engine XBoard was waiting for when the log ends: the other one than the last to move."""
    last = None
    for m in re.finditer(r'^\d+ <(first |second): move ', debug_text, re.M):
        last = m[1].strip()
    if last is None:
        return white_role
    return 'second' if last == 'first' else 'first'


def play_game(a, n, opening, first_white, display, out):
    gamedir = out / f'.game-{n}'
    shutil.rmtree(gamedir, ignore_errors=True)
    (gamedir / 'home').mkdir(parents=True)
    pgn, debug = out / f'game-{n}.pgn', out / f'game-{n}.debug'
    for f in (pgn, debug):
        f.unlink(missing_ok=True)
    tc_args, worst = time_control(a.tc, a.max_moves)
    book = opening if a.openings_by_engines and opening and not is_fen(opening) else ''
    argv = [a.xboard, '-noGUI', '-xexit', '-saveSettingsOnExit', 'false', '-soundProgram', '',
            '-popupMoveErrors', 'false', '-variant', a.variant,
            '-fcp', engine_command(a.first, a.first_drop, book),
            '-scp', engine_command(a.second, a.second_drop, book),
            '-fn', a.first_name, '-sn', a.second_name, '-firstPlaysBlack', 'false' if first_white else 'true',
            '-mg', '1', *tc_args, '-xponder', '-autoCallFlag', 'true',
            '-testLegality', 'true', '-checkMates', 'true', '-testClaims', 'true',
            '-materialDraws', 'true', '-trivialDraws', 'false', '-ruleMoves', str(a.rule_moves),
            '-repeatsToDraw', str(a.repeats), '-adjudicateDrawMoves', str(a.max_moves),
            *(['-adjudicateLossThreshold', str(-a.resign)] if a.resign else []),
            '-sgf', str(pgn), '-pgnExtendedInfo', 'true', '-saveOutOfBookInfo', 'false',
            '-debug', '-nameOfDebugFile', str(debug),
            *([] if book else opening_args(opening, gamedir, a.variant)), *shlex.split(a.xboard_args)]
    env = dict(os.environ, DISPLAY=display.name, HOME=str(gamedir / 'home'))
    with open(out / 'xboard.stderr', 'a') as err:
        err.write(f'== game {n}: {shlex.join(argv)}\n')
        err.flush()
        proc = subprocess.Popen(argv, cwd=gamedir, env=env, stdin=subprocess.DEVNULL, stdout=err, stderr=err,
                                start_new_session=True)
        stall = a.stall or worst / 2 + 30
        start = last_change = time.monotonic()
        size, stopped = -1, None
        while proc.poll() is None:
            time.sleep(1)
            now = time.monotonic()
            grown = debug.stat().st_size if debug.exists() else 0
            if grown != size:
                size, last_change = grown, now
            if now - last_change > stall:
                stopped = f'hang: no protocol traffic for {stall:.0f}s'
            elif now - start > worst:
                stopped = f'watchdog: the game outlasted {worst:.0f}s'
            if stopped:
                break
        stop_group(proc)
    shutil.rmtree(gamedir, ignore_errors=True)

    white_role, black_role = ('first', 'second') if first_white else ('second', 'first')
    names = {'first': a.first_name, 'second': a.second_name}
    games = parse_pgn(pgn.read_text(errors='replace')) if pgn.exists() else []
    g = games[-1] if games else {'tags': {}, 'movetext': ''}
    result = g['tags'].get('Result', '*')
    why = reason(g['movetext']) if games else ''
    log = debug.read_text(errors='replace') if debug.exists() else ''
    told = re.findall(r'^\d+ >(?:first |second): result (\S+) \{(.*)\}\s*$', log, re.M)
    if not games and told:
        # XBoard saves no record of a game without moves (say, lost on time before the first move).
        result, why = told[-1]
        g = {'tags': {'White': names[white_role], 'Black': names[black_role], 'Result': result},
             'movetext': f'{{{why}}} {result}'}
        setboard = re.findall(r'^\d+ >(?:first |second): setboard (.*)$', log, re.M)
        if setboard:
            g['tags'].update(SetUp='1', FEN=setboard[-1].strip())
    kind = ending(why, result)
    culprit = None
    if result == '*' and stopped:
        # XBoard does not notice an engine that dies while thinking: it waits for it forever.
        kind, why, culprit = 'crash', stopped, on_move(log, white_role)
    elif kind in FAULTS:
        culprit = {'1-0': black_role, '0-1': white_role}.get(result)
    return {
        'game': n, 'white': white_role, 'black': black_role, 'opening': opening, 'result': result,
        'reason': why, 'ending': kind, 'culprit': culprit, 'plies': plies(g['movetext']),
        'fen': g['tags'].get('FEN'),
        'error_replies': {r: sum(1 for l in engine_lines(log, r) if l.startswith(('Illegal move', 'Error')))
                     for r in ROLES},
        'pgn': g,
    }


# ------------------------------------------------------------------ the match

def elo(wins, draws, losses):
    """Logistic Elo of a score with its 95 % interval, from the per-game variance of the
    results (the trinomial model): (elo, low, high), None where no games were played. A score of
    0 or 1 is held just inside (half a point from the end), so a sweep reads as a bound, with the
    rule of three for its other end."""
    n = wins + draws + losses
    if n == 0:
        return None
    p = (wins + 0.5 * draws) / n
    var = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p ** 2) / n
    # A sweep has no spread: its bound is the rule of three (3/n from the end).
    half = 1.96 * math.sqrt(var / n) if var > 0 else 3 / n
    edge = 0.5 / n

    def to_elo(x):
        x = min(max(x, edge), 1 - edge)
        return -400 * math.log10(1 / x - 1)
    return round(to_elo(p)), round(to_elo(p - half)), round(to_elo(p + half))


def summarize(a, games, seconds_taken):
    engines = {}
    for role, name in zip(ROLES, (a.first_name, a.second_name)):
        e = {'name': name, 'games': 0, 'wins': 0, 'draws': 0, 'losses': 0, 'points': 0.0,
             **{k: 0 for k in FAULTS.values()}, 'error_replies': 0}
        for g in games:
            e['error_replies'] += g['error_replies'][role]
            if g['culprit'] == role:
                e[FAULTS[g['ending']]] += 1
            if g['result'] == '*':
                continue
            e['games'] += 1
            mine = '1-0' if g['white'] == role else '0-1'
            if g['result'] == '1/2-1/2':
                e['draws'] += 1
            elif g['result'] == mine:
                e['wins'] += 1
            else:
                e['losses'] += 1
        e['points'] = e['wins'] + 0.5 * e['draws']
        e['elo'] = elo(e['wins'], e['draws'], e['losses'])
        engines[role] = e
    return {
        'variant': a.variant, 'tc': a.tc, 'games': len(games),
        'withheld': {'first': a.first_drop, 'second': a.second_drop},
        'finished': sum(g['result'] != '*' for g in games),
        'score': f"{engines['first']['points']:g}-{engines['second']['points']:g}",
        'engines': engines,
        'endings': dict(Counter(g['ending'] for g in games).most_common()),
        'game_list': [{k: v for k, v in g.items() if k != 'pgn'} for g in games],
        'seconds': round(seconds_taken),
        'out': str(a.out),
    }


def write_pgn(path, games):
    with open(path, 'w') as f:
        for g in games:
            tags = g['pgn']['tags'] or {'Event': 'unfinished', 'Result': '*'}
            for k, v in tags.items():
                f.write(f'[{k} "{v}"]\n')
            f.write('\n' + (g['pgn']['movetext'] or '*') + '\n\n')


def selftest():
    """`xboard_match.py selftest`: checks the parts that need no XBoard (run by tests/peers.rs)."""
    assert time_control('0:10+0.1', 100)[0] == ['-tc', '0:10', '-inc', '0.1']
    assert time_control('15+0.5', 100)[0] == ['-tc', '0:15', '-inc', '0.5']
    assert time_control('1:30', 100)[0] == ['-tc', '1:30', '-inc', '0']
    assert time_control('40/5:00', 100)[0] == ['-mps', '40', '-tc', '5:00']
    assert time_control('st=2', 100) == (['-st', '0:2'], 2 * 100 * 2.5 + 30)
    for why, result, kind in [
            ('Xboard adjudication: Checkmate', '1-0', 'checkmate'), ('White mates', '1-0', 'checkmate'),
            ('Xboard adjudication: Stalemate', '0-1', 'stalemate'), ('Black wins on time', '0-1', 'time forfeit'),
            ('Xboard adjudication: Bare king', '1-0', 'bare king'),
            ('Xboard adjudication: long game', '1/2-1/2', 'move cap'),
            ('Xboard adjudication: 3-fold repetition', '1/2-1/2', 'repetition'),
            ('False draw claim: \'1/2-1/2 {stalemate}\'', '1-0', 'false claim'),
            ('Illegal move: a4a7', '0-1', 'illegal move'),
            ('Error writing to first chess program', '1-0', 'crash'),
            ('', '*', 'unfinished'), ('', '1-0', 'no reason given')]:
        assert ending(why, result) == kind, (why, ending(why, result))
    text = ('[Event "m"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n[FEN "8/8 w - - 0 1"]\n\n'
            '{--------------\nboard\n--------------}\n1. a4a5 {+0.10/6 0.7} a9a8 {-0.20/5 0.4}\n'
            '2. b4b5 {+9.99/3 0.1} {Xboard adjudication: Checkmate} 1-0\n\n'
            '[Event "m"]\n[White "b"]\n[Black "a"]\n[Result "*"]\n\n*\n')
    games = parse_pgn(text)
    assert [g['tags']['White'] for g in games] == ['a', 'b'], games
    assert plies(games[0]['movetext']) == 3 and plies(games[1]['movetext']) == 0
    assert reason(games[0]['movetext']) == 'Xboard adjudication: Checkmate'
    assert reason('1. e4 {+0.33/5 0.4} *') == ''
    log = '100 >first : go\n200 <first : move e2e4\n210 >second: usermove e2e4\n'
    assert on_move(log, 'first') == 'second' and on_move('', 'second') == 'second'
    assert engine_lines('5 <second: Error (unknown command): computer\n6 <first : pong 1\n', 'second') == [
        'Error (unknown command): computer']
    assert elo(10, 0, 10) == (0, -163, 163), elo(10, 0, 10)
    assert elo(0, 0, 0) is None and elo(3, 2, 0)[0] > 0 > elo(0, 2, 3)[0]
    assert elo(0, 0, 20) == (-636, -636, -301), elo(0, 0, 20)
    # The relay's opening: for the engine with White it answers `go` and the replies from the opening,
    # and thinks (`go`) from the first ply after it; with Black likewise, and it never thinks inside it.
    for lines, want_sent, want_told in [
            (['new', 'force', 'go', 'usermove b', 'usermove d', 'usermove f'],
             ['new', 'force', 'force', 'usermove a', 'usermove b', 'usermove c', 'usermove d', 'go',
              'usermove f'], ['move a', 'move c']),
            (['new', 'usermove a', 'usermove c', 'usermove e'],
             ['new', 'force', 'usermove a', 'usermove b', 'usermove c', 'go', 'usermove e'], ['move b']),
            (['new', 'force', 'usermove a', 'usermove b', 'go'],
             ['new', 'force', 'usermove a', 'usermove b', 'force', 'usermove c'], ['move c'])]:
        sent, told = [], []
        book = Book('a b c'.split(), lambda l: sent.append(l.strip()), lambda l: told.append(l.strip()))
        book.line('accepted usermove\n')
        for line in lines:
            if not book.line(line + '\n'):
                sent.append(line)
        assert (sent, told) == (want_sent, want_told), (lines, sent, told)
    # An engine without `usermove=1` gets bare moves, from XBoard and from the relay alike.
    sent, told = [], []
    book = Book(['e2e4', 'e7e5'], lambda l: sent.append(l.strip()), lambda l: told.append(l.strip()))
    for line in ['new', 'e2e4', 'g1f3']:
        if not book.line(line + '\n'):
            sent.append(line)
    assert (sent, told) == (['new', 'force', 'e2e4', 'e7e5', 'g1f3', 'go'], ['move e7e5']), (sent, told)
    print('xboard_match selftest ok')


def main():
    if sys.argv[1:2] == ['relay']:
        relay(sys.argv[2:])
    if sys.argv[1:2] == ['selftest']:
        selftest()
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument('--first', required=True, help='command line of the first engine (defines the variant)')
    ap.add_argument('--second', required=True, help='command line of the second engine')
    ap.add_argument('--first-name', help='its name in the PGN (default: the program name)')
    ap.add_argument('--second-name')
    ap.add_argument('--first-drop', action='append', default=[], metavar='CMD',
                    help='withhold this XBoard command from the first engine (a workaround for an engine '
                         'that fails on a command it does not know; repeatable)')
    ap.add_argument('--second-drop', action='append', default=[], metavar='CMD')
    ap.add_argument('--variant', default='grande-acedrex', help="XBoard's variant name")
    ap.add_argument('--games', type=int, help='number of games (default 2, or 2 per opening)')
    ap.add_argument('--tc', default='0:10+0.1')
    ap.add_argument('--openings', help='file of openings: one FEN or move sequence a line')
    ap.add_argument('--openings-by-engines', action='store_true',
                    help='the engines play an opening of moves, through the relay, instead of XBoard '
                         'loading it: XBoard reads a game file before the first engine\'s `setup` '
                         'arrives, so it cannot load one for a variant that engine defines ("Illegal '
                         'move: 1. f2d2" at wa-shogi, and the game starts from the start position)')
    ap.add_argument('--out', default='xboard-match')
    ap.add_argument('--max-moves', type=int, default=300, help='draw after this many moves (each side)')
    ap.add_argument('--rule-moves', type=int, default=50, help='draw after N reversible moves (0: off)')
    ap.add_argument('--repeats', type=int, default=3, help='draw at the N-th repetition')
    ap.add_argument('--resign', type=int, default=0, metavar='CP',
                    help='adjudicate a loss when both engines agree for 6 plies that one side is CP '
                         'centipawns or more behind (0: off; the games of a peer that never resigns '
                         'and cannot be mated within the move cap still end)')
    ap.add_argument('--stall', type=float, help='seconds without protocol traffic that count as a hang')
    ap.add_argument('--xboard', default='/usr/games/xboard')
    ap.add_argument('--xboard-args', default='', help='more XBoard options, appended as written')
    ap.add_argument('--quiet', action='store_true', help='print only the JSON line')
    a = ap.parse_args()
    for prog in (a.xboard, 'Xvfb'):
        if not shutil.which(prog):
            print(f'{prog} not found: apt-get install -y xboard xvfb', file=sys.stderr)
            sys.exit(2)
    try:
        time_control(a.tc, a.max_moves)
        openings = load_openings(a.openings) if a.openings else None
    except (ValueError, OSError) as e:
        print(f'bad argument: {e}', file=sys.stderr)
        sys.exit(2)
    a.games = a.games or (2 * len(openings) if openings else 2)
    if a.games < 1:
        print('--games must be at least 1', file=sys.stderr)
        sys.exit(2)
    a.first_name = a.first_name or Path(shlex.split(a.first)[0]).name
    a.second_name = a.second_name or Path(shlex.split(a.second)[0]).name
    a.out = Path(a.out).resolve()
    a.out.mkdir(parents=True, exist_ok=True)
    for old in list(a.out.glob('game-*')) + [a.out / 'xboard.stderr']:
        old.unlink(missing_ok=True)

    say = (lambda *x: None) if a.quiet else (lambda *x: print(*x, flush=True))
    start = time.monotonic()
    display = Display(open(a.out / 'xvfb.log', 'w'))
    games = []
    try:
        for i in range(a.games):
            opening = openings[(i // 2) % len(openings)] if openings else None
            g = play_game(a, i + 1, opening, i % 2 == 0, display, a.out)
            games.append(g)
            names = {'first': a.first_name, 'second': a.second_name}
            fault = f" [{g['culprit']}: {g['ending']}]" if g['culprit'] else ''
            say(f"game {g['game']}: {names[g['white']]} - {names[g['black']]} {g['result']} "
                f"{{{g['reason']}}} ({g['ending']}, {g['plies']} plies){fault}")
    finally:
        display.close()
    write_pgn(a.out / 'games.pgn', games)
    s = summarize(a, games, time.monotonic() - start)
    line = json.dumps(s, sort_keys=False)
    (a.out / 'summary.json').write_text(line + '\n')
    for role in ROLES:
        e = s['engines'][role]
        faults = ', '.join(f'{v} {k.replace("_", " ")}' for k, v in e.items() if k in FAULTS.values() and v)
        rating = f", Elo {e['elo'][0]:+d} [{e['elo'][1]:+d}, {e['elo'][2]:+d}]" if e['elo'] else ''
        say(f"{role:6} {e['name']}: {e['points']:g}/{e['games']} (+{e['wins']} ={e['draws']} -{e['losses']}){rating}"
            f"{'; ' + faults if faults else ''}"
            f"{'; sent ' + str(e['error_replies']) + ' Illegal move/Error replies' if e['error_replies'] else ''}")
    say(f"{s['finished']}/{s['games']} games finished in {s['seconds']}s; endings: "
        + ', '.join(f'{k} {v}' for k, v in s['endings'].items()) + f"; PGN {a.out / 'games.pgn'}")
    print(line, flush=True)
    sys.exit(0 if s['finished'] == s['games'] else 1)


if __name__ == '__main__':
    main()
