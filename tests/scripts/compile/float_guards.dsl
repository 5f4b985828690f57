# Float arguments and special values. Mirrors PyTorch's
# test/dynamo/test_unspec.py::test_unspec_float_input (specialize_float=False): a branch on an
# unspecialized float guards the comparison (`y != 5.0`) and keeps y an input, so 3.0 and 4.0
# share a graph; 5.0 fails the guard; NaN is specialized (no comparison could tell it apart).
@compile
fn f(x, y) {
  if y == 5.0 { return x + 2.0 }
  return x + y
}
let x = tensor([1.0, 2.0, 3.0])
print(f(x, 2.0).tolist(), f(x, 3.0).tolist(), f(x, 4.0).tolist())  # expect: [3.0, 4.0, 5.0] [4.0, 5.0, 6.0] [5.0, 6.0, 7.0]
print(stats(f)["compiles"])                  # expect: 2
print(stats(f)["guards"])                    # expect: ["x.shape[0] == 3", "y != 5.0"]
print(f(x, 5.0).tolist(), stats(f)["compiles"])  # expect: [3.0, 4.0, 5.0] 3
print(stats(f)["reasons"][-1])               # expect: float guard y != 5.0 failed: y is 5.0
let nan = float("nan")
print(f(x, nan).tolist(), stats(f)["compiles"])  # expect: [nan, nan, nan] 4
print(stats(f)["reasons"][-1])               # expect: y: nan is specialized (a NaN float is never an input)
# The NaN entry serves the next NaN (PyTorch recompiles at every NaN: its guard is y == nan).
print(f(x, nan).tolist(), stats(f)["compiles"])  # expect: [nan, nan, nan] 4
print(f(x, 6.0).tolist(), stats(f)["compiles"])  # expect: [7.0, 8.0, 9.0] 4

# A specialized float (its value was needed) that is NaN serves NaN calls; -0.0 and 0.0 differ.
@compile
fn g(x, s) { return x * s if s > 0.0 or s != s else x - 1.0 }
print(g(x, nan).tolist(), g(x, nan).tolist(), stats(g)["compiles"])  # expect: [nan, nan, nan] [nan, nan, nan] 1
print(g(x, -0.0).tolist(), g(x, 0.0).tolist(), stats(g)["compiles"])  # expect: [0.0, 1.0, 2.0] [0.0, 1.0, 2.0] 3

# Infinities and extreme ints as arguments: values as eager code gives them.
@compile
fn h(x, s, n) { return x * s + n }
print(h(x, float("inf"), 0).tolist(), h(x, -float("inf"), 2147483647).tolist())  # expect: [inf, inf, inf] [-inf, -inf, -inf]
print(h(x, 1.0, -2147483648).tolist())       # expect: [-2147483648.0, -2147483648.0, -2147483648.0]

# An argument that changes kind is dynamic at its next compile (PyTorch's
# test/dynamo/test_recompiles.py::test_automatic_dynamic_tensor_scalar_change): 3 compiles.
@compile
fn foo(a, b) { return a * b }
foo(randn([2]), randn([2]))
foo(randn([3]), 3)
foo(randn([4]), randn([4]))
foo(randn([4]), randn([4]))
foo(randn([5]), 4)
foo(randn([5]), 4)
foo(randn([6]), randn([6]))
print(stats(foo)["compiles"])                # expect: 3
