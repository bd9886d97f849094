#!/usr/bin/env bash
# Real-XBoard checks of acedrex's CECP front end (needs the Debian packages xboard, xvfb, fairymax),
# played by the repository's match runner tests/peers/xboard_match.py:
#
#   (a) acedrex as the SECOND engine against Fairy-Max: XBoard referees by Fairy-Max's
#       grande-acedrex definition, so acedrex's moves and claims must agree with Fairy-Max's rules;
#   (b) acedrex as the FIRST engine: XBoard takes the variant from acedrex's `setup`/`piece` lines,
#       so Fairy-Max's moves must be legal under acedrex's definition;
#   (c) crazyhouse against Fairy-Stockfish, acedrex second, from openings/crazyhouse.fen: XBoard
#       referees drops and holdings by its own crazyhouse rules;
#   (d) fischerandom against Fairy-Stockfish, acedrex second, from openings/fischerandom.fen: XBoard
#       referees Chess960 castling (sent and answered as O-O / O-O-O) and Shredder-FEN rights;
#   (e) shogi against Fairy-Stockfish, acedrex second, from openings/shogi.fen: XBoard referees
#       promotions (`h8c3+`, declined `d6d7=`), drops and the shogi rules itself;
#   (f) one short Chu Shogi game against HaChu, HaChu first (acedrex Black), 40 moves a side: XBoard
#       referees chu itself, with the Lion's two-leg moves (`h7i8,i8j7`) and `+` promotions;
#   (g) acedrex against itself at wa-shogi and at dai, 30 moves a side: XBoard takes both games from
#       acedrex's `setup`/`piece` lines (parent `chu`, promoted forms as `^X`, ids such as `A'`), so every
#       move, promotion and Lion move must pass XBoard's reading of them. HaChu plays both games but
#       cannot be the second engine: it crashes on the `setboard` XBoard then sends.
# Each must show no illegal move, no false claim, no crash or hang and no time forfeit by acedrex
# (tests/xboard/check.py). (a) and (b) run at once (each mostly keeps one core busy), then (c) to (g).
#
# Environment: ACEDREX_BIN (default: target/release/acedrex, built if missing; target is
# $CARGO_TARGET_DIR when set), GAMES (2 per match), TC (0:10+0.1), MAXMOVES (120),
# OUT (target/xboard-runs), FAIRYMAX (/usr/games/fairymax), FSF (/usr/games/fairy-stockfish),
# HACHU (/usr/games/hachu).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MATCH="$ROOT/tests/peers/xboard_match.py"
BIN=${ACEDREX_BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/acedrex}
GAMES=${GAMES:-2}
TC=${TC:-0:10+0.1}
MAXMOVES=${MAXMOVES:-120}
OUT=${OUT:-${CARGO_TARGET_DIR:-$ROOT/target}/xboard-runs}
FAIRYMAX=${FAIRYMAX:-/usr/games/fairymax}
FSF=${FSF:-/usr/games/fairy-stockfish}
HACHU=${HACHU:-/usr/games/hachu}

[ -x "$FAIRYMAX" ] || { echo "fairymax not found at $FAIRYMAX (apt-get install -y fairymax)" >&2; exit 2; }
[ -x "$FSF" ] || { echo "fairy-stockfish not found at $FSF (apt-get install -y fairy-stockfish)" >&2; exit 2; }
[ -x "$HACHU" ] || { echo "hachu not found at $HACHU (apt-get install -y hachu)" >&2; exit 2; }
if [ ! -x "$BIN" ]; then
    (cd "$ROOT" && cargo build --release --quiet)
fi
rm -rf "$OUT/second" "$OUT/first" "$OUT/crazyhouse" "$OUT/fischerandom" "$OUT/shogi" "$OUT/chu" \
    "$OUT/wa-shogi" "$OUT/dai"
mkdir -p "$OUT"

match() {  # match FIRST_CMD FIRST_NAME SECOND_CMD SECOND_NAME OUTDIR [RUNNER OPTIONS]
    python3 "$MATCH" --first "$1" --first-name "$2" --second "$3" --second-name "$4" \
        --variant grande-acedrex --games "$GAMES" --tc "$TC" --max-moves "$MAXMOVES" --out "$5" "${@:6}"
}

