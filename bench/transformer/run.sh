#!/bin/bash
# Issue 27's training comparison, in one run: bench/transformer/train.dsl compiled and eager
# against bench/transformer/train.py (PyTorch eager, Adam), on 1 and 2 threads, best of N runs.
#   bench/transformer/run.sh [path/to/tessel] [runs]
# Prints the step times (ms) and the ratios torch / tessel. PyTorch is Debian's python3-torch;
# without it, its rows say so.
set -euo pipefail
export TESSEL_PGO=0  # each run compiles from scratch: its compile count is its own
here="$(cd "$(dirname "$0")" && pwd)"
tessel="${1:-$here/../../build/repl/tessel}"
runs="${2:-3}"
python=/usr/bin/python3
best() {  # best <command...>: the smallest step_ms over $runs runs
  local b=""
  for _ in $(seq "$runs"); do
    local t
    t="$("$@" 2>/dev/null | awk '{for (i = 1; i < NF; ++i) if ($i == "step_ms") print $(i + 1)}')"
    [ -n "$t" ] || { echo "-"; return; }
    if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN{exit !(a < b)}'; then b="$t"; fi
  done
  echo "$b"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a == "-" || b == "-") print "-"; else printf "%.2f", a / b }'; }
printf '%-8s %12s %12s %12s %16s %16s\n' threads compiled eager torch torch/compiled eager/compiled
for threads in 1 2; do
  # Tessel's GEMM threads: OMP_NUM_THREADS (oneDNN), OPENBLAS_NUM_THREADS (TESSEL_SGEMM=openblas).
  c=$(best env OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads "$tessel" "$here/train.dsl")
  e=$(best env OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads TESSEL_TF_EAGER=1 \
    "$tessel" "$here/train.dsl")
  t=$(best "$python" "$here/train.py" "$threads")
  printf '%-8s %12s %12s %12s %16s %16s\n' "$threads" "$c" "$e" "$t" "$(ratio "$t" "$c")" "$(ratio "$e" "$c")"
done
