# Found by tests/fuzz/fuzz_compile_diff: a tensor indexed by a symbolic int (a dynamic int
# argument, a size, a loop counter that a graph break carries into its regions) was a TypeError
# when compiled, where eager code indexes. The index is specialized, as list indexing is.
@compile(dynamic = true)
fn f(x, n) { return x[n] + x[x.shape[0] - 1] }
print(f(tensor([1.0, 2.0, 4.0]), 1).item())       # expect: 6.0
print(f(tensor([1.0, 2.0, 4.0, 8.0]), 2).item())  # expect: 12.0

# The loop condition is data-dependent (unique's size), so the loop runs eagerly and its body
# is a region whose input j is an int that varies.
@compile
fn g(x) {
  let u = unique(x)
  let v = u
  let j = 0
  while j < u.shape[0] {
    v = v + u[j]
    j += 1
  }
  return v
}
print(g(tensor([1.0, 2.0, 2.0])).tolist())  # expect: [4.0, 5.0]
print(g(tensor([3.0, 1.0, 2.0])).tolist())  # expect: [7.0, 8.0, 9.0]
