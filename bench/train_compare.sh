#!/bin/bash
# A training benchmark in one run: DIR/train.dsl compiled and eager (EAGER_VAR=1) against
# DIR/train.py (PyTorch eager) on 1 and 2 threads, best of RUNS each, interleaved. Used by
# bench/mlp/run.sh and bench/transformer/run.sh.
#   bench/train_compare.sh DIR EAGER_VAR [path/to/tessel] [runs]
# Prints the step times (ms) and the ratios torch / tessel. PyTorch is Debian's python3-torch;
# without it, its rows say so.
set -euo pipefail
export TESSEL_PGO=0  # each run compiles from scratch: its compile count is its own
dir="$(cd "$1" && pwd)"
eager_var="$2"
here="$(cd "$(dirname "$0")" && pwd)"
tessel="${3:-$here/../build/repl/tessel}"
runs="${4:-3}"
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
  c=$(best env OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads "$tessel" "$dir/train.dsl")
  e=$(best env OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads "$eager_var=1" \
    "$tessel" "$dir/train.dsl")
  t=$(best "$python" "$dir/train.py" "$threads")
  printf '%-8s %12s %12s %12s %16s %16s\n' "$threads" "$c" "$e" "$t" "$(ratio "$t" "$c")" "$(ratio "$e" "$c")"
done
