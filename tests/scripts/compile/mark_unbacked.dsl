# mark_unbacked: the size is an unbacked symbol: no hint to branch on, no recompiles.
@compile
fn f(x) { return (x * 2).sum() }
let a = ones([6])
mark_unbacked(a, 0)
print(f(a).item())                   # expect: 12.0
let b = ones([9])
mark_unbacked(b, 0)
print(f(b).item(), stats(f)["compiles"])  # expect: 18.0 1
# A branch on it breaks the graph and runs eagerly; fullgraph = true makes that an error.
@compile
fn g(x) {
  if x.shape[0] > 3 { return x }
  return x * 2
}
let c = ones([5])
mark_unbacked(c, 0)
print(g(c).tolist(), stats(g)["graph_breaks"])  # expect: [1.0, 1.0, 1.0, 1.0, 1.0] 1
@compile(fullgraph = true)
fn h(x) {
  if x.shape[0] > 3 { return x }  # expect error: DataDependentError
  return x * 2
}
h(c)
