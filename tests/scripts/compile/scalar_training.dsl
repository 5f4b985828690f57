# Training loops whose scalars change at every step compile once the scalars vary
# (compiler.md, "Scalars"; docs/compile.md, "Scalars"). Mirrors PyTorch's
# test/dynamo/test_unspec.py (unspecialized floats and ints feeding tensor math) and
# test_recompiles.py (automatic dynamic on a changing scalar): the step count of Adam and a
# learning rate from a schedule become inputs after they first change, and float arithmetic
# on them (b1 ** t, lr * 0.5) is symbolic, so 200 steps compile twice.
import nn

seed(0)
let x = randn([16, 4])
let y = randn([16, 2])
let init = {"w": randn([4, 2]) * 0.5, "b": zeros([2])}

fn loss_fn(p, x, y) {
  return ((x @ p["w"] + p["b"] - y) ** 2).mean()
}

fn leaf_diff(a, b) {
  return max(abs(a["w"] - b["w"]).max().item(), abs(a["b"] - b["b"]).max().item())
}

# --- Adam: its step count is a 0-d tensor (as torch.optim.Adam's), so the step compiles once ----
fn adam_eager(p, s, x, y) {
  let (loss, g) = value_and_grad(loss_fn)(p, x, y)
  let (q, s2) = nn.adam_step(p, g, s, lr = 0.01)
  return (loss, q, s2)
}
let adam_compiled = compile(adam_eager)

let (pc, sc) = (init, nn.adam_init(init))
let (pe, se) = (init, nn.adam_init(init))
let worst = 0.0
for step in range(200) {
  let (lc, p1, s1) = adam_compiled(pc, sc, x, y)
  let (le, p2, s2) = adam_eager(pe, se, x, y)
  worst = max(worst, abs(lc.item() - le.item()), leaf_diff(p1, p2), leaf_diff(s1["m"], s2["m"]))
  pc = p1
  sc = s1
  pe = p2
  se = s2
}
print(worst < 1e-5)                       # expect: true
print(sc["t"].item(), type(sc["t"]))      # expect: 200.0 tensor
print(stats(adam_compiled)["compiles"])   # expect: 1
print(stats(adam_compiled)["reasons"])    # expect: []
print(loss_fn(pc, x, y).item() < loss_fn(init, x, y).item())  # expect: true

# --- SGD with a cosine learning-rate schedule: a float argument that changes -----------------
fn sgd_eager(p, lr, x, y) {
  let (loss, g) = value_and_grad(loss_fn)(p, x, y)
  return (loss, nn.sgd_step(p, g, lr = lr))
}
let sgd_compiled = compile(sgd_eager)
let (qc, qe) = (init, init)
worst = 0.0
for step in range(200) {
  let lr = 0.001 + 0.5 * 0.05 * (1.0 + math.cos(math.pi * step / 200))
  let (lc, q1) = sgd_compiled(qc, lr, x, y)
  let (le, q2) = sgd_eager(qe, lr, x, y)
  worst = max(worst, abs(lc.item() - le.item()), leaf_diff(q1, q2))
  qc = q1
  qe = q2
}
print(worst < 1e-5)                       # expect: true
print(stats(sgd_compiled)["compiles"])    # expect: 2
print(stats(sgd_compiled)["reasons"])     # expect: ["lr: expected 0.051000000000000004, got 0.05099691581204152"]

# --- A float of a data-dependent size: stays in the graph, no break ------------------------
@compile
fn log_kept(x) {
  let n = nonzero(x > 0).shape[0]
  return (x * 2.0, 2.0 * n, n / x.shape[0])
}
let (doubled, twice, frac) = log_kept(tensor([1.0, -1.0, 3.0, 2.0]))
print(twice, frac)                        # expect: 6.0 0.75
let (d2, twice2, frac2) = log_kept(tensor([1.0, -1.0, -3.0, 2.0, 5.0]))
print(twice2, frac2)                      # expect: 6.0 0.6
print(stats(log_kept)["graph_breaks"], stats(log_kept)["compiles"])  # expect: 0 2
