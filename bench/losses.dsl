# The losses and reductions, forward + backward (grad), eager on the cpu; the same work as
# bench/torch_losses_baseline.py. Run: build/repl/tessel bench/losses.dsl (ms per call).
seed(0)
let logits = randn([4096, 1024])
let labels = randint(0, 1024, [4096])
let masked = where(rand([4096]) < 0.2, -100, labels)
let a = randn([1048576])
let b = randn([1048576])
let p = sigmoid(randn([1048576]))
let x2 = randn([1024, 1024])
fn timeit(name, f) {
  f()
  let t0 = now_ms()
  for i in range(10) { f() }
  print(name, round((now_ms() - t0) / 10, 3))
}
fn g(loss) { return grad(loss) }
timeit("cross_entropy_4096x1024", fn() { g(fn (z) { return cross_entropy(z, masked) })(logits) })
timeit("cross_entropy_smooth_4096x1024", fn() { g(fn (z) { return cross_entropy(z, masked, label_smoothing = 0.1) })(logits) })
timeit("nll_loss_4096x1024", fn() { g(fn (z) { return nll_loss(z, masked) })(logits) })
timeit("mse_loss_1M", fn() { g(fn (z) { return mse_loss(z, b) })(a) })
timeit("l1_loss_1M", fn() { g(fn (z) { return l1_loss(z, b) })(a) })
timeit("smooth_l1_loss_1M", fn() { g(fn (z) { return smooth_l1_loss(z, b) })(a) })
timeit("huber_loss_1M", fn() { g(fn (z) { return huber_loss(z, b) })(a) })
timeit("binary_cross_entropy_1M", fn() { g(fn (z) { return binary_cross_entropy(z, p) })(p) })
timeit("bce_with_logits_1M", fn() { g(fn (z) { return binary_cross_entropy_with_logits(z, p) })(a) })
timeit("logsumexp_1024x1024", fn() { g(fn (z) { return logsumexp(z, 1).sum() })(x2) })
timeit("var_1024x1024", fn() { g(fn (z) { return var(z, 1).sum() })(x2) })
timeit("norm_1024x1024", fn() { g(fn (z) { return norm(z, 2, 1).sum() })(x2) })
