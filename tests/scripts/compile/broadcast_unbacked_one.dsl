# A size that is 1 only under size-oblivious reasoning (min(u0, 1) of a data-dependent u0)
# broadcast against a constant 1 keeps its own size, 0 included (found by fuzz_compile_diff:
# the graph planned [1] and the kernel aborted on an empty input).
@compile
fn g(x) {
  let counts = bincount(x.to(i32))
  let first = counts[:1]
  return first * first.sum(dim = 0, keepdim = true)
}
print(g(zeros([0])))          # expect: tensor([], dtype=i32)
print(g(tensor([0.0, 0.0])))  # expect: tensor([4])
print(g(zeros([0])))          # expect: tensor([], dtype=i32)
print(stats(g)["graph_breaks"])   # expect: 0
