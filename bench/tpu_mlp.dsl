# The seed 000 benchmark (pytorch/xla test_backward_pass_with_dynamic_input): a 2-10-1 MLP
# (relu, sigmoid, binary cross-entropy, SGD) trained for 100 iterations on inputs made by
# nonzero() on the device, with a number of nonzeros that changes every iteration. Prints the
# seed's table row for one setting: end-to-end time, compilations, cache hits.
#
#   build/repl/tessel bench/tpu_mlp.dsl                 # device tpu, bounded dynamic shapes
#   TESSEL_MLP_DEVICE=cpu build/repl/tessel bench/tpu_mlp.dsl
#   (config.tpu_bounded_dynamic = false: set TESSEL_MLP_BOUNDED=0)
let device = env("TESSEL_MLP_DEVICE", "tpu")
config.tpu_bounded_dynamic = env("TESSEL_MLP_BOUNDED", "1") == "1"
let iterations = int(env("TESSEL_MLP_ITERS", "100"))
let samples = 64

seed(0)
let params = [(randn([2, 10]) * 0.5).to(device), zeros([10]).to(device),
              (randn([10, 1]) * 0.5).to(device), zeros([1]).to(device)]

fn forward(params, x) {
  let h = relu(x @ params[0] + params[1])
  return sigmoid(h @ params[2] + params[3])
}
fn bce(params, x, y) {
  let p = clamp(forward(params, x).reshape([-1]), 1e-6, 1.0 - 1e-6)
  return -(y * log(p) + (1.0 - y) * log(1.0 - p)).mean()
}
let step = value_and_grad(bce)

# The mask for iteration i: the first k entries of a [samples, 2] grid are 1, k = 1 + (7*i) % 97.
fn inputs(i) {
  let k = 1 + (7 * i) % 97
  let mask = (arange(samples * 2) < k).to(i32).reshape([samples, 2]).to(device)
  let x = nonzero(mask).to(f32)
  let y = x[:, 0] * 0.0 + 1.0
  return (x * 0.1, y)
}

let t0 = now_ms()
let losses = []
for i in range(iterations) {
  let (x, y) = inputs(i)
  let (loss, grads) = step(params, x, y)
  params = [params[0] - grads[0] * 0.05, params[1] - grads[1] * 0.05,
            params[2] - grads[2] * 0.05, params[3] - grads[3] * 0.05]
  sync()
  losses.append(loss)
}
let total = (now_ms() - t0) / 1000.0
let s = stats()["tpu"]
print("device", device, "bounded", config.tpu_bounded_dynamic)
print("end-to-end seconds", round(total, 4), "per iteration ms", round(total * 1000 / iterations, 3))
print("compilations", s["compilations"], "cache hits", s["cache_hits"], "executions", s["executions"])
print("first loss", round(losses[0].item(), 6), "last loss", round(losses[-1].item(), 6))
