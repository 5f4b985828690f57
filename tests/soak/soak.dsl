# The memory soak test: a training loop that makes reference cycles every step runs for
# SOAK_SECONDS (60 in CI; 1800 by hand, docs/reliability.md) and its resident memory must stay
# within 10% of what it was after warm-up (the first quarter of the run, at least 10 s).
# Each step: a compiled Adam step of an MLP over a batch whose size changes (dynamic sizes),
# a local recursive function that captures the batch (a cycle: the function and its cell),
# a log record that holds itself and the loss (a self-referential dict), and a ring of the
# last 64 records (so some cycles stay alive a while). Every 20 steps the loss is read (a
# sync on the tpu). Runs on TESSEL_DEVICE (cpu, vulkan, tpu).
import nn

seed(0)
let seconds = float(env("SOAK_SECONDS", "60"))
let warmup = max(10.0, seconds / 4)
let IN = 32
let OUT = 10

let params = nn.mlp_init([IN, 64, 64, OUT])
let opt = nn.adam_init(params)
fn loss_fn(p, x, y) { return cross_entropy(nn.mlp_apply(p, x), y) }
let grad_fn = value_and_grad(loss_fn)
fn train_step(p, o, x, y) {
  let (loss, grads) = grad_fn(p, x, y)
  let (p2, o2) = nn.adam_step(p, grads, o, lr = 0.01)
  return (loss, p2, o2)
}
let step = compile(train_step)

fn depth_of(x) {
  fn walk(n) { if n == 0 { return x } return walk(n - 1) }   # walk -> its cell -> walk
  return walk(3).shape[0]
}

let ring = [none for _ in range(64)]
let start = now_ms()
let rss0 = 0
let peak = 0
let steps = 0
let last_loss = 0.0
while now_ms() - start < seconds * 1000 {
  let b = 16 + steps % 17
  let x = randn([b, IN])
  let y = argmax(x[:, :OUT], dim = 1)   # learnable: the index of the largest of 10 features
  let (loss, p2, o2) = step(params, opt, x, y)
  params = p2
  opt = o2
  let record = {"step": steps, "loss": loss, "rows": depth_of(x)}
  record["self"] = record
  ring[steps % 64] = record
  if steps % 20 == 0 { last_loss = loss.item() }
  steps += 1
  if steps % 50 == 0 {
    let rss = stats()["memory"]["rss_bytes"]
    let t = (now_ms() - start) / 1000
    if t >= warmup {
      if rss0 == 0 { rss0 = rss }
      peak = max(peak, rss)
    }
  }
}
let s = stats(step)
let growth = (peak - rss0) / rss0 * 100
print("steps", steps, "compiles", s["compiles"], "loss", round(last_loss, 4))
print("rss after warm-up MB", round(rss0 / 1e6, 1), "peak after MB", round(peak / 1e6, 1),
      "growth %", round(growth, 2), "gc collections", stats()["gc"]["collections"])
assert s["compiles"] <= 2, "the step compiled " + str(s["compiles"]) + " times"
assert rss0 > 0, "the run ended before its warm-up did (SOAK_SECONDS too small)"
assert growth < 10, "resident memory grew " + str(round(growth, 2)) + "% after warm-up"