# Fairy-Max 5.0b often crashes on `computer` (a command it does not know, which XBoard sends at the
# start of every engine-engine game), so it is withheld from Fairy-Max; it never changes how it plays.
start=$(date +%s)
match "$FAIRYMAX" fairymax "$BIN xboard" acedrex "$OUT/second" --first-drop computer >"$OUT/second.log" 2>&1 &
pid_a=$!
match "$BIN xboard" acedrex "$FAIRYMAX" fairymax "$OUT/first" --second-drop computer >"$OUT/first.log" 2>&1 &
pid_b=$!
rc_a=0; rc_b=0
wait "$pid_a" || rc_a=$?
wait "$pid_b" || rc_b=$?
rc_c=0
match "$FSF" fairy-stockfish "$BIN xboard" acedrex "$OUT/crazyhouse" --variant crazyhouse \
    --openings "$ROOT/openings/crazyhouse.fen" >"$OUT/crazyhouse.log" 2>&1 || rc_c=$?
rc_d=0
match "$FSF" fairy-stockfish "$BIN xboard" acedrex "$OUT/fischerandom" --variant fischerandom \
    --openings "$ROOT/openings/fischerandom.fen" >"$OUT/fischerandom.log" 2>&1 || rc_d=$?
rc_e=0
match "$FSF" fairy-stockfish "$BIN xboard" acedrex "$OUT/shogi" --variant shogi \
    --openings "$ROOT/openings/shogi.fen" >"$OUT/shogi.log" 2>&1 || rc_e=$?
rc_f=0
match "$HACHU" hachu "$BIN xboard" acedrex "$OUT/chu" --variant chu --games 1 --max-moves 40 \
    --rule-moves 0 >"$OUT/chu.log" 2>&1 || rc_f=$?
rc_g=0
for v in wa-shogi dai; do
    match "$BIN xboard" acedrex "$BIN xboard" acedrex-2 "$OUT/$v" --variant "$v" --max-moves 30 \
        --rule-moves 0 >"$OUT/$v.log" 2>&1 || rc_g=$?
done
echo "xboard matches took $(( $(date +%s) - start ))s (match runner exit codes: $rc_a, $rc_b, $rc_c, $rc_d, $rc_e, $rc_f, $rc_g)"

ok=0
echo "== (a) acedrex second, Fairy-Max's rules"
python3 "$HERE/check.py" "$OUT/second" second "$GAMES" || ok=1
echo "== (b) acedrex first, acedrex's setup/piece lines"
python3 "$HERE/check.py" "$OUT/first" first "$GAMES" "$BIN" || ok=1
echo "== (c) crazyhouse, acedrex second to Fairy-Stockfish, XBoard's rules"
python3 "$HERE/check.py" "$OUT/crazyhouse" second "$GAMES" || ok=1
echo "== (d) fischerandom, acedrex second to Fairy-Stockfish, XBoard's rules"
python3 "$HERE/check.py" "$OUT/fischerandom" second "$GAMES" || ok=1
echo "== (e) shogi, acedrex second to Fairy-Stockfish, XBoard's rules (promotions, drops)"
python3 "$HERE/check.py" "$OUT/shogi" second "$GAMES" || ok=1
echo "== (f) chu, acedrex second to HaChu, XBoard's rules (Lion moves, promotions)"
python3 "$HERE/check.py" "$OUT/chu" second 1 || ok=1
for v in wa-shogi dai; do
    echo "== (g) $v, acedrex first and second, acedrex's setup/piece lines"
    python3 "$HERE/check.py" "$OUT/$v" first "$GAMES" "$BIN" || ok=1
    python3 "$HERE/check.py" "$OUT/$v" second "$GAMES" || ok=1
done
if [ "$ok" = 0 ]; then echo "xboard: 7 passed, 0 failed"; else echo "xboard: FAILED (logs in $OUT)"; fi
exit "$ok"
