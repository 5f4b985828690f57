# check() adds facts that let the solver decide conditions on unbacked sizes.
@compile
fn f(x) {
  let idx = nonzero(x)
  let n = idx.shape[0]
  check(n >= 1)
  if n >= 1 { return idx.sum() }
  return idx.sum() * 0
}
print(f(tensor([0, 3, 0, 4])).item())  # expect: 4
print(f(tensor([0, 0, 5, 0])).item())  # expect: 2
print(stats(f)["compiles"])            # expect: 1
