# A causal transformer block trained over sequences of changing length: embedding,
# layer_norm, attention over heads with scaled_dot_product_attention(is_causal = true) (one
# fused op, forward and backward), a gelu MLP and cross_entropy over next tokens. One compiled
# training step (dynamic sizes) serves every length: it compiles once, its losses and updated
# parameters equal eager autodiff's, the fused attention equals softmax(q k^T * scale + causal
# mask) v written out, and the loss goes down.
import nn

let V = 11
let D = 8
let H = 2

# [b, t, D] -> [b, H, t, D / H]
fn heads(x, b, t) { return x.reshape([b, t, H, D // H]).permute([0, 2, 1, 3]) }

fn attend_unfused(q, k, v) {
  let t = q.shape[2]
  let s = (q @ k.transpose(-2, -1)) * 0.5                       # 1 / sqrt(D / H)
  let future = logical_not(tril(ones([t, t])) > 0)
  return softmax(masked_fill(s, future, float("-inf")), -1) @ v
}

fn logits_of(p, tokens, fused) {
  let b = tokens.shape[0]
  let t = tokens.shape[1]
  let x = embedding(tokens, p["emb"])
  let qkv = nn.linear_apply(p["qkv"], layer_norm(x, [D], p["ln1_w"], p["ln1_b"]))
  let q = heads(qkv[..., :D], b, t)
  let k = heads(qkv[..., D:2 * D], b, t)
  let v = heads(qkv[..., 2 * D:], b, t)
  let a = attend_unfused(q, k, v)
  if fused { a = scaled_dot_product_attention(q, k, v, is_causal = true) }
  x = x + nn.linear_apply(p["proj"], a.permute([0, 2, 1, 3]).reshape([b, t, D]))
  let m = layer_norm(x, [D], p["ln2_w"], p["ln2_b"])
  x = x + nn.linear_apply(p["fc2"], gelu(nn.linear_apply(p["fc1"], m)))
  return nn.linear_apply(p["head"], x)
}

fn loss_fn(p, seq) {
  let logits = logits_of(p, seq[:, :-1], true)
  return cross_entropy(logits.reshape([-1, V]), seq[:, 1:].reshape([-1]))
}

fn train_step(p, seq) {
  let (loss, g) = value_and_grad(loss_fn)(p, seq)
  return (loss, nn.sgd_step(p, g, lr = 0.1))
}
let step = compile(train_step, dynamic = true)

fn max_diff(a, b) {
  if type(a) == "dict" {
    let m = 0.0
    for (k, v) in a.items() { m = max(m, max_diff(v, b[k])) }
    return m
  }
  return abs(a - b).max().item()
}

seed(3)
let pc = {"emb": randn([V, D]) * 0.5, "ln1_w": ones([D]), "ln1_b": zeros([D]),
          "qkv": nn.linear_init(D, 3 * D), "proj": nn.linear_init(D, D), "ln2_w": ones([D]),
          "ln2_b": zeros([D]), "fc1": nn.linear_init(D, 4 * D), "fc2": nn.linear_init(4 * D, D),
          "head": nn.linear_init(D, V)}
let pe = pc
# Sequences of 6, 10, 8 and 13 tokens that count up modulo V: the next token is predictable.
let data = []
for n in [6, 10, 8, 13] {
  let start = randint(0, V, [2, 1])
  data.append((start + arange(n).unsqueeze(0)) % V)
}
let worst_step = 0.0
let worst_attention = 0.0
let first = loss_fn(pc, data[0]).item()
for epoch in range(6) {
  for seq in data {
    let (lc, nc) = step(pc, seq)
    let (le, ne) = train_step(pe, seq)
    worst_step = max(worst_step, abs(lc.item() - le.item()), max_diff(nc, ne))
    let fused = logits_of(pc, seq, true)
    worst_attention = max(worst_attention, abs(fused - logits_of(pc, seq, false)).max().item())
    pc = nc
    pe = ne
  }
}
print(worst_step < 1e-4, worst_attention < 1e-4)        # expect: true true
print(loss_fn(pc, data[0]).item() < 0.5 * first)      # expect: true
print(stats(step)["compiles"])                        # expect: 1
