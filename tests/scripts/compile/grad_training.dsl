# grad inside @compile (language.md, "Differentiation"): one traced graph holds the forward and
# the backward of a training step; it matches eager autodiff, and a batch size that varies
# becomes dynamic (automatic dynamic: batches 8, 16, 24 give 2 compiles).
import nn

# The largest |a - b| over two trees of tensors with the same structure.
fn max_diff(a, b) {
  let m = 0.0
  let kind = type(a)
  if kind == "list" or kind == "tuple" {
    for i in range(len(a)) { m = max(m, max_diff(a[i], b[i])) }
    return m
  }
  if kind == "dict" {
    for (k, v) in a.items() { m = max(m, max_diff(v, b[k])) }
    return m
  }
  return abs(a - b).max().item()
}

fn loss_fn(params, x, y) { return cross_entropy(nn.mlp_apply(params, x), y) }

fn eager_step(params, x, y) {
  let (loss, g) = value_and_grad(loss_fn)(params, x, y)
  return (loss, nn.sgd_step(params, g, lr = 0.1))
}

@compile
fn step(params, x, y) {
  let (loss, g) = value_and_grad(loss_fn)(params, x, y)
  return (loss, nn.sgd_step(params, g, lr = 0.1))
}

seed(0)
let init = nn.mlp_init([4, 16, 3])
let pc = init
let pe = init
let worst = 0.0
for b in [8, 16, 24, 16] {
  let x = randn([b, 4])
  let y = randint(0, 3, [b])
  let (lc, nc) = step(pc, x, y)
  let (le, ne) = eager_step(pe, x, y)
  worst = max(worst, abs(lc.item() - le.item()), max_diff(nc, ne))
  pc = nc
  pe = ne
}
print(worst < 1e-5)                                   # expect: true
print(max_diff(pc, init) > 0.01)                      # expect: true
print(stats(step)["compiles"], stats(step)["cache_hits"])  # expect: 2 2

# The same with Adam: the optimizer state is a tree too.
@compile
fn adam_train(params, state, x, y) {
  let (loss, g) = value_and_grad(loss_fn)(params, x, y)
  let (p, s) = nn.adam_step(params, g, state, lr = 0.01)
  return (loss, p, s)
}
fn adam_eager(params, state, x, y) {
  let (loss, g) = value_and_grad(loss_fn)(params, x, y)
  let (p, s) = nn.adam_step(params, g, state, lr = 0.01)
  return (loss, p, s)
}
let (qc, sc) = (init, nn.adam_init(init))
let (qe, se) = (init, nn.adam_init(init))
worst = 0.0
for b in [8, 16, 24] {
  let x = randn([b, 4])
  let y = randint(0, 3, [b])
  let (lc, p1, s1) = adam_train(qc, sc, x, y)
  let (le, p2, s2) = adam_eager(qe, se, x, y)
  worst = max(worst, abs(lc.item() - le.item()), max_diff(p1, p2), max_diff(s1["m"], s2["m"]))
  qc = p1
  sc = s1
  qe = p2
  se = s2
}
print(worst < 1e-5)                                   # expect: true

# The backward is in the graph: linear forward, matmuls for the weight gradients.
let text = explain(step, init, randn([8, 4]), randint(0, 3, [8]))
print("linear(" in text, "matmul(" in text, "cross_entropy(" in text)  # expect: true true true
