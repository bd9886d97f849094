#!/usr/bin/env python3
"""Fairy-Stockfish's perft as one process, for timing acedrex against it in the same run.

  fsf_perft.py VARIANT DEPTH [FEN]   prints "Nodes searched: N" when Fairy-Stockfish is done.
"""
import subprocess, sys

variant, depth = sys.argv[1], sys.argv[2]
fen = sys.argv[3] if len(sys.argv) > 3 else None
p = subprocess.Popen(["/usr/games/fairy-stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
pos = f"position fen {fen}" if fen else "position startpos"
p.stdin.write(f"uci\nsetoption name UCI_Variant value {variant}\n{pos}\ngo perft {depth}\n")
p.stdin.flush()
for line in p.stdout:
    if line.startswith("Nodes searched"):
        print(line.strip())
        break
p.stdin.write("quit\n")
p.stdin.close()
p.wait()
