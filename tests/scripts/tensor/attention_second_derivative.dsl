# A second derivative through scaled_dot_product_attention (a gradient penalty): its first
# derivative is one fused op without a gradient of its own, so while an outer grad records, the
# rule writes the softmax backward out in differentiable ops instead. Checked against central
# differences of the first derivative along a direction, with q, k and v all depending on x
# (every one of dq, dk, dv is differentiated), for each kind of mask and an explicit scale.
seed(3)
let x = randn([2, 4, 3])
let d = randn([2, 4, 3])
let keep = tensor([[true, false, true, true], [true, true, false, true], [true, true, true, false], [true, false, false, true]])
let bias = randn([4, 4])
fn attend(y, kind) {
  let q = y
  let k = y * 0.7 + 0.2
  let v = y.flip([1]) - 0.3
  if kind == "plain" { return scaled_dot_product_attention(q, k, v) }
  if kind == "causal" { return scaled_dot_product_attention(q, k, v, is_causal = true) }
  if kind == "bool" { return scaled_dot_product_attention(q, k, v, attn_mask = keep) }
  if kind == "float" { return scaled_dot_product_attention(q, k, v, attn_mask = bias) }
  return scaled_dot_product_attention(q, k, v, scale = 0.9)
}
fn checks(kind) {
  fn inner(y) { return (attend(y, kind) ** 2 * y).sum() }
  fn outer(y) { return (grad(inner)(y) ** 2).sum() }
  let g2 = grad(outer)(x)
  let h = 0.01
  let fd = (outer(x + d * h) - outer(x - d * h)) / (2 * h)
  let near = abs((g2 * d).sum() - fd).item() < 0.02 * max(1.0, abs(fd.item()))
  let compiled = compile(grad(outer))
  let same = abs(compiled(x) - g2).max().item() < 1e-4 * max(1.0, abs(g2).max().item())
  return near and same
}
print(checks("plain"))  # expect: true
print(checks("causal"))  # expect: true
print(checks("bool"))  # expect: true
print(checks("float"))  # expect: true
print(checks("scale"))  # expect: true
# The first derivative still takes the fused backward (no [T, S] scores).
fn f(y) { return attend(y, "plain").sum() }
print(grad(f)(x).shape)  # expect: shape([2, 4, 3])
