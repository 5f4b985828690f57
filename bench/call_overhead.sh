#!/bin/bash
# Instructions per call of a tiny function (`a * b + c` on 4 elements, 4 tensor arguments):
# eager, compiled (a cache hit) and a no-op function, each called 20,000 times in a loop, under
# callgrind (instruction counts are repeatable on a loaded machine, unlike wall-clock time). A
# run with no calls is subtracted, so the figures are the loop iteration plus the call.
#   bench/call_overhead.sh [path/to/tessel]
# docs/perf.md ("Tessel vs peers") quotes its output. Needs valgrind.
set -euo pipefail
tessel="${1:-$(cd "$(dirname "$0")/.." && pwd)/build/repl/tessel}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
calls=20000
script() {  # script NAME CALLEE: the program, calling CALLEE in the loop (none: no loop)
  cat > "$dir/$1.dsl" <<DSL
fn body(a, b, c, d) { return a * b + c }
fn noop(a, b, c, d) { return a }
let compiled = compile(body)
let a = ones([4])
let b = ones([4])
let c = ones([4])
let d = ones([4])
let warm = compiled(a, b, c, d)
DSL
  [ "$2" = none ] || echo "for i in range($calls) { let r = $2(a, b, c, d) }" >> "$dir/$1.dsl"
}
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$tessel" "$dir/$1.dsl" 2>&1 |
    awk '/refs:/ {gsub(",", "", $NF); print $NF}'
}
script none none
script noop noop
script eager body
script compiled compiled
base=$(instructions none)
printf '%-10s %12s\n' call instructions/call
for k in noop eager compiled; do
  n=$(instructions "$k")
  printf '%-10s %12d\n' "$k" $(( (n - base) / calls ))
done
