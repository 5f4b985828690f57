# Two loops that make cycles (docs/reliability.md, "Memory: cycles"): a local recursive
# function that captures a tensor, and a dict that holds itself with a tensor. Run under
# /usr/bin/time -v: resident memory stays flat with the cycle collector (bench/run_gc_loops.sh).
fn outer(x) {
  fn walk(n) { if n == 0 { return x } return walk(n - 1) }
  return walk(3)
}
let n = int(env("GC_LOOP_N", "300000"))
let t = now_ms()
for i in range(n) { outer(ones([64])) }
for i in range(n) {
  let d = {"t": ones([64])}
  d["self"] = d
}
print("ms", now_ms() - t)
