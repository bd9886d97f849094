#!/usr/bin/env python3
"""A small referee for two xboard (CECP) engines, for games XBoard cannot referee.

  cecp_referee.py --first CMD --second CMD --variant dai [--openings FILE] [--games 2]
                  [--tc 0:20+0.2] [--max-moves 250] [--resign 1000] [--acedrex BUILD] [--out DIR]

XBoard 4.9 knows the name `dai` but has no start position or pieces for it, and HaChu 0.21 sends
it no `setup`: XBoard then plays on its default board and forfeits HaChu's first move. This
script plays the two engines against each other directly instead. Both engines are kept in force
mode; the side to move gets `time`, `otim` and `go`, and after its `move` it gets `force` again.
Legality comes from the peer's own answers: each move is sent to the other engine as `usermove`
(with `ping`, so an `Illegal move` reply is seen). The first engine, the peer that plays the game,
is the authority: a move it refuses loses the game for the second engine, as XBoard would score
an illegal move; a move of the first engine that the second refuses loses for the second (a false
claim). A side to move with no legal
move loses (as in the shogis, checkmate and stalemate alike); this is asked of acedrex
(`acedrex perft 1`), whose legal moves the hachu walks check against HaChu's. The game is also
over when an engine resigns or claims a result (`1-0 {...}`), when a clock runs out, after
--max-moves moves of each side (a draw), or, with --resign CP, when for 6 plies in a row both
engines' last scores agree that one side is CP or more down (XBoard's -adjudicateLossThreshold).
Colours alternate as in xboard_match.py: the first engine has White in games 1, 3, 5, ...; with
--openings (coordinate moves from the start, one opening a line), games 2k-1 and 2k play opening k
with the colours swapped.

Writes to --out: game-N.log (every line sent and received, with the time), games.txt (one line
a game: result, how it ended, the moves), summary.json. Prints one line a game and a summary with
each engine's score and Elo with its 95 % interval. Python 3 standard library only.
"""
import argparse
import json
import os
import queue
import re
import shlex
import subprocess
import threading
import time
from pathlib import Path

# The XBoard runner's Elo with its interval and its openings reader: one of each in the lab.
from xboard_match import elo, load_openings


class Engine:
    def __init__(self, cmd, name, log):
        self.name, self.log = name, log
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.n = 0
        self.score = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip('\n'))
        self.lines.put(None)

    def send(self, line):
        self.log('> %s: %s' % (self.name, line))
        try:
            self.p.stdin.write(line + '\n')
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def get(self, deadline):
        """The next line, or None at the deadline or when the engine exits."""
        left = deadline - time.time()
        if left <= 0:
            return None
        try:
            line = self.lines.get(timeout=left)
        except queue.Empty:
            return None
        if line is not None:
            self.log('< %s: %s' % (self.name, line))
            m = re.match(r'\s*\d+\s+(-?\d+)\s+\d+\s+\d+', line)
            if m:
                self.score = int(m.group(1))
        return line

    def sync(self, seconds=30):
        """`ping`, and every line up to its `pong`; None when the engine does not answer."""
        self.n += 1
        self.send('ping %d' % self.n)
        out, deadline = [], time.time() + seconds
        while True:
            line = self.get(deadline)
            if line is None:
                return None
            if line.strip() == 'pong %d' % self.n:
                return out
            out.append(line)

    def start(self, variant):
        self.send('xboard')
        self.send('protover 2')
        deadline, memory = time.time() + 10, False
        while True:
            line = self.get(deadline)
            memory = memory or (line is not None and 'memory=1' in line)
            if line is None or 'done=1' in line:
                break
        if memory:
            # HaChu judges moves (and searches) only with a hash table.
            self.send('memory 64')
        self.send('new')
        self.send('variant ' + variant)
        self.send('force')
        self.send('post')
        self.send('easy')
        return self.sync() is not None

    def quit(self):
        self.send('quit')
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()


def parse_tc(text):
    m = re.fullmatch(r'(?:(\d+):)?(\d+)(?:\+([\d.]+))?', text)
    if not m:
        raise SystemExit('bad --tc %r: expected M:SS+INC' % text)
    return 60 * int(m.group(1) or 0) + int(m.group(2)), float(m.group(3) or 0)


