# The CNN benchmark: the digits CNN of examples/models/digits_cnn.dsl (conv 1->16, conv
# 16->32, 2x2 max pool, linear 512->64->10, Adam) over shuffled mini-batches of 64 of the 1,497
# training digits, the last batch of each epoch 25 images: the batch size changes. PyTorch eager
# runs the same in bench/models/digits/train.py; bench/models/digits/run.sh runs both. Prints
# the mean step time over steps 20..STEPS-1 (after warm-up and the compiles), the images per
# second, the compile count and the last loss. TESSEL_DIGITS_EAGER=1 runs the step eagerly.
import nn

let steps = int(env("STEPS", "260"))
let path = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"
let table = load_csv(path)
let images = (table[:1497, :64] / 16.0).reshape([-1, 1, 8, 8])
let labels = table[:1497, 64].to(i32)
let n = images.shape[0]
let batch = 64

seed(0)
fn conv_init(c_in, c_out, k) {
  let bound = 1.0 / sqrt(float(c_in * k * k))
  return {"w": nn.uniform([c_out, c_in, k, k], bound), "b": nn.uniform([c_out], bound)}
}
let params = {"c1": conv_init(1, 16, 3), "c2": conv_init(16, 32, 3),
              "f1": nn.linear_init(32 * 4 * 4, 64), "f2": nn.linear_init(64, 10)}
fn forward(p, x) {
  let h = relu(conv2d(x, p["c1"]["w"], p["c1"]["b"], padding = 1))
  h = max_pool2d(relu(conv2d(h, p["c2"]["w"], p["c2"]["b"], padding = 1)), 2)
  return nn.linear_apply(p["f2"], relu(nn.linear_apply(p["f1"], h.flatten(1))))
}
fn loss_fn(p, x, y) { return cross_entropy(forward(p, x), y) }
let grad_fn = value_and_grad(loss_fn)
fn adam_step(p, opt, x, y) {
  let (loss, grads) = grad_fn(p, x, y)
  let (p2, o2) = nn.adam_step(p, grads, opt, lr = 0.002)
  return (loss, p2, o2)
}

let eager = env("TESSEL_DIGITS_EAGER", "0") == "1"
let train_step = adam_step if eager else compile(adam_step)
let opt = nn.adam_init(params)
# The batches: a deterministic order (every 7th image), cut into 64s and a last 25.
let order = tensor([(k * 7) % n for k in range(n)])
let batches = [order[s:min(s + batch, n)] for s in range(0, n, batch)]
let loss = none
let seen = 0
let t0 = now_ms()
for s in range(steps) {
  if s == 20 {
    t0 = now_ms()
    seen = 0
  }
  let rows = batches[s % len(batches)]
  let (l, p, o) = train_step(params, opt, index_select(images, 0, rows), index_select(labels, 0, rows))
  params = p
  opt = o
  loss = l.item()
  seen += rows.shape[0]
}
let ms = (now_ms() - t0) / (steps - 20)
let compiles = 0 if eager else stats(train_step)["compiles"]
let compile_ms = 0.0 if eager else stats(train_step)["compile_ms"] / compiles   # per compile
print("eager" if eager else "tessel", "step_ms", round(ms, 3), "images_per_s", round(seen / (ms * (steps - 20)) * 1000.0, 0), "compiles", compiles, "compile_ms", round(compile_ms, 1), "loss", round(loss, 6))
