# A branch on an unbacked size is a DataDependentError at the branch.
@compile
fn nz(x) {
  let idx = nonzero(x)
  if idx.shape[0] > 2 { return idx.sum() }  # expect error: DataDependentError: could not guard on data-dependent expression u0 >= 3
  return idx.sum() * 0
}
print(nz(tensor([1, 0, 2, 3])))
