# stats(f) fields, explain(), reset(), stats() totals.
@compile
fn f(x) { return (x * 2).sum() }
f(ones([3])); f(ones([3]))
let s = stats(f)
print(sorted(s.keys()))  # expect: ["cache_hits", "cache_misses", "codegen_ms", "compile_ms", "compiles", "entries", "fallbacks", "graph_breaks", "graphs", "guards", "reasons", "recompiles", "solver_ms", "trace_ms"]
print(s["compiles"], s["cache_hits"], s["cache_misses"], s["entries"], s["compile_ms"] > 0)  # expect: 1 1 1 1 true
let e = explain(f, ones([5]))
print("guards:" in e, "graph:" in e, "x.shape[0] == 5" in e)  # expect: true true true
print(stats(f)["compiles"])  # expect: 1
reset(f)
print(stats(f)["compiles"], stats(f)["entries"])  # expect: 0 0
f(ones([4]))
print(stats()["compiles"] >= 1)  # expect: true
