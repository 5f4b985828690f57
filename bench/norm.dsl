# The normalization ops and einsum, forward + backward (grad), eager on the cpu; the same
# work as bench/torch_norm_baseline.py. Run: build/repl/tessel bench/norm.dsl (ms per call).
seed(0)
let img = randn([32, 64, 28, 28])
let cw = randn([64])
let cb = randn([64])
let tok = randn([64, 128, 512])
let hw = randn([512])
let q = randn([8, 8, 256, 64])
let k = randn([8, 8, 256, 64])
let a = randn([64, 1024])
let b = randn([1024, 1024])
let c = randn([1024, 16])
fn timeit(name, f) {
  f()
  let t0 = now_ms()
  for i in range(10) { f() }
  print(name, round((now_ms() - t0) / 10, 3))
}
fn g(loss) { return grad(loss) }
timeit("group_norm_32x64x28x28_g8", fn() { g(fn (z) { return (group_norm(z, 8, cw, cb) * z).sum() })(img) })
timeit("batch_norm_train_32x64x28x28", fn() { g(fn (z) { return (batch_norm(z, none, none, cw, cb, training = true) * z).sum() })(img) })
timeit("batch_norm_eval_32x64x28x28", fn() { g(fn (z) { return (batch_norm(z, cb, abs(cw) + 0.5, cw, cb) * z).sum() })(img) })
timeit("rms_norm_64x128x512", fn() { g(fn (z) { return (rms_norm(z, [512], hw) * z).sum() })(tok) })
timeit("einsum_bhqd_bhkd_8x8x256x64", fn() { g(fn (z) { return einsum("bhqd,bhkd->bhqk", z, k).sum() })(q) })
timeit("einsum_chain_ab_bc_cd", fn() { g(fn (z) { return einsum("ab,bc,cd->ad", a, z, c).sum() })(b) })
