# Which scalars become inputs (compiler.md, "Scalars"; docs/compile.md). Mirrors PyTorch's
# test/dynamo/test_unspec.py (unspecialized ints and floats, floats as Python floats in
# results) and test_recompiles.py (automatic dynamic of scalars, dynamic=True).

# dynamic = true: ints and floats are inputs from the first call, nested ones too.
@compile(dynamic = true)
fn scaled(x, opt) { return x * (opt["lr"] / (1.0 - 0.9 ** opt["t"])) }
for t in range(1, 6) { scaled(ones([2]), {"lr": 0.1 * t, "t": t}) }
print(stats(scaled)["compiles"])                         # expect: 1
print(scaled(ones([1]), {"lr": 0.5, "t": 1}))            # expect: tensor([5.])

# A float result stays a Python float computed in f64, not an f32 tensor.
@compile
fn half(n, y) { return (y * 2, n / 2, y / 3) }
half(3, 1.5)
let (a, b, c) = half(5, 4.0)
print(a, b, c, type(a), type(c))                         # expect: 8.0 2.5 1.3333333333333333 float float
print(stats(half)["compiles"])                           # expect: 2

# Bools and strings stay specialized: each value is its own entry.
@compile
fn pick(x, flag, mode) { return x + 1 if flag and mode == "add" else x - 1 }
pick(ones([2]), true, "add")
pick(ones([2]), false, "add")
pick(ones([2]), true, "sub")
pick(ones([2]), true, "add")
print(stats(pick)["compiles"], stats(pick)["cache_hits"])  # expect: 3 1

# explain() lists the float inputs and the floats the call computes.
@compile
fn h(x, t, lr) { return x * (lr / (1.0 - 0.9 ** t)) }
h(ones([2]), 1, 0.1)
h(ones([2]), 2, 0.2)
let text = explain(h, ones([2]), 3, 0.3)
print("f0 = 0.3 from lr" in text)                        # expect: true
print("lr / (1.0 - (0.9 ** float(s0)))" in text)        # expect: true

# A branch comparing a float input with a number guards the outcome (lr <= 0.5) and keeps the
# input: 0.3 reuses the graph 0.2 compiled, 0.7 takes the other branch.
@compile
fn clipped(x, lr) {
  if lr > 0.5 { return x * 0.5 }
  return x * lr
}
clipped(ones([1]), 0.1)
clipped(ones([1]), 0.2)
print(clipped(ones([1]), 0.3).item(), stats(clipped)["compiles"])  # expect: 0.30000001192092896 2
print(clipped(ones([1]), 0.7).item(), stats(clipped)["reasons"][-1])  # expect: 0.5 float guard lr <= 0.5 failed: lr is 0.7
# A branch on an expression of the float needs its value: the guard names the value it needed.
@compile
fn scaled_clip(x, lr) {
  if lr * 2.0 > 1.0 { return x * 0.5 }
  return x * lr
}
scaled_clip(ones([1]), 0.1)
scaled_clip(ones([1]), 0.2)
scaled_clip(ones([1]), 0.3)
print(stats(scaled_clip)["reasons"][-1])                 # expect: lr: expected 0.2, got 0.3 (the compiled code needed its value)
