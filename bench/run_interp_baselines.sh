#!/bin/bash
# Times bench/scripts/{fib,loops,objects} in Tessel, CPython 3.11 and Lua 5.4 in one run and
# prints a table (docs/perf.md, "## interpreter"). Each script reports the time of its own work (no
# process start-up or parsing); the table shows the best of N runs, interleaved so that load
# on the machine hits every interpreter alike.
#
#   bench/run_interp_baselines.sh [path/to/tessel] [runs]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tessel="${1:-$here/../build/repl/tessel}"
runs="${2:-5}"
# Debian's CPython: a pyenv shim earlier in PATH may be a different build.
python="$(command -v /usr/bin/python3 || command -v python3)"
lua="$(command -v lua5.4)"
[ -x "$tessel" ] || { echo "no tessel binary at $tessel (build it, or pass its path)" >&2; exit 1; }

best() {  # best <command...>: the smallest last field of the output over $runs runs
  local best=""
  for _ in $(seq "$runs"); do
    local t
    t="$("$@" | awk '{print $NF}')"
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a < b)}'; then best="$t"; fi
  done
  printf '%.1f' "$best"
}

echo "tessel: $tessel"
echo "python: $("$python" --version 2>&1) ($python)"
echo "lua:    $("$lua" -v 2>&1 | cut -d' ' -f1-2)"
echo
printf '| %-8s | %10s | %10s | %10s | %16s | %12s |\n' script "tessel ms" "cpython ms" "lua ms" \
  "cpython / tessel" "lua / tessel"
printf '|%s|%s|%s|%s|%s|%s|\n' ---------- ------------ ------------ ------------ ------------------ \
  --------------
for script in fib loops objects; do
  t=$(best "$tessel" "$here/scripts/$script.dsl")
  p=$(best "$python" "$here/scripts/$script.py")
  l=$(best "$lua" "$here/scripts/$script.lua")
  ratio=$(awk -v p="$p" -v t="$t" 'BEGIN{printf "%.2fx", p / t}')
  lua_ratio=$(awk -v l="$l" -v t="$t" 'BEGIN{printf "%.2fx", l / t}')
  printf '| %-8s | %10s | %10s | %10s | %16s | %12s |\n' "$script" "$t" "$p" "$l" "$ratio" "$lua_ratio"
done
