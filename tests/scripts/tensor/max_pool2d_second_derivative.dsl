# A second derivative through max_pool2d (a gradient penalty on a CNN): max_pool2d_backward is
# linear in its grad, and its gradient is max_pool2d_double_backward (the grad read at each
# window's first maximum), whose own gradient is max_pool2d_backward again. Checked against
# central differences of the first derivative along a direction (the values are 0.01 apart, so
# a step of 0.004 moves no maximum; the step is no smaller so that f32 rounding of the sums,
# which differs between devices, stays well inside the tolerance), with padding and dilation,
# and the third derivative of a cubic.
let x = (arange(2 * 3 * 7 * 6).reshape([2, 3, 7, 6]) * 37 % 251) / 100.0
let d = sin(arange(2 * 3 * 7 * 6) * 1.0).reshape([2, 3, 7, 6])
fn checks(pool) {
  fn inner(y) { return (pool(y) ** 3).sum() }
  fn outer(y) { return (grad(inner)(y) ** 2).sum() }
  let g2 = grad(outer)(x)
  let h = 0.004
  let fd = (outer(x + d * h) - outer(x - d * h)) / (2 * h)
  let near = abs((g2 * d).sum() - fd).item() < 2e-3 * max(1.0, abs(fd.item()))
  let compiled = compile(grad(outer))
  let same = abs(compiled(x) - g2).max().item() < 1e-4 * max(1.0, abs(g2).max().item())
  return near and same
}
print(checks(fn (y) { return max_pool2d(y, 2) }))  # expect: true
print(checks(fn (y) { return max_pool2d(y, 3, 2, 1) }))  # expect: true
print(checks(fn (y) { return max_pool2d(y, (3, 2), 1, (1, 0), dilation = (2, 1)) }))  # expect: true
# Third order: d/dx of the second derivative's sum, again against differences.
fn second(y) { return grad(fn (z) { return (grad(fn (w) { return (max_pool2d(w, 2) ** 3).sum() })(z) * d).sum() })(y).sum() }
let g3 = grad(second)(x)
let fd3 = (second(x + d * 0.004) - second(x - d * 0.004)) / 0.008
print(abs((g3 * d).sum() - fd3).item() < 2e-3 * max(1.0, abs(fd3.item())))  # expect: true
