# mark_dynamic with min/max: the range is a guard; sizes outside it recompile.
@compile
fn f(x) { return x.sum() }
let a = ones([4])
mark_dynamic(a, 0, min = 2, max = 16)
f(a)
print(stats(f)["guards"])              # expect: ["x.shape[0] >= 2", "x.shape[0] <= 16"]
f(ones([10]))
print(stats(f)["compiles"])            # expect: 1
mark_dynamic(ones([40]), 0, max = 16)  # expect error: ShapeError: mark_dynamic(): size 40 of dim 0 is outside [-inf, 16]
