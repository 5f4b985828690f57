# Ints are specialized until they vary, then symbolic; floats are specialized.
@compile
fn f(x, n) { return x * n }
f(ones([3]), 2); f(ones([3]), 3); f(ones([3]), 4)
print(stats(f)["compiles"], f(ones([3]), 7).tolist())  # expect: 2 [7.0, 7.0, 7.0]
@compile
fn g(x, s) { return x * s }
g(ones([2]), 0.5); g(ones([2]), 0.5); g(ones([2]), 1.5)
print(stats(g)["compiles"], stats(g)["reasons"])       # expect: 2 ["s: expected 0.5, got 1.5"]