def no_legal_move(acedrex, variant, moves):
    out = subprocess.run([acedrex, 'perft', '1', '--variant', variant, '--moves', ' '.join(moves)],
                         capture_output=True, text=True)
    m = re.search(r'Nodes searched: (\d+)', out.stdout)
    return m is not None and int(m.group(1)) == 0


def play(a, n, opening, white_first):
    """One game; returns (result for White '1-0'/'0-1'/'1/2-1/2', ending, culprit role, moves)."""
    out = Path(a.out)
    logf = open(out / ('game-%d.log' % n), 'w')
    t0 = time.time()

    def log(line):
        logf.write('%8.3f %s\n' % (time.time() - t0, line))
    roles = {'first': Engine(a.first, a.first_name, log), 'second': Engine(a.second, a.second_name, log)}
    white, black = ('first', 'second') if white_first else ('second', 'first')
    side = {white: 'w', black: 'b'}
    base, inc = parse_tc(a.tc)
    clock = {white: base, black: base}
    moves = []
    scores = []

    def finish(result, ending, culprit=None):
        for e in roles.values():
            e.send('result %s {%s}' % (result, ending))
            e.quit()
        logf.close()
        return result, ending, culprit, moves

    for role, e in roles.items():
        if not e.start(a.variant):
            return finish('1/2-1/2', '%s did not start' % role, role)
        e.send('level 0 %d:%02d %s' % (base // 60, base % 60, ('%g' % inc)))
    for m in opening:
        for role, e in roles.items():
            e.send('usermove ' + m)
            reply = e.sync()
            if reply is None or any(l.startswith('Illegal move') for l in reply):
                return finish('1/2-1/2', 'opening move %s refused by %s' % (m, role), role)
        moves.append(m)
    win = {'w': '1-0', 'b': '0-1'}
    lose = {'w': '0-1', 'b': '1-0'}
    while True:
        mover = white if len(moves) % 2 == 0 else black
        other = black if mover == white else white
        if len(moves) >= 2 * a.max_moves:
            return finish('1/2-1/2', 'move cap')
        if no_legal_move(a.acedrex, a.variant, moves):
            return finish(lose[side[mover]], '%s has no legal move' % side[mover])
        e = roles[mover]
        e.send('time %d' % int(clock[mover] * 100))
        e.send('otim %d' % int(clock[other] * 100))
        e.send('go')
        started = time.time()
        move = None
        while move is None:
            line = e.get(started + clock[mover] + 2)
            if line is None:
                if e.p.poll() is not None:
                    return finish(lose[side[mover]], '%s crashed' % mover, mover)
                return finish(lose[side[mover]], '%s lost on time' % mover, mover)
            mm = re.match(r'move\s+(\S+)', line)
            if mm:
                move = mm.group(1)
                # A move whose text ends in a comma has more legs: HaChu sends a Lion's double
                # move as `move j9k10,` and then `move k10j9`, and XBoard joins them.
                while move.endswith(','):
                    line = e.get(started + clock[mover] + 2)
                    if line is None:
                        return finish(lose[side[mover]], '%s sent half a move' % mover, mover)
                    mm = re.match(r'move\s+(\S+)', line)
                    if mm:
                        move += mm.group(1)
            elif line.startswith('resign'):
                return finish(lose[side[mover]], '%s resigns' % mover)
            elif re.match(r'(1-0|0-1|1/2-1/2)\s', line + ' '):
                res = line.split()[0]
                return finish(res, '%s claims %s' % (mover, line), None)
        used = time.time() - started
        e.send('force')
        clock[mover] -= used
        if clock[mover] < 0:
            return finish(lose[side[mover]], '%s lost on time' % mover, mover)
        clock[mover] += inc
        # acedrex writes a pass as the passing piece's move to its own square (`b7b7`); HaChu
        # writes and lists the pass as XBoard's null move `@@@@`, and refuses the other form.
        if re.fullmatch(r'([a-p]\d+)\1', move):
            move = '@@@@'
        # The other engine judges the move.
        o = roles[other]
        o.send('usermove ' + move)
        reply = o.sync()
        if reply is None:
            return finish(win[side[mover]], '%s did not answer' % other, other)
        if any(l.startswith('Illegal move') for l in reply):
            # The first engine (the peer that plays the game) is the authority on legality.
            if other == 'first':
                return finish(lose[side[mover]], '%s refused %s from %s' % (other, move, mover), mover)
            return finish(win[side[mover]], '%s falsely refused %s from %s' % (other, move, mover), other)
        moves.append(move)
        if a.resign and e.score is not None and o.score is not None:
            # Both from White's view: the mover's score is its own, the other's its last search.
            sm = e.score if side[mover] == 'w' else -e.score
            so = o.score if side[other] == 'w' else -o.score
            scores.append((sm, so))
            last = scores[-6:]
            if len(last) == 6 and all(x <= -a.resign and y <= -a.resign for x, y in last):
                return finish('0-1', 'adjudicated: White %d cp or more down' % a.resign)
            if len(last) == 6 and all(x >= a.resign and y >= a.resign for x, y in last):
                return finish('1-0', 'adjudicated: Black %d cp or more down' % a.resign)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--first', required=True)
    ap.add_argument('--second', required=True)
    ap.add_argument('--first-name', default='first')
    ap.add_argument('--second-name', default='second')
    ap.add_argument('--variant', required=True)
    ap.add_argument('--openings')
    ap.add_argument('--games', type=int)
    ap.add_argument('--tc', default='0:20+0.2')
    ap.add_argument('--max-moves', type=int, default=250)
    ap.add_argument('--resign', type=int, default=0)
    ap.add_argument('--acedrex', default='target/release/acedrex')
    ap.add_argument('--out', default='/tmp/cecp-referee')
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    openings = [o.split() for o in load_openings(a.openings)] if a.openings else []
    games = a.games or (2 * len(openings) if openings else 2)
    points = {'first': 0.0, 'second': 0.0}
    tally = {'first': [0, 0, 0], 'second': [0, 0, 0]}
    endings = {}
    faults = {'first': 0, 'second': 0}
    record = open(Path(a.out) / 'games.txt', 'w')
    for n in range(1, games + 1):
        opening = openings[(n - 1) // 2] if openings else []
        white_first = n % 2 == 1
        result, ending, culprit, moves = play(a, n, opening, white_first)
        white = 'first' if white_first else 'second'
        black = 'second' if white_first else 'first'
        score = {'1-0': 1.0, '0-1': 0.0, '1/2-1/2': 0.5}[result]
        points[white] += score
        points[black] += 1 - score
        for role, s in ((white, score), (black, 1 - score)):
            tally[role][0 if s == 1 else 1 if s == 0.5 else 2] += 1
        kind = re.sub(r'\b(first|second)\b', 'X', ending)
        kind = re.sub(r'refused \S+ from', 'refused a move from', kind)
        kind = re.sub(r'opening move \S+', 'opening move', kind)
        kind = re.sub(r'claims .*', 'claims', kind)
        endings[kind] = endings.get(kind, 0) + 1
        if culprit:
            faults[culprit] += 1
        names = {'first': a.first_name, 'second': a.second_name}
        line = 'game %d: %s - %s %s {%s} (%d plies)' % (n, names[white], names[black], result, ending, len(moves))
        print(line, flush=True)
        record.write(line + ' ; ' + ' '.join(moves) + '\n')
        record.flush()
    summary = {'variant': a.variant, 'tc': a.tc, 'games': games, 'endings': endings, 'engines': {}}
    for role, name in (('first', a.first_name), ('second', a.second_name)):
        w, d, l = tally[role]
        e = elo(w, d, l) or (0, 0, 0)
        summary['engines'][role] = {'name': name, 'points': points[role], 'wins': w, 'draws': d,
                                    'losses': l, 'faults': faults[role], 'elo': e}
        print('%-6s %s: %g/%d (+%d =%d -%d), Elo %+d [%+d, %+d]; %d faults' % (
            role, name, points[role], games, w, d, l, e[0], e[1], e[2], faults[role]))
    print('endings: ' + ', '.join('%s %d' % kv for kv in sorted(endings.items())))
    json.dump(summary, open(Path(a.out) / 'summary.json', 'w'), indent=1)
    print(json.dumps(summary))


if __name__ == '__main__':
    main()
