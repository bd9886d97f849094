#!/usr/bin/env python3
"""check.py OUTDIR ROLE GAMES: checks one run_match.sh match that acedrex played in.

ROLE is `first` or `second`: which XBoard engine acedrex was (the names in the PGN are set
with FIRST_NAME/SECOND_NAME, and acedrex's is `acedrex`). Fails (exit 1) on:
  * fewer than GAMES finished games, or an XBoard restart (engine crash or hang);
  * any game ended by an illegal/invalid move, a false claim, or an engine exit: with acedrex
    first, XBoard referees by acedrex's own `setup`/`piece` lines, so a "Fairy-Max played an
    illegal move" means those lines disagree with Fairy-Max's rules;
  * a time forfeit by acedrex;
  * `Illegal move` or `Error (` lines sent by acedrex (it rejected a move or a command XBoard sent);
  * with acedrex first: XBoard not taking its setup (games not from the Grant Acedrex start).
Uses summarize.py from the match harness (MATCH_DIR) to read the PGN.
"""
import glob
import importlib.util
import os
import re
import sys

outdir, role, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
spec = importlib.util.spec_from_file_location("summarize", os.path.join(os.environ["MATCH_DIR"], "summarize.py"))
summarize = importlib.util.module_from_spec(spec)
spec.loader.exec_module(summarize)

problems = []
pgn = os.path.join(outdir, "games.pgn")
games = summarize.parse_pgn(open(pgn, encoding="utf-8", errors="replace").read()) if os.path.exists(pgn) else []
finished = 0
for i, g in enumerate(games, 1):
    tags = g["tags"]
    res = tags.get("Result", "*")
    reason = summarize.termination(g["moves"], res)
    cat = summarize.classify(reason, res)
    white, black = tags.get("White", "?"), tags.get("Black", "?")
    print(f"game {i}: {white} - {black} {res} {{{reason}}} [{cat}]")
    if res != "*":
        finished += 1
    if cat in ("illegal move", "false claim", "engine crash/exit", "unfinished", "no reason given"):
        problems.append(f"game {i}: {cat}: {reason}")
    if cat == "time forfeit":
        loser = white if res == "0-1" else black
        if "acedrex" in loser:
            problems.append(f"game {i}: acedrex lost on time: {reason}")
    if role == "first" and not tags.get("FEN", "").startswith("rlugcakcgulr/12/12/pppppppppppp/"):
        problems.append(f"game {i}: XBoard did not take acedrex's setup (FEN tag {tags.get('FEN')!r})")
if finished < want:
    problems.append(f"only {finished} of {want} games finished")

log = open(os.path.join(outdir, "run.log"), encoding="utf-8", errors="replace").read()
if "restart" in log:
    problems.append("XBoard had to be restarted (engine crash or hang): see run.log")

tag = "first " if role == "first" else "second"
sent = re.compile(r"^\d+ <" + tag + r": (.*)$")
for path in sorted(glob.glob(os.path.join(outdir, "xboard.debug*"))):
    for line in open(path, encoding="utf-8", errors="replace"):
        m = sent.match(line.rstrip("\n"))
        if m and (m.group(1).startswith("Illegal move") or m.group(1).startswith("Error (")):
            problems.append(f"acedrex sent: {m.group(1)}")
        if role == "first" and "did not send setup" in line:
            problems.append("XBoard: " + line.strip())

for p in problems:
    print("FAIL:", p)
print(f"{outdir}: {finished} games, {len(problems)} problems")
sys.exit(1 if problems else 0)
