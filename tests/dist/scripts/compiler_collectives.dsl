# Compiler collectives: rank r calls f with sizes 10 + 5r, then 11 + 5r. With the
# exchange the size is dynamic from the first compile on every rank: one compile each.
# ranks: 2 4
# env: TESSEL_LOGS=dynamic
# stderr: [0/0] compiler collective: rank {rank} of {world} exchanged the code state of f; dynamic on every rank: x.shape[0] (rank 0: 10, rank 1: 15
config.compiler_collectives = true
@compile
fn f(x) { return x * 2 + 1 }
let n = 10 + 5 * dist.rank()
f(ones([n]))
f(ones([n + 1]))
print(stats(f)["compiles"], stats(f)["cache_hits"])             # expect: 1 1
