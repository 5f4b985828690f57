# Seed 002: with dynamic = false every new size is a new graph.
config.recompile_limit = 16
@compile(dynamic = false)
fn f(x) { return x * x.shape[0] }
for n in [10, 20, 30, 40] { f(rand([n])) }
print(stats(f)["compiles"], stats(f)["recompiles"])  # expect: 4 3
print(stats(f)["reasons"][0])                        # expect: x.shape[0]: expected 10, got 20
print(f(ones([10])).tolist()[0])                     # expect: 10.0
