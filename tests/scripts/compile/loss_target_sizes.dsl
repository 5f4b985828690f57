# Loss functions compare the sizes of input and target as shape rules do (docs/shapes.md): a
# require() per size, a guard on backed sizes and a run-time assert on unbacked ones, never a
# comparison of the symbolic expressions themselves. Ported from PyTorch/XLA's test/ds (losses
# of two bounded sizes equal at run time) and found by differential testing.
fn f(x, t) {
  return cross_entropy(cat([x, x[:1]], 0), t, reduction = "none")
}
let cf = compile(f)
print(cf(ones([2, 3]), ones([3, 3])).tolist())        # expect: [3.295836925506592, 3.295836925506592, 3.295836925506592]
print(f(ones([3, 3]), ones([4, 3])).shape)             # expect: shape([4])
print(cf(ones([3, 3]), ones([4, 3])).shape)            # expect: shape([4])
print(stats(cf)["compiles"])                           # expect: 2
try { cf(ones([3, 3]), ones([5, 3])) } except ShapeError as e { print(e.message) }  # expect: cross_entropy(): probability targets must have the input's size [4, 3] (traced as [s0 + 1, 3]), got [5, 3] (traced as [s1, 3])

# An unbacked size against a fixed one: checked when the graph runs.
@compile
fn g(x, m, t) { return binary_cross_entropy_with_logits(x[m], t) }
print(round(g(tensor([0.5, -1.0, 2.0]), tensor([true, false, true]), tensor([1.0, 0.0])).item(), 4))  # expect: 1.3005
g(tensor([0.5, -1.0, 2.0]), tensor([true, true, true]), tensor([1.0, 0.0]))  # expect error: ValueError: binary_cross_entropy_with_logits(): target size [2] must be the same as input size [u0]
