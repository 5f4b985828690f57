# The peer comparison's workload: an MLP 784-256-256-10 trained with SGD for 200 steps, the batch
# size changing every step (32..512), the whole step (value_and_grad + nn.sgd_step) under
# @compile. bench/mlp/train.py is the same loop in PyTorch eager; bench/mlp/run.sh runs both.
# Prints the mean step time over steps 20..199 (after warm-up and the compiles), the compile
# count and the last loss. TESSEL_MLP_EAGER=1 runs the same step eagerly: the losses agree.
# TESSEL_MLP_OPT=adam trains with nn.adam_step (lr 0.001): its step count changes every step,
# which compiles twice since floats of symbolic ints are symbolic (docs/compile.md, "Scalars").
import nn

seed(0)
let steps = int(env("STEPS", "200"))
let params = nn.mlp_init([784, 256, 256, 10])

fn loss_fn(params, x, y) {
  return cross_entropy(nn.mlp_apply(params, x), y)
}
let grad_fn = value_and_grad(loss_fn)

let adam = env("TESSEL_MLP_OPT", "sgd") == "adam"
fn step(params, x, y) {
  let (loss, grads) = grad_fn(params, x, y)
  return (loss, nn.sgd_step(params, grads, lr = 0.01))
}
fn adam_step(state, x, y) {
  let (loss, grads) = grad_fn(state[0], x, y)
  return (loss, nn.adam_step(state[0], grads, state[1], lr = 0.001))
}
if adam { params = (params, nn.adam_init(params)) }
let step_fn = adam_step if adam else step
let eager = env("TESSEL_MLP_EAGER", "0") == "1"
let train_step = step_fn if eager else compile(step_fn)

# The batch sizes: the same deterministic sequence in train.py.
fn batch_size(i) { return 32 + (i * 97) % 481 }

let loss = none
let t0 = now_ms()
for i in range(steps) {
  if i == 20 { t0 = now_ms() }
  let b = batch_size(i)
  let x = randn([b, 784])
  let y = randint(0, 10, [b])
  let (l, p) = train_step(params, x, y)
  params = p
  loss = l
}
let ms = (now_ms() - t0) / (steps - 20)
let compiles = 0 if eager else stats(train_step)["compiles"]
print("eager" if eager else "tessel", "step_ms", round(ms, 3), "compiles", compiles, "loss", round(loss.item(), 6))
