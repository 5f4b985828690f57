#!/bin/bash
# Compile time against op count. Compiles the Adam step of a transformer LM at several
# depths (transformer_depth.dsl; each compiles twice: static, then dynamic in the sequence
# length) and prints, per compile, the graph's op count and compile_ms, the best of RUNS runs.
#   bench/compile_scaling/run.sh [path/to/tessel] [runs] [depths...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tessel="${1:-$here/../../build/repl/tessel}"
runs="${2:-3}"
shift $(( $# > 2 ? 2 : $# ))
depths=("${@:-1 2 4 8 16}")
export TESSEL_PGO=0
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %-8s %6s %6s %12s %10s %8s\n' depth compile ops nodes compile_ms solver_ms us/op
for d in ${depths[*]}; do
  for c in 0 1; do best[$c]=""; line[$c]=""; done
  for _ in $(seq "$runs"); do
    rm -rf "$tmp/t"
    DEPTH=$d TESSEL_TRACE="$tmp/t" "$tessel" "$here/transformer_depth.dsl" >/dev/null
    c=0
    while read -r id _ ops _ nodes _ ms _ _ _ solver _ _; do
      if [ -z "${best[$c]}" ] || awk -v a="$ms" -v b="${best[$c]}" 'BEGIN{exit !(a < b)}'; then
        best[$c]=$ms
        line[$c]="$(printf '%-6s %-8s %6s %6s %12s %10s %8.1f' "$d" "$c" "$ops" "$nodes" "$ms" "$solver" \
          "$(awk -v m="$ms" -v o="$ops" 'BEGIN{print 1000 * m / o}')")"
      fi
      c=$((c + 1))
    done < <(/usr/bin/python3 "$here/ops_from_trace.py" "$tmp"/t/*.jsonl)
  done
  echo "${line[0]}"
  echo "${line[1]}"
done
