# A second derivative through layer_norm: its gradient is one op (layer_norm_backward) without
# a gradient of its own, so while an outer grad records (eagerly, traced under compile, or on
# the tpu's lazy trace) the rule writes the formula out in differentiable ops instead. Checked
# against central differences of the first derivative along a direction.
seed(1)
let x = randn([3, 5])
let w = randn([5])
fn inner(y) { return (layer_norm(y, [5], w) * y * y).sum() }
fn outer(y) { return (grad(inner)(y) ** 2).sum() }
let g2 = grad(outer)(x)
let d = randn([3, 5])
let h = 0.01
let fd = (outer(x + d * h) - outer(x - d * h)) / (2 * h)
let err = abs((g2 * d).sum() - fd).item()
print(err < 0.02 * max(1.0, abs(fd.item())))  # expect: true
let compiled = compile(grad(outer))
print(abs(compiled(x) - g2).max().item() < 1e-4 * max(1.0, abs(g2).max().item()))  # expect: true
