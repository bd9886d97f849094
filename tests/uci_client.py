#!/usr/bin/env python3
"""Drives `acedrex uci` with python-chess's engine client, as a UCI GUI would, on plain chess.

    pip install chess          # python-chess
    python3 tests/uci_client.py [path/to/acedrex]    (default: target/release/acedrex)

Checks the handshake (id, options, uciok), `play` under clock, move-time and depth limits from the
start position and from a FEN, `analyse` with info (depth, score, nodes, pv), a short game played
to the end or a move cap, and that every move acedrex returns is legal. Ends with the plain
`N passed, N failed` line.
"""
import os
import sys

import chess
import chess.engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "acedrex")

passed, failed = 0, 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def legal_play(engine, board, limit, name):
    result = engine.play(board, limit)
    check(name, result.move is not None and result.move in board.legal_moves, f"{result.move} in {board.fen()}")
    return result


with chess.engine.SimpleEngine.popen_uci([BIN, "uci"], timeout=30) as engine:
    check("handshake: id name", engine.id.get("name", "").startswith("acedrex"), repr(engine.id))
    for opt in ("Hash", "Threads", "UCI_Variant", "VariantPath"):
        check(f"handshake: option {opt}", opt in engine.options, repr(list(engine.options)))
    check("UCI_Variant default is chess", engine.options["UCI_Variant"].default == "chess")
    check("UCI_Variant lists grant-acedrex", "grant-acedrex" in engine.options["UCI_Variant"].var)
    engine.configure({"Hash": 32, "Threads": 1})

    start = chess.Board()
    legal_play(engine, start, chess.engine.Limit(time=0.2), "play from start, 0.2 s")
    legal_play(engine, start, chess.engine.Limit(depth=3), "play from start, depth 3")
    legal_play(engine, start, chess.engine.Limit(nodes=5000), "play from start, 5000 nodes")
    clock = chess.engine.Limit(white_clock=2.0, black_clock=2.0, white_inc=0.05, black_inc=0.05)
    legal_play(engine, start, clock, "play from start, clock 2 s + 0.05")

    # Kiwipete: castling both ways, e.p. chances, many captures.
    kiwi = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    legal_play(engine, kiwi, chess.engine.Limit(time=0.3), "play from Kiwipete FEN, 0.3 s")
    legal_play(engine, kiwi, chess.engine.Limit(depth=4), "play from Kiwipete FEN, depth 4")
    # A promotion race: the answer must carry a legal promotion suffix when it promotes.
    promo = chess.Board("8/P6k/8/8/8/8/6Kp/8 w - - 0 1")
    legal_play(engine, promo, chess.engine.Limit(depth=5), "play with a promotion available")
    # Promoting at once must be found where it is the one best move. (In the race above, a7a8q
    # and g2h2 both reach king and queen against king: the engine may pick either.)
    promo = chess.Board("1r5k/P7/8/8/8/8/8/6K1 w - - 0 1")
    r = legal_play(engine, promo, chess.engine.Limit(depth=5), "play with a capture-promotion")
    check("promotes the a-pawn, taking the rook", r.move == chess.Move.from_uci("a7b8q"), str(r.move))
    # Mate in one must be found.
    mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    r = legal_play(engine, mate, chess.engine.Limit(depth=3), "mate in one position")
    board = mate.copy()
    board.push(r.move)
    check("finds the back-rank mate", board.is_checkmate(), str(r.move))

    # Moves played from a position with history (`position fen ... moves ...`).
    hist = chess.Board()
    for m in ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6"]:
        hist.push_uci(m)
    legal_play(engine, hist, chess.engine.Limit(time=0.2), "play after a move list")

    info = engine.analyse(start, chess.engine.Limit(depth=5))
    check("analyse: depth", info.get("depth", 0) >= 5, repr(info))
    check("analyse: score", info.get("score") is not None, repr(info))
    check("analyse: nodes", info.get("nodes", 0) > 0, repr(info))
    pv = info.get("pv", [])
    b = start.copy()
    ok = len(pv) > 0
    for m in pv:
        ok = ok and m in b.legal_moves
        if ok:
            b.push(m)
    check("analyse: pv is a legal line", ok, repr(pv))

    # A short game against itself at a fast clock: every move legal, no crash.
    game = chess.Board()
    ok = True
    while not game.is_game_over(claim_draw=True) and game.ply() < 60:
        r = engine.play(game, chess.engine.Limit(time=0.03))
        if r.move is None or r.move not in game.legal_moves:
            ok = False
            break
        game.push(r.move)
    check(f"self-play game of {game.ply()} plies, all legal", ok, game.fen())

print(f"uci_client: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
