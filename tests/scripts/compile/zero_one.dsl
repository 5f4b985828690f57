# 0/1 specialization: size 1 is static even when dynamic.
@compile(dynamic = true)
fn f(x) { return x + 1 }
f(ones([1])); f(ones([5])); f(ones([6]))
print(stats(f)["compiles"], stats(f)["reasons"])  # expect: 2 ["x.shape[0]: expected 1, got 5"]
config.backed_size_oblivious = true
@compile(dynamic = true)
fn g(x) { return x + 1 }
g(ones([1])); g(ones([5]))
print(stats(g)["compiles"])                       # expect: 1
