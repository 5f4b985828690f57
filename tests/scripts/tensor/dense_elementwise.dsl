# The dense-model elementwise ops with PyTorch's names and semantics: rounding (half to even),
# activations, NaN/inf tests and cleanup. They fuse into one generated kernel when compiled.
let x = tensor([0.5, 1.5, 2.5, -0.5, -2.5, -1.7, 3.2])
print(round(x).tolist())                  # expect: [0.0, 2.0, 2.0, -0.0, -2.0, -2.0, 3.0]
print(floor(x).tolist())                  # expect: [0.0, 1.0, 2.0, -1.0, -3.0, -2.0, 3.0]
print(x.ceil().tolist(), x.trunc()[5].item())  # expect: [1.0, 2.0, 3.0, -0.0, -2.0, -1.0, 4.0] -1.0
print(sign(x).tolist(), sign(tensor([-3, 0, 4])).tolist())  # expect: [1.0, 1.0, 1.0, -1.0, -1.0, -1.0, 1.0] [-1, 0, 1]
print(floor(tensor([1, 2])).dtype, erf(tensor([1])).dtype)  # expect: i32 f32
print(round(erf(tensor([0.5])).item(), 4), round(log1p(tensor([1e-7])).item() * 1e7, 4))  # expect: 0.5205 1.0
print(round(expm1(tensor([1e-6])).item() * 1e6, 4), round(silu(tensor([1.0])).item(), 4))  # expect: 1.0 0.7311
print(round(softplus(tensor([0.0])).item(), 4), softplus(tensor([30.0])).item())  # expect: 0.6931 30.0
print(round(softplus(tensor([1.0]), beta = 2.0).item(), 4))  # expect: 1.0635
print(leaky_relu(tensor([-1.0, 2.0])).tolist(), leaky_relu(tensor([-1.0]), 0.5).tolist())  # expect: [-0.009999999776482582, 2.0] [-0.5]
print(round(elu(tensor([-1.0])).item(), 4), elu(tensor([2.0]), alpha = 0.5).item())  # expect: -0.6321 2.0

# Cleaning up a division by zero.
let y = tensor([1.0, 0.0, -1.0, 2.0]) / tensor([0.0, 0.0, 0.0, 4.0])
print(isnan(y).tolist(), isinf(y).tolist(), y.isfinite().tolist())  # expect: [false, true, false, false] [true, false, true, false] [false, false, false, true]
print(nan_to_num(y, nan = 0.0, posinf = 9.0, neginf = -9.0).tolist())  # expect: [9.0, 0.0, -9.0, 0.5]
print(nan_to_num(y)[0].item() > 1e38, isnan(tensor([1, 2])).tolist())  # expect: true [false, false]

# Gradients: the step functions give zero, the smooth ones PyTorch's derivatives.
fn loss(w) { return (floor(w) + round(w) + sign(w)).sum() + silu(w).sum() }
print(grad(loss)(tensor([0.0])).tolist())  # expect: [0.5]
fn act(w) { return (elu(w) + leaky_relu(w, 0.2)).sum() }
print(grad(act)(tensor([-100.0, 0.0, 100.0])).tolist())  # expect: [0.20000000298023224, 1.2000000476837158, 2.0]

# Compiled: one graph for every length, the chain fused.
@compile
fn clean(v) { return nan_to_num(leaky_relu(silu(v) + round(v), 0.1) / v) }
for n in [3, 5, 8] {
  let v = arange(n) - 1.0
  let e = nan_to_num(leaky_relu(silu(v) + round(v), 0.1) / v)
  assert (clean(v) - e).abs().max().item() < 1e-5
}
print(stats(clean)["compiles"] <= 2)  # expect: true
print(isnan(tensor([1.0]), 2))  # expect error: TypeError: isnan
