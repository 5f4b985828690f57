# Gradients at NaN and infinite values, as PyTorch 1.13 gives them (found by the differential
# tester, tests/torch/differential.py).
let x = tensor([float("nan"), 1.0, float("inf"), 0.5])
# huber_loss and smooth_l1_loss: a NaN difference takes the quadratic branch, whose gradient is NaN.
print(grad(fn(v) { return huber_loss(v, zeros([4]), reduction = "sum") })(x))      # expect: tensor([   nan, 1.0000, 1.0000, 0.5000])
print(grad(fn(v) { return smooth_l1_loss(v, zeros([4]), reduction = "sum") })(x))  # expect: tensor([   nan, 1.0000, 1.0000, 0.5000])
# cumprod over a dim of size 1 is the identity: its gradient is g, even at inf and NaN.
print(grad(fn(v) { return cumprod(v.reshape([4, 1]), 1).sum() })(x))              # expect: tensor([1., 1., 1., 1.])
# cumprod next to zeros and infinities: the part before the first zero never sees what came
# after it, and the first zero's prefix product multiplies a finite sum last.
let c = tensor([[float("inf"), -0.5, 2.0], [0.0, float("inf"), 2.0], [float("inf"), 0.0, 2.0], [2.0, 0.0, 3.0]])
print(grad(fn(v) { return (cumprod(v, 1) * tensor([0.3, 0.8, -0.9])).sum() })(c).tolist())  # expect: [[nan, nan, inf], [nan, 0.0, 0.0], [nan, -inf, 0.0], [0.30000001192092896, -3.799999713897705, 0.0]]
# An overwritten position gets gradient 0 even when a later op's gradient is inf there (sqrt at 0).
let z = tensor([0.0, 1.0])
print(grad(fn(v) { return sqrt(index_copy(v, 0, tensor([0]), tensor([4.0]))).sum() })(z))  # expect: tensor([0.0000, 0.5000])
print(grad(fn(v) { return sqrt(scatter(v, 0, tensor([0]), tensor([4.0]))).sum() })(z))     # expect: tensor([0.0000, 0.5000])
print(grad(fn(v) { return sqrt(scatter_reduce(v, 0, tensor([0]), tensor([4.0]), "sum", include_self = false)).sum() })(z))  # expect: tensor([0.0000, 0.5000])
print(grad(fn(v) { return sqrt(scatter_reduce(v, 0, tensor([0]), tensor([4.0]), "mean", include_self = false)).sum() })(z))  # expect: tensor([0.0000, 0.5000])
# Compiled, the same gradients.
@compile
fn h(v) { return grad(fn(w) { return huber_loss(w, zeros([4]), reduction = "sum") })(v) }
print(h(x))                                                                         # expect: tensor([   nan, 1.0000, 1.0000, 0.5000])
