# Seed 002: with dynamic = true one graph serves every size.
@compile(dynamic = true)
fn f(x) { return x * x.shape[0] }
for n in [10, 20, 30, 40] { f(rand([n])) }
print(stats(f)["compiles"], stats(f)["cache_hits"])  # expect: 1 3
print(f(ones([7])).tolist())                          # expect: [7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0]
