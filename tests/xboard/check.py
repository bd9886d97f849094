#!/usr/bin/env python3
"""check.py OUTDIR ROLE GAMES [ACEDREX]: checks one tests/peers/xboard_match.py match that acedrex played in.

ACEDREX is the acedrex binary; it is needed with ROLE `first`.

ROLE is `first` or `second`: which XBoard engine acedrex was. Reads OUTDIR/summary.json (the match
runner's summary) and the per-game protocol logs OUTDIR/game-N.debug. Fails (exit 1) on:
  * fewer than GAMES finished games;
  * any game ended by an illegal move, a false claim, a crash or hang, or with no result: with acedrex
    first, XBoard referees by acedrex's own `setup`/`piece` lines, so "Fairy-Max played an illegal
    move" means those lines disagree with Fairy-Max's rules. With acedrex second and the binary
    ACEDREX given, a game the first engine lost by an illegal move (XBoard refereeing by that
    engine's own lines) is no problem when acedrex's move generator refuses that move too, in the
    game as acedrex saw it (the moves XBoard passed to it and its own); HaChu, lost and in check,
    plays a move that leaves its king attacked;
  * a time forfeit by acedrex;
  * `Illegal move` or `Error (` replies sent by acedrex (it rejected a move or a command XBoard sent);
  * with acedrex first: XBoard not taking its setup (a game without an opening that does not start
    from the variant's start position as `acedrex show` gives it).
"""
import glob
import json
import os
import re
import subprocess
import sys

outdir, role, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
acedrex = sys.argv[4] if len(sys.argv) > 4 else None
if role not in ('first', 'second'):
    sys.exit(f'ROLE must be first or second, not {role}')
if role == 'first' and acedrex is None:
    sys.exit('ROLE first needs ACEDREX, the binary: its start position is what XBoard must have taken')
problems = []
try:
    summary = json.load(open(os.path.join(outdir, 'summary.json')))
except (OSError, ValueError) as e:
    print(f'FAIL: no match summary in {outdir}: {e}')
    sys.exit(1)

MOVE = r'([a-p]\d+[a-p]\d+\S*|\+?[A-Za-z]@[a-p]\d+|@@@@)'


def start_placement():
    """The placement field of the variant's start position, as acedrex writes it."""
    out = subprocess.run([acedrex, 'show', '--variant', summary['variant']], capture_output=True, text=True)
    fens = [line.split(' ', 1)[1] for line in out.stdout.splitlines() if line.startswith('fen ')]
    return fens[0].split(' ')[0] if fens else None


def refused_by_acedrex(game):
    """For a game the first engine lost by an illegal move: that move and whether acedrex refuses it
    too, after the moves of the game as acedrex saw them (XBoard's `usermove` lines to it and its own
    `move` lines, in the order of the protocol log)."""
    path = os.path.join(outdir, f'game-{game}.debug')
    seen, last = [], None
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        m = re.search(r'>second ?: usermove (?:\d+ >second ?: )?' + MOVE + '$', line)
        if m:
            seen.append(m[1])
        m = re.search(r'<second ?: move ' + MOVE + '$', line)
        if m:
            seen.append(m[1])
        m = re.search(r'<first ?: move ' + MOVE + '$', line)
        if m:
            last = m[1]
    if last is None:
        return None, False
    out = subprocess.run([acedrex, 'moves', '--variant', summary['variant'], '--moves', ' '.join(seen)],
                         capture_output=True, text=True)
    legal = out.stdout.splitlines()[0].split() if out.returncode == 0 and out.stdout else None
    return last, legal is not None and last not in legal


for g in summary['game_list']:
    names = {r: summary['engines'][r]['name'] for r in ('first', 'second')}
    print(f"game {g['game']}: {names[g['white']]} - {names[g['black']]} {g['result']} {{{g['reason']}}} [{g['ending']}]")
    if (acedrex and role == 'second' and g['ending'] == 'illegal move' and g['culprit'] == 'first'):
        move, refused = refused_by_acedrex(g['game'])
        if refused:
            print(f"  the first engine's {move} is illegal by acedrex's rules too")
            continue
        problems.append(f"game {g['game']}: the first engine's illegal move {move} is legal for acedrex")
        continue
    if g['ending'] in ('illegal move', 'false claim', 'crash', 'unfinished', 'no reason given'):
        problems.append(f"game {g['game']}: {g['ending']} ({g['culprit'] or 'unattributed'}): {g['reason']}")
    if g['ending'] == 'time forfeit' and g['culprit'] == role:
        problems.append(f"game {g['game']}: acedrex lost on time: {g['reason']}")
    if role == 'first' and not g.get('opening') and (g['fen'] or '').split(' ')[0] != start_placement():
        problems.append(f"game {g['game']}: XBoard did not take acedrex's setup (FEN tag {g['fen']!r})")
if summary['finished'] < want:
    problems.append(f"only {summary['finished']} of {want} games finished")
replies = summary['engines'][role]['error_replies']
if replies:
    problems.append(f'acedrex sent {replies} Illegal move/Error replies (see the game-N.debug logs)')

tag = 'first ' if role == 'first' else 'second'
for path in sorted(glob.glob(os.path.join(outdir, 'game-*.debug'))):
    for line in open(path, encoding='utf-8', errors='replace'):
        text = line.rstrip('\n').split(f'<{tag}: ', 1)
        if len(text) == 2 and text[1].startswith(('Illegal move', 'Error (')):
            problems.append(f'{os.path.basename(path)}: acedrex sent: {text[1]}')
        if role == 'first' and 'did not send setup' in line:
            problems.append(f'{os.path.basename(path)}: XBoard: {line.strip()}')

def claim_context(game):
    """The last moves XBoard passed on and any `Illegal move` line an engine sent, from a game's
    protocol log: what a failed run in CI leaves to look at."""
    path = os.path.join(outdir, f'game-{game}.debug')
    if not os.path.exists(path):
        return []
    sent, out = [], []
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        # XBoard pads the shorter name: `>first : ` but `>second: `.
        m = re.search(r'>(first|second) ?: (?:usermove \d+ >\w+ ?: )?'
                      r'([a-p]\d+[a-p]\d+\S*|\+?[A-Za-z]@[a-p]\d+|O-O(?:-O)?)$', line)
        if m:
            sent.append(f'to {m[1]} {m[2]}')
        for who in ('first ', 'second'):
            if f'<{who}: Illegal move' in line:
                out.append(f'  {who.strip()} sent: ' + line.split(f'<{who}: ', 1)[1])
    return [f'  last moves passed on: {"; ".join(sent[-6:])}'] + out


for g in summary['game_list']:
    if g['ending'] in ('illegal move', 'false claim'):
        print(f"game {g['game']}:")
        for line in claim_context(g['game']):
            print(line)
for p in problems:
    print('FAIL:', p)
print(f"{outdir}: {summary['finished']} games, score {summary['score']} (acedrex {role}), {len(problems)} problems")
sys.exit(1 if problems else 0)
