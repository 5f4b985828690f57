#!/usr/bin/env bash
# Eager dispatch of a small op from a script: Tessel vs NumPy's per-call overhead,
# best of 5 each, in the same run. Usage: bench/run_dispatch.sh [build dir]
set -euo pipefail
cd "$(dirname "$0")/.."
tessel=${1:-build}/repl/tessel
best() { sort -n | head -1; }
t=$(for i in 1 2 3 4 5; do "$tessel" bench/scripts/dispatch.dsl | awk '{print $(NF-1)}'; done | best)
l=$(for i in 1 2 3 4 5; do "$tessel" bench/scripts/empty_loop.dsl | awk '{print $(NF-1)}'; done | best)
n=$(for i in 1 2 3 4 5; do /usr/bin/python3 bench/scripts/dispatch.py | awk '{print $(NF-1)}'; done | best)
echo "tessel x + y (4 elements): $t ns/op (loop alone: $l ns/iter)"
echo "numpy  x + y (4 elements): $n ns/op"
awk -v t="$t" -v n="$n" 'BEGIN { printf "ratio tessel / numpy: %.2f\n", t / n }'
