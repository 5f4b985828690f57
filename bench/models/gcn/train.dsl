# The GCN benchmark: a two-layer GCN trained full-batch on a synthetic stochastic block
# model graph of 100K nodes and 1M edges (8 blocks, 80% of edges inside a block), message passing
# by index_select and index_add over the edge list. bench/models/gcn/train.py is the same model,
# graph and Adam step in PyTorch eager with index_add_ (the formulation PyG's GCNConv reduces
# to); bench/models/gcn/run.sh runs both. The graph is made by the same integer formulas on both
# sides, so both train on identical data. Prints the mean epoch (step) time over epochs
# 3..EPOCHS-1, the compile count and the last loss. TESSEL_GCN_EAGER=1 runs the step eagerly.
import nn

seed(0)
let epochs = int(env("EPOCHS", "23"))
let N = int(env("GCN_NODES", "100000"))
let E = int(env("GCN_EDGES", "1000000"))
let F = 32
let HIDDEN = 64
let C = 8
let block = N // C

# The stochastic block model, deterministically: node i % N sends edge i; 8 in 10 edges stay in
# the sender's block.
let i = arange(E)
let src0 = i % N
let same = (i * 7) % 10 < 8
let dst0 = where(same, (src0 // block) * block + (i * 37 + (i // N) * 101) % block, (i * 613 + 17) % N)
let labels = clamp(arange(N) // block, 0, C - 1)
let x = sin(arange(N * F).to(f32).reshape([N, F]) * 0.37) * 0.5 + pad(one_hot(labels, C).to(f32), [0, F - C])

# Symmetric edges plus self loops, normalized by 1 / sqrt(deg(i) deg(j)).
let loops = arange(N)
let src = cat([src0, dst0, loops])
let dst = cat([dst0, src0, loops])
let deg = bincount(dst, minlength = N).to(f32)
let norm = rsqrt(index_select(deg, 0, src) * index_select(deg, 0, dst))

fn propagate(h, src, dst, norm) {
  return index_add(zeros([h.shape[0], h.shape[1]]), 0, dst, index_select(h, 0, src) * norm[:, none])
}
fn forward(p, x, src, dst, norm) {
  let h = relu(propagate(nn.linear_apply(p["l1"], x), src, dst, norm))
  return propagate(nn.linear_apply(p["l2"], h), src, dst, norm)
}
fn loss_fn(p, x, src, dst, norm, y) { return cross_entropy(forward(p, x, src, dst, norm), y) }
let grad_fn = value_and_grad(loss_fn)
fn adam_step(p, opt, x, src, dst, norm, y) {
  let (loss, grads) = grad_fn(p, x, src, dst, norm, y)
  let (p2, o2) = nn.adam_step(p, grads, opt, lr = 0.01)
  return (loss, p2, o2)
}

let eager = env("TESSEL_GCN_EAGER", "0") == "1"
let train_step = adam_step if eager else compile(adam_step)
let params = {"l1": nn.linear_init(F, HIDDEN), "l2": nn.linear_init(HIDDEN, C)}
let opt = nn.adam_init(params)
let loss = none
let t0 = now_ms()
for epoch in range(epochs) {
  if epoch == 3 { t0 = now_ms() }
  let (l, p, o) = train_step(params, opt, x, src, dst, norm, labels)
  params = p
  opt = o
  loss = l.item()
}
let ms = (now_ms() - t0) / (epochs - 3)
let compiles = 0 if eager else stats(train_step)["compiles"]
let compile_ms = 0.0 if eager else stats(train_step)["compile_ms"] / compiles   # per compile
print("eager" if eager else "tessel", "step_ms", round(ms, 3), "compiles", compiles, "compile_ms", round(compile_ms, 1), "loss", round(loss, 6))
