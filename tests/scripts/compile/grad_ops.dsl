# The gradient rule of every op category, compiled (backward traced into the graph) against
# eager autodiff. Each loss is compiled once with n = 4 (static sizes) and again with n = 6
# (automatic dynamic: n becomes a symbol), so the rules also run on symbolic shapes.

fn max_diff(a, b) {
  let m = 0.0
  if type(a) == "tuple" or type(a) == "list" {
    for i in range(len(a)) { m = max(m, max_diff(a[i], b[i])) }
    return m
  }
  return abs(a - b).max().item()
}

# value_and_grad of loss over (x: [n, 3], w: [3]), compiled vs eager, for n = 4, 6, 8.
fn same(loss) {
  let vg = value_and_grad(loss, argnums = [0, 1])
  let compiled = compile(fn (x, w) { return vg(x, w) })
  let worst = 0.0
  for n in [4, 6, 8] {
    let x = randn([n, 3])
    let w = randn([3])
    worst = max(worst, max_diff(compiled(x, w), vg(x, w)))
  }
  return worst < 1e-5 and stats(compiled)["compiles"] == 2
}

seed(1)
# Elementwise ops with broadcasting ([n, 3] with [3], [n, 1] with [3]).
print(same(fn (x, w) {
  let a = exp(x) * w + tanh(x - w) / (1.0 + w * w) + maximum(x, w) + minimum(x, 0.5 * w)
  let b = where(x > 0, x, w) + sigmoid(x) * relu(w) + gelu(x) + x ** 2 + sqrt(abs(x) + 1.0)
  let c = x[:, 0:1] * w + clamp(x, -0.5, 0.5) + log(abs(w) + 1.0) - sin(x) * cos(w)
  return (a + b + c).sum()
}))                                                          # expect: true
# Reductions, over all dims and over one dim, with and without keepdim.
print(same(fn (x, w) {
  let a = (x.sum(dim = 0) * w).sum() + (x * w).mean() + x.max(dim = 1)[0].sum() + x.min()
  return a + (x.mean(dim = 1, keepdim = true) * w).sum() + (x * w).max()
}))                                                          # expect: true
# matmul: matrix @ vector, vector @ matrix, matrix @ matrix, batched.
print(same(fn (x, w) {
  let m = x.transpose(0, 1) @ x
  let batched = (stack([x, x * 2.0], 0) @ w.unsqueeze(1)).sum()
  return (x @ w).sum() + (w @ m).sum() + ((x @ m) ** 2).mean() + batched
}))                                                          # expect: true
# softmax, log_softmax, cross_entropy (labels from the batch size), linear, layer_norm, mse.
print(same(fn (x, w) {
  let labels = arange(x.shape[0]) % 3
  let logits = x * w
  let a = cross_entropy(logits, labels) + (softmax(logits, 1) * x).sum()
  let b = (log_softmax(logits, 0) * w).mean() + mse_loss(x * w, x)
  return a + b + (layer_norm(x, [3], w, w) ** 2).sum() + linear(x, stack([w, w * w], 0), w[0:2]).sum()
}))                                                          # expect: true
# Slicing and indexing: slices with steps, select, negative indices, index_select, gather,
# integer-tensor indexing, and the layout ops.
print(same(fn (x, w) {
  let idx = tensor([2, 0, 2])
  let a = x[1:].sum() + x[::2].sum() + (x[:, 0] * x[:, -1]).sum() + x[..., 1:3].sum()
  let b = index_select(x, 1, idx).sum() + gather(x, 1, (arange(x.shape[0]) % 3).unsqueeze(1)).sum()
  let c = (w[idx] * x[0]).sum() + x.reshape([-1]).sum() + x.flatten().max()
  c = c + cat([x, w.unsqueeze(0)], 0).sum() + x.unsqueeze(0).squeeze(0).permute([1, 0]).sum()
  return a + b + c + (w.expand([x.shape[0], 3]) * x).sum()
}))                                                          # expect: true
# masked_select: data-dependent sizes inside the graph.
print(same(fn (x, w) {
  let a = (x[x > 0] * 2.0).sum() + masked_select(x * w, x < w).sum()
  return a + masked_scatter(x, x > 0.5, w.expand([x.shape[0], 3])).sum()
}))                                                          # expect: true

# Nested grad inside a compiled function: the inner backward is traced and differentiated.
@compile
fn second(x) { return grad(fn (x) { return grad(fn (y) { return (y * y * y).sum() })(x).sum() })(x) }
print(second(tensor([1.0, 2.0])).tolist())                   # expect: [6.0, 12.0]

# Errors surface at trace time at the grad call, with the call below.
@compile
fn not_scalar(x) { return grad(fn (x) { return x * 2.0 })(x) }  # expect error: ShapeError: grad: the function must return a scalar (one element), got shape [3]
not_scalar(ones([3]))
