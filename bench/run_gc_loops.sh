#!/bin/bash
# Peak resident memory of the two cycle-making loops (bench/scripts/gc_loops.dsl) at 100k and
# 300k iterations each: flat with the cycle collector, growing with the iterations without
# it. Pass a second binary (one built without the collector) to compare in the same run.
#
#   bench/run_gc_loops.sh [path/to/tessel] [path/to/baseline-tessel]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bins=("${1:-$here/../build/repl/tessel}")
[ $# -ge 2 ] && bins+=("$2")
printf '| %-40s | %10s | %14s | %8s |\n' binary iterations "peak RSS MB" "ms"
printf '|%s|%s|%s|%s|\n' ------------------------------------------ ------------ ---------------- ----------
for bin in "${bins[@]}"; do
  for n in 100000 300000; do
    out="$( { GC_LOOP_N=$n /usr/bin/time -f 'rss %M' "$bin" "$here/scripts/gc_loops.dsl"; } 2>&1 )"
    rss=$(awk '/^rss/{printf "%.1f", $2 / 1024}' <<<"$out")
    ms=$(awk '/^ms/{printf "%.0f", $2}' <<<"$out")
    printf '| %-40s | %10s | %14s | %8s |\n' "$bin" "$n" "$rss" "$ms"
  done
done
