# mark_static keeps a size static even with dynamic = true.
@compile(dynamic = true)
fn f(x) { return x * 2 }
let a = ones([3, 4])
mark_static(a, 1)
f(a)
print(stats(f)["guards"])  # expect: ["x.shape[0] >= 2", "x.shape[1] == 4"]
