# Found by tests/fuzz/fuzz_compile_diff: an op whose kernel raises on its data (an integer
# division by zero here) was removed from the graph as dead code when its result was unused,
# so the compiled function returned where eager code raises. Such ops are kept.
@compile
fn f(y) {
  let unused = y // y
  return y * 2
}
print(f(tensor([1, 2])).tolist())  # expect: [2, 4]
print(f(tensor([1, 0])))  # expect error: ZeroDivisionError: floordiv: integer division by zero
