#!/usr/bin/env python3
"""Search profile of UCI engines: how deep, how fast, what score, and how a clock is spent.

  search_profile.py depth --engine CMD [--engine CMD ...] --variant V [--fen FEN ...]
                          [--movetime 1000 5000] [--hash 16]
  search_profile.py clock --engine CMD --variant V [--tc 10+0.1] [--plies 120] [--fen FEN]

`depth`: each engine searches each position (the start when no --fen) for each move time, from
a new game (`ucinewgame`), and the last `info` line with a score is printed: depth, seldepth,
score, nodes, nps, the time the engine reported and the wall time until `bestmove`.

`clock`: two instances of one engine play each other from the position with a real clock (each
move's wall time is taken from the mover's clock, then the increment added), as a GUI would run
them; per ply: the time spent, the clock left and the depth reached. The summary gives, per side,
the time spent on moves 1-20 and in all, the clock after move 20, and the mean depth of moves
1-20. The game ends when an engine has no move or after --plies.

A command is split like a shell line ("acedrex uci", "/usr/games/fairy-stockfish"); the variant is
sent as UCI_Variant. Python 3 standard library only.
"""
import argparse
import shlex
import subprocess
import sys
import time


class Uci:
    def __init__(self, cmd, variant, hash_mb):
        self.p = subprocess.Popen(
            shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send(f"setoption name Hash value {hash_mb}")
        self.ready()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"engine ended while waiting for {word}")
            if line.split()[:1] == [word]:
                return line

    def ready(self):
        self.send("isready")
        self.wait("readyok")

    def go(self, position, go):
        """Sends the position and the go command; returns (last info with a score, bestmove, wall s)."""
        self.send(position)
        self.ready()
        start = time.monotonic()
        self.send(go)
        last = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine ended during a search")
            words = line.split()
            if words[:1] == ["info"] and "depth" in words and "score" in words:
                last = words
            if words[:1] == ["bestmove"]:
                best = words[1] if len(words) > 1 else "(none)"
                return last, best, time.monotonic() - start

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def field(words, key):
    if words and key in words:
        return words[words.index(key) + 1]
    return "?"


def position_cmd(fen, moves=()):
    cmd = f"position fen {fen}" if fen else "position startpos"
    return cmd + (" moves " + " ".join(moves) if moves else "")


def depth_mode(args):
    print("engine\tposition\tmovetime\tdepth\tseldepth\tscore\tnodes\tnps\ttime\twall\tbestmove")
    for fen in args.fen or [None]:
        for ms in args.movetime:
            for cmd in args.engine:
                e = Uci(cmd, args.variant, args.hash)
                e.send("ucinewgame")
                info, best, wall = e.go(position_cmd(fen), f"go movetime {ms}")
                e.quit()
                score = f"{field(info, 'score')} {info[info.index('score') + 2]}" if info else "?"
                print(
                    "\t".join(
                        [
                            shlex.split(cmd)[0].rsplit("/", 1)[-1],
                            (fen or "start")[:30],
                            str(ms),
                            field(info, "depth"),
                            field(info, "seldepth"),
                            score,
                            field(info, "nodes"),
                            field(info, "nps"),
                            field(info, "time"),
                            f"{wall:.2f}",
                            best,
                        ]
                    ),
                    flush=True,
                )


def clock_mode(args):
    base, inc = (float(x) for x in args.tc.split("+"))
    engines = [Uci(args.engine[0], args.variant, args.hash) for _ in range(2)]
    for e in engines:
        e.send("ucinewgame")
    clock = [base, base]
    moves = []
    spent = [[], []]
    depths = [[], []]
    after20 = [None, None]
    print("ply\tside\tspent\tclock\tdepth")
    for ply in range(args.plies):
        side = ply % 2
        ms = [max(0, int(c * 1000)) for c in clock]
        info, best, wall = engines[side].go(
            position_cmd(args.fen, moves),
            f"go wtime {ms[0]} btime {ms[1]} winc {int(inc * 1000)} binc {int(inc * 1000)}",
        )
        if best in ("(none)", "0000"):
            break
        clock[side] += inc - wall
        moves.append(best)
        spent[side].append(wall)
        depths[side].append(int(field(info, "depth")) if info else 0)
        if len(spent[side]) == 20:
            after20[side] = clock[side]
        print(f"{ply}\t{side}\t{wall:.3f}\t{clock[side]:.2f}\t{field(info, 'depth')}", flush=True)
    for e in engines:
        e.quit()
    for side in (0, 1):
        first = spent[side][:20]
        d = depths[side][:20]
        print(
            f"side {side}: moves 1-20 {sum(first):.2f} s, clock after move 20 "
            f"{after20[side] if after20[side] is None else round(after20[side], 2)} s, "
            f"mean depth moves 1-20 {sum(d) / max(1, len(d)):.1f}, "
            f"{len(spent[side])} moves {sum(spent[side]):.2f} s, clock left {clock[side]:.2f} s"
        )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["depth", "clock"])
    ap.add_argument("--engine", action="append", required=True, help="UCI engine command")
    ap.add_argument("--variant", required=True)
    ap.add_argument("--fen", action="append", help="a position (repeatable); default the start")
    ap.add_argument("--movetime", type=int, nargs="+", default=[1000, 5000])
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--tc", default="10+0.1", help="clock mode: BASE+INC in seconds")
    ap.add_argument("--plies", type=int, default=120)
    args = ap.parse_args()
    if args.mode == "clock":
        if args.fen and len(args.fen) > 1:
            ap.error("clock mode takes one --fen")
        args.fen = args.fen[0] if args.fen else None
        clock_mode(args)
    else:
        depth_mode(args)


if __name__ == "__main__":
    main()
