# The transformer training workload: a small causal transformer (2 layers, d = 64, 4 heads) trained
# as a character model on real English text (/usr/share/dict/words), the sequence length
# changing every step (16..128), the whole step (value_and_grad + nn.adam_step) under @compile.
# bench/transformer/train.py is the same loop in PyTorch eager; bench/transformer/run.sh runs
# both. Prints the mean step time over steps 20..STEPS-1 (after warm-up and the compiles), the
# compile count and the last loss. TESSEL_TF_EAGER=1 runs the same step eagerly.
import nn

seed(0)
let steps = int(env("STEPS", "200"))
let V = 96
let D = 64
let H = 4
let LAYERS = 2
let B = 16

fn load_tokens(limit) {
  let text = " ".join(read_lines("/usr/share/dict/words"))
  return tensor([ord(c) % V for c in text[:limit]])
}
let tokens = load_tokens(200000)

# The same deterministic schedule as train.py.
fn seq_len(i) { return 16 + (i * 37) % 113 }
fn batch(i, T) {
  let n = tokens.shape[0] - T - 1
  let offs = tensor([(i * 7919 + b * 104729) % n for b in range(B)])
  let idx = offs.unsqueeze(1) + arange(0, T + 1).unsqueeze(0)
  let chunk = index_select(tokens, 0, idx.reshape([-1])).reshape([B, T + 1])
  return (chunk[:, :T], chunk[:, 1:])
}

fn norm_init() { return {"w": ones([D]), "b": zeros([D])} }
fn init() {
  let layers = []
  for _ in range(LAYERS) {
    layers.append({"ln1": norm_init(), "qkv": nn.linear_init(D, 3 * D), "proj": nn.linear_init(D, D),
                   "ln2": norm_init(), "fc1": nn.linear_init(D, 4 * D), "fc2": nn.linear_init(4 * D, D)})
  }
  return {"emb": randn([V, D]) * 0.02, "pos": randn([256, D]) * 0.02, "layers": layers,
          "lnf": norm_init(), "head": nn.linear_init(D, V)}
}

fn ln(p, x) { return layer_norm(x, [D], p["w"], p["b"]) }

fn forward(p, x) {
  let Bn = x.shape[0]
  let T = x.shape[1]
  let h = embedding(x, p["emb"]) + p["pos"][:T]
  for l in p["layers"] {
    let qkv = nn.linear_apply(l["qkv"], ln(l["ln1"], h)).reshape([Bn, T, 3, H, D // H]).permute([2, 0, 3, 1, 4])
    let o = scaled_dot_product_attention(qkv[0], qkv[1], qkv[2], is_causal = true)
    h = h + nn.linear_apply(l["proj"], o.transpose(1, 2).reshape([Bn, T, D]))
    h = h + nn.linear_apply(l["fc2"], gelu(nn.linear_apply(l["fc1"], ln(l["ln2"], h))))
  }
  return nn.linear_apply(p["head"], ln(p["lnf"], h))
}

fn loss_fn(p, x, y) { return cross_entropy(forward(p, x).reshape([-1, V]), y.reshape([-1])) }
let grad_fn = value_and_grad(loss_fn)
fn adam_step(state, x, y) {
  let (loss, grads) = grad_fn(state[0], x, y)
  return (loss, nn.adam_step(state[0], grads, state[1], lr = 0.001))
}

let eager = env("TESSEL_TF_EAGER", "0") == "1"
let train_step = adam_step if eager else compile(adam_step)
let params = init()
let state = (params, nn.adam_init(params))
let loss = none
let t0 = now_ms()
for i in range(steps) {
  if i == 20 { t0 = now_ms() }
  let (x, y) = batch(i, seq_len(i))
  let (l, s) = train_step(state, x, y)
  state = s
  loss = l
}
let ms = (now_ms() - t0) / (steps - 20)
let compiles = 0 if eager else stats(train_step)["compiles"]
print("eager" if eager else "tessel", "step_ms", round(ms, 3), "compiles", compiles, "loss", round(loss.item(), 6))
