# Ops of ops/elementwise.ops, eager on the cpu over 4M contiguous f32 (the definitions' row
# loops, backends/cpu/defined_rows.cpp) and over a transposed view (the strided map loops); the
# same work as bench/torch_defined_ops_baseline.py. Run: build/repl/tessel bench/defined_ops.dsl
# (ms per call; set LP_NUM_THREADS/threads as for the baseline).
seed(0)
let x = randn([2048, 2048])
let xt = x.transpose(0, 1)
let u = rand([2048, 2048]) * 1.8 - 0.9
fn timeit(name, f) {
  f()
  let t0 = now_ms()
  for i in range(10) { f() }
  print(name, round((now_ms() - t0) / 10, 3))
}
timeit("erf", fn() { return erf(x) })
timeit("gelu", fn() { return gelu(x) })
timeit("silu", fn() { return silu(x) })
timeit("softplus", fn() { return softplus(x) })
timeit("expm1", fn() { return expm1(x) })
timeit("log1p", fn() { return log1p(u) })
timeit("tan", fn() { return tan(u) })
timeit("atanh", fn() { return atanh(u) })
timeit("floor", fn() { return floor(x) })
timeit("isnan", fn() { return isnan(x) })
timeit("neg", fn() { return neg(x) })
timeit("exp", fn() { return exp(x) })
timeit("log", fn() { return log(u + 1.0) })
timeit("abs", fn() { return abs(x) })
timeit("tanh", fn() { return tanh(x) })
timeit("sigmoid", fn() { return sigmoid(x) })
timeit("relu", fn() { return relu(x) })
timeit("logical_not", fn() { return logical_not(x) })
timeit("erf_strided", fn() { return erf(xt) })
timeit("silu_strided", fn() { return silu(xt) })
