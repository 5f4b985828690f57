# Without compiler collectives each rank learns alone that its size varies: two compiles each.
# ranks: 1 2
config.compiler_collectives = false
@compile
fn f(x) { return x * 2 + 1 }
let n = 10 + 5 * dist.rank()
f(ones([n]))
f(ones([n + 1]))
print(stats(f)["compiles"], stats(f)["cache_hits"])             # expect: 2 0
