# mark_dynamic with min/max: the range is a guard; sizes outside it recompile.
@compile
fn f(x) { return x.sum() }
let a = ones([4])
mark_dynamic(a, 0, min = 2, max = 16)
f(a)
print(stats(f)["guards"])              # expect: ["x.shape[0] >= 2", "x.shape[0] <= 16"]
f(ones([10]))
print(stats(f)["compiles"])            # expect: 1
# A size outside the declared range fails the compiled call (PyTorch's
# test/dynamo/test_misc.py::test_mark_dynamic_with_ranges), not mark_dynamic itself.
@compile
fn g(x) {
  if x.shape[0] == 3 { return x.sin() }
  return x.cos()
}
let y = randn([8, 3, 3])
mark_dynamic(y, 0, min = 2, max = 5)
print(y.shape)                         # expect: shape([8, 3, 3])
g(y)  # expect error: ConstraintViolation: Constraints violated (x.shape[0])! x.shape[0] = 8 is outside the range [2, 5] it was marked dynamic with
