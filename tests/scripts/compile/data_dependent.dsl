# A branch on an unbacked size needs the data: a graph break, and the branch runs eagerly
# (with fullgraph = true it is a DataDependentError at the branch).
@compile
fn nz(x) {
  let idx = nonzero(x)
  if idx.shape[0] > 2 { return idx.sum() }
  return idx.sum() * 0
}
print(nz(tensor([1, 0, 2, 3])))   # expect: tensor(5)
print(nz(tensor([1, 0, 0, 3])))   # expect: tensor(0)
print(stats(nz)["graph_breaks"])  # expect: 1
@compile(fullgraph = true)
fn strict(x) {
  let idx = nonzero(x)
  if idx.shape[0] > 2 { return idx.sum() }  # expect error: DataDependentError: could not guard on data-dependent expression u0 >= 3
  return idx.sum() * 0
}
print(strict(tensor([1, 0, 2, 3])))
