#!/bin/bash
# The language-model comparison: bench/models/char_lm/train.dsl compiled against
# bench/models/char_lm/train.py (PyTorch eager) padded per batch as Tessel and padded to the
# longest word overall, on 1 and 2 threads; best of RUNS each, interleaved. Prints real tokens
# per second and the ratios.
#   bench/models/char_lm/run.sh [path/to/tessel] [runs]
set -euo pipefail
export TESSEL_PGO=0
here="$(cd "$(dirname "$0")" && pwd)"
tessel="${1:-$here/../../../build/repl/tessel}"
runs="${2:-3}"
python=/usr/bin/python3
best() {  # the largest tokens_per_s over $runs runs
  local b=""
  for _ in $(seq "$runs"); do
    local t
    t="$("$@" 2>/dev/null | awk '{for (i = 1; i < NF; ++i) if ($i == "tokens_per_s") print $(i + 1)}')"
    [ -n "$t" ] || { echo "-"; return; }
    if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN{exit !(a > b)}'; then b="$t"; fi
  done
  echo "$b"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a == "-" || b == "-") print "-"; else printf "%.2f", a / b }'; }
printf '%-8s %14s %14s %14s %14s %14s\n' threads tessel torch-batch torch-max vs-batch vs-max
for threads in 1 2; do
  t=$(best env OMP_NUM_THREADS=$threads OPENBLAS_NUM_THREADS=$threads "$tessel" "$here/train.dsl")
  b=$(best "$python" "$here/train.py" "$threads" "${STEPS:-220}" batch)
  m=$(best "$python" "$here/train.py" "$threads" "${STEPS:-220}" max)
  printf '%-8s %14s %14s %14s %14s %14s\n' "$threads" "$t" "$b" "$m" "$(ratio "$t" "$b")" "$(ratio "$t" "$m")"
done
