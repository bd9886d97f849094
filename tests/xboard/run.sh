#!/usr/bin/env bash
# Real-XBoard checks of acedrex's CECP front end (needs the Debian packages xboard, xvfb, fairymax).
#
#   (a) acedrex as the SECOND engine against Fairy-Max: XBoard referees by Fairy-Max's
#       grande-acedrex definition, so acedrex's moves and claims must agree with Fairy-Max's rules;
#   (b) acedrex as the FIRST engine: XBoard takes the variant from acedrex's `setup`/`piece` lines,
#       so Fairy-Max's moves must be legal under acedrex's definition.
# Both must show no illegal move, no false claim, no crash and no time forfeit by acedrex
# (tests/xboard/check.py). The two matches run at once (each mostly keeps one core busy).
#
# Environment: ACEDREX_SHARED (default: ../shared beside the repository), ACEDREX_BIN (default:
# target/release/acedrex, built if missing), GAMES (2 per match), TC (0:10+0.1), MAXMOVES (120),
# OUT (target/xboard-runs).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${ACEDREX_SHARED:-$ROOT/../shared}
export MATCH_DIR="$SHARED/tools/match"
BIN=${ACEDREX_BIN:-$ROOT/target/release/acedrex}
GAMES=${GAMES:-2}
TC=${TC:-0:10+0.1}
OUT=${OUT:-$ROOT/target/xboard-runs}
export MAXMOVES=${MAXMOVES:-120}
export MATCH_PAUSE=${MATCH_PAUSE:-200}
FAIRYMAX=${FAIRYMAX:-/usr/games/fairymax}

[ -f "$MATCH_DIR/run_match.sh" ] || { echo "run_match.sh not found in $MATCH_DIR (set ACEDREX_SHARED)" >&2; exit 2; }
[ -x "$FAIRYMAX" ] || { echo "fairymax not found at $FAIRYMAX (apt-get install fairymax)" >&2; exit 2; }
if [ ! -x "$BIN" ]; then
    (cd "$ROOT" && cargo build --release --quiet)
fi
rm -rf "$OUT/second" "$OUT/first"
mkdir -p "$OUT"

start=$(date +%s)
FIRST_NAME=fairymax SECOND_NAME=acedrex \
    bash "$MATCH_DIR/run_match.sh" "$FAIRYMAX" "$BIN xboard" "$GAMES" "$TC" "$OUT/second" \
    >"$OUT/second.log" 2>&1 &
pid_a=$!
# xvfb-run -a picks a free display by looking for lock files: let the first Xvfb take its
# display before the second looks.
sleep 5
FIRST_NAME=acedrex SECOND_NAME=fairymax VARIANT=grande-acedrex \
    bash "$MATCH_DIR/run_match.sh" "$BIN xboard" "$FAIRYMAX" "$GAMES" "$TC" "$OUT/first" \
    >"$OUT/first.log" 2>&1 &
pid_b=$!
rc_a=0; rc_b=0
wait "$pid_a" || rc_a=$?
wait "$pid_b" || rc_b=$?
echo "xboard matches took $(( $(date +%s) - start ))s (run_match.sh exit codes: $rc_a, $rc_b)"

ok=0
echo "== (a) acedrex second, Fairy-Max's rules"
python3 "$(dirname "$0")/check.py" "$OUT/second" second "$GAMES" || ok=1
echo "== (b) acedrex first, acedrex's setup/piece lines"
python3 "$(dirname "$0")/check.py" "$OUT/first" first "$GAMES" || ok=1
if [ "$ok" = 0 ]; then echo "xboard: 2 passed, 0 failed"; else echo "xboard: FAILED (logs in $OUT)"; fi
exit "$ok"
