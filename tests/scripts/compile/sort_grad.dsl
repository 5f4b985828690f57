# Gradients of sort and topk values in a traced graph: the grad goes back to the
# elements the values came from (gather's gradient); one graph serves every size, and k may
# be a size expression.
fn loss(x) {
  let (v, i) = topk(x, min(3, x.shape[1]), dim = 1)
  let (s, j) = sort(x, dim = 0, descending = true)
  return (v * v).sum() + (s * arange(x.shape[0]).to(f32).unsqueeze(1)).sum()
}
let g = grad(loss)
let cg = compile(fn (x) { return g(x) }, dynamic = true)
seed(5)
let worst = 0.0
for (n, m) in [(4, 6), (7, 2), (5, 9)] {
  let x = randn([n, m])
  worst = max(worst, abs(cg(x) - g(x)).max().item())
}
print(worst < 1e-5, stats(cg)["compiles"])  # expect: true 1
print(g(tensor([[1.0, 3.0, 2.0, 0.5]])).tolist())  # expect: [[2.0, 6.0, 4.0, 0.0]]
