# Past config.recompile_limit the frame warns once and runs eagerly (fallbacks).
config.recompile_limit = 2
@compile(dynamic = false)
fn f(x) { return x + 1 }
for n in [2, 3, 4, 5] { f(ones([n])) }
let s = stats(f)
print(s["compiles"], s["entries"], s["fallbacks"], s["cache_misses"])  # expect: 2 2 2 3
print(f(ones([9])).tolist()[0])                                     # expect: 2.0
