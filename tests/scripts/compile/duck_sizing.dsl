# Duck sizing: equal sizes share a symbol (guarded equal); config.duck_shape = false turns it off.
@compile(dynamic = true)
fn f(x, y) { return x.sum() + y.sum() }
f(ones([4]), ones([4]))
print(stats(f)["guards"])                       # expect: ["x.shape[0] >= 2", "y.shape[0] == x.shape[0]"]
f(ones([4]), ones([5]))
print(stats(f)["compiles"])                     # expect: 2
config.duck_shape = false
@compile(dynamic = true)
fn g(x, y) { return x.sum() + y.sum() }
g(ones([4]), ones([4])); g(ones([4]), ones([5]))
print(stats(g)["compiles"])                     # expect: 1
