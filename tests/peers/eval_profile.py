#!/usr/bin/env python3
"""Evaluation profile: what two engines' static evaluations say, term by term, along played games.

  eval_profile.py --games DIR --engine CMD [--peer CMD] [--peer-name NAME] --variant V
                  [--plies 0 10 20 30 40]

DIR holds the games of a match written by xboard_match.py (`--out DIR`: game-N.pgn with the
starting FEN, game-N.debug with the moves each engine sent). At each of the given plies of each
game, both engines print their static evaluation by term over UCI (`eval`: acedrex's table, or
Stockfish's and Fairy-Stockfish's trace), and the table gives the mean of each term's middlegame
value, in pawns, from the side of the peer (the engine named NAME in the PGN, Fairy-Stockfish by
default). Fairy-Stockfish's terms are in its own pawns (213 internal units); acedrex's in
centipawns / 100.

It shows which terms grow as the peer wins: the terms the peer steers by and the engine does not
see. Python 3 standard library only.
"""
import argparse
import glob
import os
import re
import shlex
import subprocess


class Uci:
    def __init__(self, cmd, variant):
        self.p = subprocess.Popen(
            shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.lines_until("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def lines_until(self, token):
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("engine ended")
            if line.startswith(token):
                return out
            out.append(line.rstrip("\n"))

    def trace(self, fen, moves):
        """{term: middlegame value in pawns, White's view} of the position's static evaluation."""
        self.send(f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else ""))
        self.send("eval")
        self.send("isready")
        terms = {}
        for line in self.lines_until("readyok"):
            if line.startswith("info string "):
                # acedrex: `info string TERM wmg weg bmg beg netmg neteg`, `... total +N for White`
                words = line.split()[2:]
                if len(words) == 7 and words[0] not in ("term", "eval"):
                    try:
                        terms[words[0]] = int(words[5]) / 100
                    except ValueError:
                        pass
                elif words[:1] == ["total"]:
                    terms["total"] = int(words[1]) / 100
            elif "|" in line:
                # Stockfish: `   Term | White MG EG | Black MG EG | Total MG EG`
                cells = [c.strip() for c in line.split("|")]
                if len(cells) >= 4 and cells[0] and cells[0] != "Term":
                    try:
                        terms[cells[0]] = float(cells[3].split()[0])
                    except (ValueError, IndexError):
                        pass
            elif line.startswith("Total evaluation") and "none" not in line:
                terms["total"] = float(line.split(":")[1].split()[0])
        return terms


def games(directory):
    """(starting FEN, moves, peer plays White?) of each game, by game number."""
    def number(path):
        return int(re.findall(r"\d+", os.path.basename(path))[0])

    for pgn_path in sorted(glob.glob(os.path.join(directory, "game-*.pgn")), key=number):
        pgn = open(pgn_path).read()
        fen = re.search(r'\[FEN "([^"]+)"\]', pgn)
        debug_path = pgn_path[: -len(".pgn")] + ".debug"
        if not fen or not os.path.exists(debug_path):
            continue
        moves = []
        for line in open(debug_path):
            m = re.match(r"\d+ <(?:first |second): move (\S+)", line)
            if m:
                moves.append(m.group(1))
        yield fen.group(1), moves, pgn


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", required=True, help="a match directory of xboard_match.py")
    ap.add_argument("--engine", required=True, help="acedrex's command, e.g. 'acedrex uci'")
    ap.add_argument("--peer", default="/usr/games/fairy-stockfish")
    ap.add_argument("--peer-name", default="fairy-stockfish", help="the peer's name in the PGNs")
    ap.add_argument("--variant", required=True)
    ap.add_argument("--plies", type=int, nargs="+", default=[0, 10, 20, 30, 40])
    args = ap.parse_args()

    engines = {"peer": Uci(args.peer, args.variant), "engine": Uci(args.engine, args.variant)}
    sums, counts = {}, {}
    played = 0
    for fen, moves, pgn in games(args.games):
        sign = 1 if f'[White "{args.peer_name}"]' in pgn else -1
        played += 1
        for ply in args.plies:
            if ply > len(moves):
                continue
            for who, uci in engines.items():
                for term, value in uci.trace(fen, moves[:ply]).items():
                    key = (f"{who}: {term}", ply)
                    sums[key] = sums.get(key, 0.0) + sign * value
                    counts[key] = counts.get(key, 0) + 1
    names = sorted({name for name, _ in sums})
    print(f"{played} games; mean middlegame value of each term, in pawns, from the peer's side")
    print("term".ljust(30) + "".join(f"ply {p}".rjust(10) for p in args.plies))
    for name in names:
        row = name.ljust(30)
        for p in args.plies:
            row += (f"{sums[(name, p)] / counts[(name, p)]:+.2f}" if (name, p) in sums else "").rjust(10)
        print(row)
    for uci in engines.values():
        uci.send("quit")


if __name__ == "__main__":
    main()
