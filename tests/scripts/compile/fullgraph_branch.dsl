# Without fullgraph a branch on tensor data breaks the graph and runs eagerly; with
# fullgraph = true it is a DataDependentError naming the branch.
@compile
fn sign(x) {
  if x.sum() > 0 { return x }
  return -x
}
print(sign(ones([2])).tolist(), sign(-ones([2])).tolist())  # expect: [1.0, 1.0] [1.0, 1.0]
@compile(fullgraph = true)
fn strict_sign(x) {
  if x.sum() > 0 { return x }  # expect error: DataDependentError: the truth value of a tensor depends on its data
  return -x
}
strict_sign(ones([2]))
