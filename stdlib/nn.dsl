# nn: the pieces a network is built from (docs/models.md).
#
# Parameters are plain lists and dicts of tensors ("trees"), so grad() and value_and_grad()
# differentiate a whole model at once, and optimizer steps are functions that return new
# trees: tensors are immutable values. Each layer is a pair: `<layer>_init(sizes...)` makes
# its parameter tree (PyTorch's default initialization) and `<layer>_apply(p, x, options...)`
# runs it. Sizes that are not parameters (heads, strides) are arguments of apply, since a tree
# holds only tensors. (Modules are imported inside the functions that use them, so that they
# do not become members of nn.)

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

# The leaves of a tree in order (lists and tuples by index, dicts by insertion order).
fn tree_leaves(tree) {
  let out = []
  fn walk(t) {
    let kind = type(t)
    if kind == "list" or kind == "tuple" {
      for item in t { walk(item) }
    } elif kind == "dict" {
      for v in t.values() { walk(v) }
    } else {
      out.append(t)
    }
  }
  walk(tree)
  return out
}

# A tree shaped like `tree` whose leaves are `leaves`, in tree_leaves' order.
fn tree_unflatten(tree, leaves) {
  let n = len(tree_leaves(tree))
  if n != len(leaves) {
    raise ValueError(f"tree_unflatten: the tree has {n} leaves, got {len(leaves)}")
  }
  let i = -1
  return tree_map(fn (leaf) { i += 1; return leaves[i] }, tree)
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

# Applies a linear layer made by linear_init (or torch_linear_init): x @ w.T + b over x's last
# dim (linear's ShapeError names both sizes when it is not the layer's fan_in).
fn linear_apply(p, x) { return linear(x, p["w"], p.get("b")) }

# A linear layer with torch.nn.Linear's initialization: weight and bias uniform in
# [-1/sqrt(fan_in), 1/sqrt(fan_in)]; without a "b" when bias is false.
fn torch_linear_init(fan_in, fan_out, bias = true) {
  let bound = 1.0 / fan_in ** 0.5
  let p = {"w": uniform([fan_out, fan_in], bound)}
  if bias { p["b"] = uniform([fan_out], bound) }
  return p
}

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

# An embedding table [num_embeddings, dim], normal(0, 1) like torch.nn.Embedding; the row
# padding_idx starts at zero.
fn embedding_init(num_embeddings, dim, padding_idx = none) {
  let w = randn([num_embeddings, dim])
  if type(padding_idx) != "none" {
    w = index_copy(w, 0, tensor([padding_idx]), zeros([1, dim]))
  }
  return {"w": w}
}

# The rows of the table at the i32 indices idx; the row padding_idx gets no gradient.
fn embedding_apply(p, idx, padding_idx = none) {
  return embedding(idx, p["w"], padding_idx = padding_idx)
}

# layer_norm's scale (ones) and shift (zeros) over the last dim, like torch.nn.LayerNorm.
fn layer_norm_init(dim) { return {"w": ones([dim]), "b": zeros([dim])} }

# Normalizes x over its last dim (biased variance), then scales and shifts.
fn layer_norm_apply(p, x, eps = 1e-5) {
  let w = p["w"]
  return layer_norm(x, w.shape, w, p["b"], eps)
}

# rms_norm's scale (ones) over the last dim, like torch.nn.RMSNorm.
fn rms_norm_init(dim) { return {"w": ones([dim])} }

# x / sqrt(mean(x ** 2) + eps) over the last dim, times the scale; eps defaults to f32's
# machine epsilon, as torch's.
fn rms_norm_apply(p, x, eps = none) {
  let w = p["w"]
  return rms_norm(x, w.shape, w, eps)
}

fn _pair(v) { return (v, v) if type(v) == "int" else (v[0], v[1]) }

# A conv2d layer's weight [out, in/groups, kh, kw] and bias [out], uniform in
# [-1/sqrt(fan_in), 1/sqrt(fan_in)] with fan_in = in/groups * kh * kw (torch.nn.Conv2d).
fn conv2d_init(in_channels, out_channels, kernel_size, groups = 1, bias = true) {
  if in_channels % groups != 0 or out_channels % groups != 0 {
    raise ValueError(f"conv2d_init: in_channels {in_channels} and out_channels {out_channels} must be divisible by groups {groups}")
  }
  let (kh, kw) = _pair(kernel_size)
  let bound = 1.0 / (in_channels // groups * kh * kw) ** 0.5
  let p = {"w": uniform([out_channels, in_channels // groups, kh, kw], bound)}
  if bias { p["b"] = uniform([out_channels], bound) }
  return p
}

# 2-D convolution of [N, C, H, W] by the layer's weight (F.conv2d's options).
fn conv2d_apply(p, x, stride = 1, padding = 0, dilation = 1, groups = 1) {
  return conv2d(x, p["w"], p.get("b"), stride, padding, dilation, groups)
}

# batch_norm's parameters and running state, as torch.nn.BatchNorm2d (or 1d) keeps them:
# (params {"w": ones, "b": zeros}, state {"running_mean": zeros, "running_var": ones}). The
# state is a separate tree so that grad() differentiates only the parameters.
fn batch_norm_init(num_features) {
  let params = {"w": ones([num_features]), "b": zeros([num_features])}
  let state = {"running_mean": zeros([num_features]), "running_var": ones([num_features])}
  return (params, state)
}

# Normalizes per channel (dim 1): in training with the batch's statistics, updating the running
# ones by momentum; otherwise with the running ones. Returns (y, new_state) in both modes
# (the state unchanged outside training), so a model threads it the same way in each.
fn batch_norm_apply(p, state, x, training = false, momentum = 0.1, eps = 1e-5) {
  let mean = state["running_mean"]
  let var = state["running_var"]
  if not training {
    return (batch_norm(x, mean, var, p["w"], p["b"], false, momentum, eps), state)
  }
  let (y, new_mean, new_var) = batch_norm(x, mean, var, p["w"], p["b"], true, momentum, eps)
  return (y, {"running_mean": new_mean, "running_var": new_var})
}

# Dropout in training (each element zeroed with probability p, the rest scaled by 1/(1-p));
# x itself otherwise, as torch.nn.Dropout in eval mode.
fn dropout_apply(x, p = 0.5, training = true) {
  if p < 0.0 or p > 1.0 {
    raise ValueError(f"dropout_apply: p must be in [0, 1], got {p}")
  }
  if not training or p == 0.0 { return x }
  return dropout(x, p)
}

# --- attention ---------------------------------------------------------------------------

# Multi-head attention's projections (torch.nn.MultiheadAttention's in_proj split in three,
# and out_proj): "q", "k", "v", "o" linear layers [embed_dim, embed_dim], the input
# projections xavier-uniform with zero biases, as torch.
fn attention_init(embed_dim, num_heads, bias = true) {
  if embed_dim % num_heads != 0 {
    raise ValueError(f"attention_init: embed_dim {embed_dim} must be divisible by num_heads {num_heads}")
  }
  let p = {}
  for name in ["q", "k", "v"] {
    p[name] = {"w": xavier_uniform(embed_dim, embed_dim)}
    if bias { p[name]["b"] = zeros([embed_dim]) }
  }
  p["o"] = torch_linear_init(embed_dim, embed_dim, bias)
  if bias { p["o"]["b"] = zeros([embed_dim]) }
  return p
}

# [B, L, E] -> [B, H, L, E/H]
fn _split_heads(x, num_heads) {
  let (b, l, e) = (x.shape[0], x.shape[1], x.shape[2])
  return x.reshape([b, l, num_heads, e // num_heads]).permute([0, 2, 1, 3])
}

# The boolean mask (true: the key takes part) that the fused op gets, from torch's masks
# (true: masked out), or none when nothing is masked.
fn _attention_keep(key_padding_mask, attn_mask, is_causal, t, s) {
  let keep = none
  if type(key_padding_mask) != "none" {
    if str(key_padding_mask.dtype) != "bool" {
      raise TypeError(f"attention_apply: key_padding_mask must be bool (true: padding), got {key_padding_mask.dtype}")
    }
    keep = logical_not(key_padding_mask)[:, none, none, :]
  }
  if type(attn_mask) != "none" {
    let m = logical_not(attn_mask) if str(attn_mask.dtype) == "bool" else attn_mask
    if type(keep) == "none" {
      keep = m
    } elif str(m.dtype) == "bool" {
      keep = logical_and(keep, m)
    } else {
      keep = masked_fill(m + zeros(keep.shape), logical_not(keep), float("-inf"))
    }
  }
  if is_causal and type(keep) != "none" {
    let causal = tril(ones([t, s], dtype = bool))
    keep = logical_and(keep, causal) if str(keep.dtype) == "bool" else masked_fill(keep, logical_not(causal), float("-inf"))
  }
  return keep
}

# Multi-head attention of query [B, T, E] over key and value [B, S, E] (batch first), as
# torch.nn.MultiheadAttention(batch_first = true) returns its output: key_padding_mask [B, S]
# bool, true at padding; attn_mask [T, S] (or any shape that broadcasts to [B, H, T, S]) bool,
# true where a query may NOT look, or additive floats; is_causal the lower triangle. Runs on the fused
# scaled_dot_product_attention (with is_causal alone, its causal path). A query whose keys are
# all masked gets NaN, as in torch.
fn attention_apply(p, query, key, value, num_heads, key_padding_mask = none, attn_mask = none, is_causal = false) {
  if query.ndim != 3 or key.ndim != 3 or value.ndim != 3 {
    raise ShapeError(f"attention_apply: query, key and value must be [batch, length, embed_dim], got {list(query.shape)}, {list(key.shape)}, {list(value.shape)}")
  }
  let (b, t, e) = (query.shape[0], query.shape[1], query.shape[2])
  let q = _split_heads(linear_apply(p["q"], query), num_heads)
  let k = _split_heads(linear_apply(p["k"], key), num_heads)
  let v = _split_heads(linear_apply(p["v"], value), num_heads)
  let keep = _attention_keep(key_padding_mask, attn_mask, is_causal, t, key.shape[1])
  let o = none
  if type(keep) == "none" {
    o = scaled_dot_product_attention(q, k, v, is_causal = is_causal)
  } else {
    o = scaled_dot_product_attention(q, k, v, attn_mask = keep)
  }
  return linear_apply(p["o"], o.permute([0, 2, 1, 3]).reshape([b, t, e]))
}

# A pre-norm transformer encoder block (torch.nn.TransformerEncoderLayer with
# norm_first = true): "ln1", "attn", "ln2" and the feed-forward "ff1" [dim -> ff_dim], "ff2".
fn transformer_block_init(dim, num_heads, ff_dim) {
  return {
    "ln1": layer_norm_init(dim), "attn": attention_init(dim, num_heads),
    "ln2": layer_norm_init(dim), "ff1": torch_linear_init(dim, ff_dim),
    "ff2": torch_linear_init(ff_dim, dim)
  }
}

fn _activation(name, x) {
  if name == "relu" { return relu(x) }
  if name == "gelu" { return gelu(x) }
  raise ValueError(f"transformer_block_apply: unknown activation {name!r} (expected \"relu\" or \"gelu\")")
}

# x + attention(layer_norm(x)), then + ff2(activation(ff1(layer_norm(x)))), with dropout
# on both branches and after the activation in training; masks as attention_apply's.
fn transformer_block_apply(p, x, num_heads, key_padding_mask = none, attn_mask = none, is_causal = false, activation = "relu", dropout_p = 0.0, training = false) {
  let h = layer_norm_apply(p["ln1"], x)
  h = attention_apply(p["attn"], h, h, h, num_heads, key_padding_mask, attn_mask, is_causal)
  x = x + dropout_apply(h, dropout_p, training)
  h = _activation(activation, linear_apply(p["ff1"], layer_norm_apply(p["ln2"], x)))
  h = linear_apply(p["ff2"], dropout_apply(h, dropout_p, training))
  return x + dropout_apply(h, dropout_p, training)
}

# --- graph convolutions ------------------------------------------------------------------
# Messages flow along edge_index [2, E] (i32) from edge_index[0] (source) to edge_index[1]
# (target), as PyTorch Geometric's default flow.

# GCNConv's parameters (Kipf & Welling): weight [out, in] glorot, bias zeros, as PyG.
fn gcn_conv_init(in_channels, out_channels) {
  return {"w": xavier_uniform(in_channels, out_channels), "b": zeros([out_channels])}
}

# PyG's GCNConv: x @ w.T, each edge's message scaled by gcn_norm's coefficient (self-loops
# added unless add_self_loops is false; no scaling when normalize is false), summed at the
# targets by index_add, then the bias.
fn gcn_conv_apply(p, x, edge_index, edge_weight = none, add_self_loops = true, normalize = true) {
  import graph
  let n = x.shape[0]
  let h = linear(x, p["w"])
  let (ei, w) = (edge_index, edge_weight)
  if normalize {
    let normed = graph.gcn_norm(edge_index, edge_weight, n, add_self_loops)
    ei = normed[0]
    w = normed[1]
  }
  let msg = index_select(h, 0, ei[0])
  if type(w) != "none" { msg = msg * w[:, none] }
  return index_add(zeros([n, h.shape[1]]), 0, ei[1], msg) + p["b"]
}

# SAGEConv's parameters (Hamilton et al., mean aggregation): "neigh" (a linear layer with
# bias, on the neighbours' mean) and "root" (without bias, on the node itself), each with
# torch.nn.Linear's initialization, as PyG.
fn sage_conv_init(in_channels, out_channels) {
  return {
    "neigh": torch_linear_init(in_channels, out_channels),
    "root": torch_linear_init(in_channels, out_channels, bias = false)
  }
}

# PyG's SAGEConv with mean aggregation: neigh(mean of the sources' x at each target) + root(x);
# a node with no incoming edge aggregates zeros.
fn sage_conv_apply(p, x, edge_index) {
  import graph
  let n = x.shape[0]
  let src = edge_index[0]
  let dst = edge_index[1]
  let total = index_add(zeros([n, x.shape[1]]), 0, dst, index_select(x, 0, src))
  let count = clamp(graph.degree(dst, n), 1.0, none)
  return linear_apply(p["neigh"], total / count[:, none]) + linear_apply(p["root"], x)
}

# --- optimizers --------------------------------------------------------------------------
# torch.optim's update rules, as functions of (params, grads, state) that return new trees.
# The state is a tree too (moment buffers) plus the step count "t"; each *_init makes it.

# SGD's state: a momentum buffer per parameter (used only with momentum) and the step count.
fn sgd_init(params) { return {"buf": tree_map(zeros_like, params), "t": 0} }

# One step of torch.optim.SGD: the gradient plus weight_decay * p; with momentum, the buffer
# momentum * buf + (1 - dampening) * g (the first step's buffer is g itself, as torch), and
# nesterov's g + momentum * buf. Without a state (plain SGD, no momentum) returns the new
# params; with one (from sgd_init), (new_params, new_state).
fn sgd_step(params, grads, lr = 0.01, state = none, momentum = 0.0, dampening = 0.0, weight_decay = 0.0, nesterov = false) {
  if nesterov and (momentum <= 0.0 or dampening != 0.0) {
    raise ValueError("sgd_step: nesterov needs a momentum > 0 and no dampening")
  }
  let stateless = type(state) == "none"
  if stateless and momentum != 0.0 {
    raise ValueError("sgd_step: momentum needs a state (nn.sgd_init(params))")
  }
  let ps = tree_leaves(params)
  let gs = tree_leaves(grads)
  if len(ps) != len(gs) {
    raise ValueError(f"sgd_step: {len(ps)} parameters but {len(gs)} gradients")
  }
  let bufs = [] if stateless else tree_leaves(state["buf"])
  let new_ps = []
  let new_bufs = []
  for i in range(len(ps)) {
    let d = gs[i]
    if weight_decay != 0.0 { d = d + weight_decay * ps[i] }
    if momentum != 0.0 {
      let buf = d if state["t"] == 0 else momentum * bufs[i] + (1.0 - dampening) * d
      new_bufs.append(buf)
      d = d + momentum * buf if nesterov else buf
    } elif not stateless {
      new_bufs.append(bufs[i])
    }
    new_ps.append(ps[i] - lr * d)
  }
  let new_params = tree_unflatten(params, new_ps)
  if stateless { return new_params }
  return (new_params, {"buf": tree_unflatten(state["buf"], new_bufs), "t": state["t"] + 1})
}

# Adam's state (also AdamW's): the first and second moment estimates and the step count. The
# count is a 0-d tensor, as torch.optim.Adam keeps its `step`: a compiled training step reads it
# as data, so it compiles once rather than specializing on the first count and then making it
# a symbol (a number would compile twice).
fn adam_init(params) {
  return {"m": tree_map(zeros_like, params), "v": tree_map(zeros_like, params), "t": tensor(0.0)}
}

fn _adam(fname, params, grads, state, lr, b1, b2, eps, weight_decay, decoupled) {
  let ps = tree_leaves(params)
  let gs = tree_leaves(grads)
  if len(ps) != len(gs) {
    raise ValueError(f"{fname}: {len(ps)} parameters but {len(gs)} gradients")
  }
  let ms = tree_leaves(state["m"])
  let vs = tree_leaves(state["v"])
  let t = state["t"] + 1
  let bc1 = 1.0 - b1 ** t
  let bc2_sqrt = (1.0 - b2 ** t) ** 0.5
  let (new_ps, new_ms, new_vs) = ([], [], [])
  for i in range(len(ps)) {
    let p = ps[i]
    let g = gs[i]
    if weight_decay != 0.0 {
      if decoupled { p = p * (1.0 - lr * weight_decay) } else { g = g + weight_decay * p }
    }
    let m = b1 * ms[i] + (1.0 - b1) * g
    let v = b2 * vs[i] + (1.0 - b2) * g * g
    new_ps.append(p - (lr / bc1) * m / (sqrt(v) / bc2_sqrt + eps))
    new_ms.append(m)
    new_vs.append(v)
  }
  let new_state = {"m": tree_unflatten(state["m"], new_ms), "v": tree_unflatten(state["v"], new_vs), "t": t}
  return (tree_unflatten(params, new_ps), new_state)
}

# One step of torch.optim.Adam (bias-corrected moments; weight_decay adds weight_decay * p to
# the gradient, L2 style): returns (new_params, new_state).
fn adam_step(params, grads, state, lr = 0.001, b1 = 0.9, b2 = 0.999, eps = 1e-8, weight_decay = 0.0) {
  return _adam("adam_step", params, grads, state, lr, b1, b2, eps, weight_decay, false)
}

# One step of torch.optim.AdamW: Adam with the decay decoupled, p * (1 - lr * weight_decay)
# before the update; the state comes from adam_init. Returns (new_params, new_state).
fn adamw_step(params, grads, state, lr = 0.001, b1 = 0.9, b2 = 0.999, eps = 1e-8, weight_decay = 0.01) {
  return _adam("adamw_step", params, grads, state, lr, b1, b2, eps, weight_decay, true)
}

# --- learning-rate schedules -------------------------------------------------------------
# Each is the learning rate at a step (0 for the first), a float, in closed form.

# torch.optim.lr_scheduler.StepLR: base_lr * gamma ** (step // step_size).
fn step_lr(step, base_lr, step_size, gamma = 0.1) {
  return base_lr * gamma ** (step // step_size)
}

# torch.optim.lr_scheduler.CosineAnnealingLR's curve from base_lr down to min_lr over
# total_steps, held at min_lr after.
fn cosine_lr(step, base_lr, total_steps, min_lr = 0.0) {
  import math
  let s = min(step, total_steps)
  return min_lr + (base_lr - min_lr) * (1.0 + math.cos(math.pi * s / total_steps)) / 2.0
}

# Linear warm-up: base_lr * (step + 1) / warmup_steps for the first warmup_steps steps, then
# base_lr (torch's LinearLR with start_factor 1/warmup_steps over warmup_steps - 1 steps).
fn warmup_lr(step, base_lr, warmup_steps) {
  if step >= warmup_steps { return base_lr }
  return base_lr * (step + 1) / warmup_steps
}

# A schedule as a function of the step: name "constant", "step" (step_size, gamma), "cosine"
# (total_steps, min_lr) or "linear" (base_lr down to min_lr over total_steps), after a linear
# warm-up of warmup_steps (the schedule then starts at the step after the warm-up).
fn lr_schedule(name, base_lr, total_steps = none, step_size = none, gamma = 0.1, warmup_steps = 0, min_lr = 0.0) {
  let names = ["constant", "step", "cosine", "linear"]
  if not (name in names) {
    raise ValueError(f"lr_schedule: unknown schedule {name!r} (expected \"constant\", \"step\", \"cosine\" or \"linear\")")
  }
  if name == "step" and (type(step_size) != "int" or step_size < 1) {
    raise ValueError(f"lr_schedule: \"step\" needs step_size >= 1, got {step_size}")
  }
  if (name == "cosine" or name == "linear") and (type(total_steps) != "int" or total_steps <= warmup_steps) {
    raise ValueError(f"lr_schedule: {name!r} needs total_steps greater than warmup_steps ({warmup_steps}), got {total_steps}")
  }
  fn after(s) {
    if name == "step" { return step_lr(s, base_lr, step_size, gamma) }
    if name == "cosine" { return cosine_lr(s, base_lr, total_steps - warmup_steps, min_lr) }
    if name == "linear" {
      let frac = min(s, total_steps - warmup_steps) / (total_steps - warmup_steps)
      return base_lr + (min_lr - base_lr) * frac
    }
    return base_lr
  }
  return fn (step) {
    if step < warmup_steps { return warmup_lr(step, base_lr, warmup_steps) }
    return after(step - warmup_steps)
  }
}

# --- gradients and metrics ---------------------------------------------------------------

# torch.nn.utils.clip_grad_norm_ as a function: the total norm_type-norm (2.0 or inf) of all
# the gradients' elements, and the gradients scaled by max_norm / (total + 1e-6) when that is
# below 1. Returns (clipped_grads, total_norm) with total_norm a 0-d tensor.
fn clip_grad_norm(grads, max_norm, norm_type = 2.0) {
  let gs = tree_leaves(grads)
  if len(gs) == 0 { return (grads, tensor(0.0)) }
  let total = none
  if norm_type == float("inf") {
    total = stack([amax(abs(g)) for g in gs]).max()
  } elif type(norm_type) == "float" or type(norm_type) == "int" {
    total = norm(stack([norm(g, norm_type) for g in gs]), norm_type)
  } else {
    raise TypeError(f"clip_grad_norm: norm_type must be a number, got {type(norm_type)}")
  }
  let coef = clamp(max_norm / (total + 1e-6), none, 1.0)
  return (tree_map(fn (g) { return g * coef }, grads), total)
}

# The fraction of rows of logits [N, C] whose argmax is the i32 target [N], a 0-d f32 tensor.
fn accuracy(logits, target) {
  if logits.ndim != 2 or target.ndim != 1 or logits.shape[0] != target.shape[0] {
    raise ShapeError(f"accuracy: logits must be [N, C] and target [N], got {list(logits.shape)} and {list(target.shape)}")
  }
  return (argmax(logits, -1) == target).to(f32).mean()
}
