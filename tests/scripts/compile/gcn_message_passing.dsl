# A GCN layer by message passing: messages gathered along edges with index_select,
# summed at their destinations with index_add, degrees from index_add too. Compiled once with
# dynamic sizes, it serves graphs with different numbers of nodes and edges; results and the
# gradient of the weights equal a dense formulation's, D^-1/2 (A + I) D^-1/2 X W.
fn gcn(x, w, src, dst) {
  let n = x.shape[0]
  let h = x @ w
  let deg = index_add(ones([n]), 0, dst, ones([src.shape[0]]))   # in-degree plus a self loop
  let norm = rsqrt(deg)
  let coef = (index_select(norm, 0, src) * index_select(norm, 0, dst)).unsqueeze(1)
  let msg = index_select(h, 0, src) * coef
  return relu(index_add(h * (norm * norm).unsqueeze(1), 0, dst, msg))
}
fn dense(x, w, src, dst) {
  let n = x.shape[0]
  let a = index_add(eye(n), 0, dst, index_select(eye(n), 0, src))
  let norm = rsqrt(a.sum(dim = 1))
  return relu((norm.unsqueeze(1) * a * norm.unsqueeze(0)) @ (x @ w))
}
let cgcn = compile(gcn, dynamic = true)
let gloss = grad(fn (w, x, src, dst) { return (gcn(x, w, src, dst) ** 2).sum() })
let closs = compile(fn (w, x, src, dst) { return gloss(w, x, src, dst) }, dynamic = true)
seed(7)
let w = randn([4, 3])
let worst = 0.0
for (n, e) in [(5, 8), (9, 20), (12, 3)] {
  let x = randn([n, 4])
  let src = randint(0, n, [e])
  let dst = randint(0, n, [e])
  worst = max(worst, abs(cgcn(x, w, src, dst) - dense(x, w, src, dst)).max().item())
  let gd = grad(fn (w) { return (dense(x, w, src, dst) ** 2).sum() })(w)
  worst = max(worst, abs(closs(w, x, src, dst) - gd).max().item())
}
print(worst < 1e-4)                                      # expect: true
print(stats(cgcn)["compiles"], stats(closs)["compiles"])  # expect: 1 1
