# nn: the pieces a small network is built from (docs/tensors.md, "Training").
#
# Parameters are plain lists and dicts of tensors ("trees"), so grad() and value_and_grad()
# differentiate a whole model at once, and optimizer steps are functions that return new
# trees: tensors are immutable values.

# --- trees -------------------------------------------------------------------------------

# Applies f to every tensor leaf of a tree of lists, tuples and dicts.
fn tree_map(f, tree) {
  let kind = type(tree)
  if kind == "list" or kind == "tuple" {
    let out = []
    for item in tree { out.append(tree_map(f, item)) }
    return out if kind == "list" else tuple(out)
  }
  if kind == "dict" {
    let out = {}
    for (k, v) in tree.items() { out[k] = tree_map(f, v) }
    return out
  }
  return f(tree)
}

# Like tree_map over two trees of the same structure: f(a_leaf, b_leaf).
fn tree_map2(f, a, b) {
  let kind = type(a)
  if kind == "list" or kind == "tuple" {
    assert len(a) == len(b), "tree_map2: trees differ in length"
    let out = []
    for i in range(len(a)) { out.append(tree_map2(f, a[i], b[i])) }
    return out if kind == "list" else tuple(out)
  }
  if kind == "dict" {
    let out = {}
    for (k, v) in a.items() { out[k] = tree_map2(f, v, b[k]) }
    return out
  }
  return f(a, b)
}

# A tensor of zeros with x's shape and dtype (torch.zeros_like).
fn zeros_like(x) { return zeros(x.shape, dtype = x.dtype) }
# A tensor of ones with x's shape and dtype (torch.ones_like).
fn ones_like(x) { return ones(x.shape, dtype = x.dtype) }

# --- initialization ----------------------------------------------------------------------

# Uniform in [-bound, bound).
fn uniform(shape, bound) { return rand(shape) * (2.0 * bound) - bound }

# Glorot/Xavier uniform for a [fan_out, fan_in] weight.
fn xavier_uniform(fan_in, fan_out) {
  return uniform([fan_out, fan_in], (6.0 / (fan_in + fan_out)) ** 0.5)
}

# He/Kaiming uniform (for relu layers) for a [fan_out, fan_in] weight.
fn kaiming_uniform(fan_in, fan_out) {
  return uniform([fan_out, fan_in], (6.0 / fan_in) ** 0.5)
}

# --- layers ------------------------------------------------------------------------------

# A linear layer's parameters: weight [fan_out, fan_in] and bias [fan_out], like torch.nn.Linear.
fn linear_init(fan_in, fan_out) {
  return {"w": kaiming_uniform(fan_in, fan_out), "b": zeros([fan_out])}
}

# Applies a linear layer made by linear_init: linear(x, p["w"], p["b"]).
fn linear_apply(p, x) { return linear(x, p["w"], p["b"]) }

# A multi-layer perceptron with relu between layers: sizes = [in, hidden..., out].
fn mlp_init(sizes) {
  assert len(sizes) >= 2, "mlp_init needs at least an input and an output size"
  let layers = []
  for i in range(len(sizes) - 1) { layers.append(linear_init(sizes[i], sizes[i + 1])) }
  return layers
}

# Applies the layers made by mlp_init to x, with relu between them (none after the last).
fn mlp_apply(layers, x) {
  let h = x
  for i in range(len(layers)) {
    h = linear_apply(layers[i], h)
    if i < len(layers) - 1 { h = relu(h) }
  }
  return h
}

# --- optimizers --------------------------------------------------------------------------

# Plain gradient descent: p - lr * g for every leaf.
fn sgd_step(params, grads, lr = 0.01) {
  return tree_map2(fn (p, g) { return p - lr * g }, params, grads)
}

# Adam (Kingma & Ba, 2015). The state holds the moment estimates and the step count.
fn adam_init(params) {
  return {"m": tree_map(zeros_like, params), "v": tree_map(zeros_like, params), "t": 0}
}

# One Adam step with torch.optim.Adam's defaults and bias correction: returns
# (new_params, new_state).
fn adam_step(params, grads, state, lr = 0.001, b1 = 0.9, b2 = 0.999, eps = 1e-8) {
  let t = state["t"] + 1
  let m = tree_map2(fn (m, g) { return b1 * m + (1.0 - b1) * g }, state["m"], grads)
  let v = tree_map2(fn (v, g) { return b2 * v + (1.0 - b2) * g * g }, state["v"], grads)
  let mhat_scale = 1.0 / (1.0 - b1 ** t)
  let vhat_scale = 1.0 / (1.0 - b2 ** t)
  let updates = tree_map2(fn (m, v) {
    return lr * (m * mhat_scale) / (sqrt(v * vhat_scale) + eps)
  }, m, v)
  let new_params = tree_map2(fn (p, u) { return p - u }, params, updates)
  return (new_params, {"m": m, "v": v, "t": t})
}
