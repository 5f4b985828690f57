# Found by tests/fuzz/fuzz_compile_diff: when a function has two errors, compiled code must
# raise the one eager code raises first. The check of v[0] on a data-dependent size runs with
# the graph, so the trace met the ShapeError of the later add first and raised it; now a call
# whose trace raises runs eagerly, which raises the IndexError.
@compile
fn f(y) {
  let v = nonzero(y > 0)
  let first = v[0]  # expect error: IndexError
  let bad = ones([2]) + ones([3])
  return first
}
print(f(tensor([-1, -2, 0])))
