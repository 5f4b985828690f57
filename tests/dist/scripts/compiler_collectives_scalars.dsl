# Compiler collectives share scalars as they share sizes: rank r calls f with a
# learning rate and a step count of its own. With the exchange both are inputs of the first
# compile on every rank, so new values on the next call hit the same graph.
# ranks: 2 4
config.compiler_collectives = true
@compile
fn f(x, opt) { return x * opt["lr"] + opt["t"] }
let r = dist.rank()
let y = f(ones([2]), {"lr": 0.5 * (r + 1), "t": r})
print((y - (0.5 * (r + 1) + r)).abs().max().item() < 1e-6)       # expect: true
let y2 = f(ones([2]), {"lr": 0.25 + r, "t": r + 7})
print((y2 - (0.25 + r + r + 7)).abs().max().item() < 1e-6)       # expect: true
print(stats(f)["compiles"], stats(f)["cache_hits"])             # expect: 1 1
