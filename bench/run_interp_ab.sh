#!/bin/bash
# Two tessel binaries on bench/scripts/{fib,loops,objects}.dsl, interleaved (A, B, A, B, ...)
# so that load on the machine hits both alike; prints the best of N for each and B / A.
# For changes to the interpreter's core (docs/perf.md, "the cycle collector").
#
#   bench/run_interp_ab.sh BASELINE-tessel NEW-tessel [runs]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)/scripts"
a="$1"; b="$2"; n="${3:-9}"
for s in fib loops objects; do
  ba=""; bb=""
  for _ in $(seq "$n"); do
    ta=$("$a" "$here/$s.dsl" | awk '{print $NF}')
    tb=$("$b" "$here/$s.dsl" | awk '{print $NF}')
    ba=$(awk -v x="$ta" -v y="$ba" 'BEGIN{print (y == "" || x < y) ? x : y}')
    bb=$(awk -v x="$tb" -v y="$bb" 'BEGIN{print (y == "" || x < y) ? x : y}')
  done
  awk -v s="$s" -v a="$ba" -v b="$bb" \
    'BEGIN{printf "%-8s A %.2f ms  B %.2f ms  B/A %.3f\n", s, a, b, b / a}'
done
