# The language-model benchmark: the char LM of examples/models/char_lm.dsl (2 pre-norm
# transformer blocks, d = 64, 4 heads, AdamW, clipping) trained on the lowercase words of
# /usr/share/dict/words in batches of 64 words of similar length (the words sorted by length and
# cut into batches, the batches visited in a fixed scrambled order), each batch padded to its own
# longest word: the sequence length changes at every step, and the compiled step serves them
# all. bench/models/char_lm/train.py runs the same in PyTorch eager, padded the same way and
# padded to the longest word overall (what a static-shape compiler must do); run.sh runs all.
# Prints the mean step time over steps 20..STEPS-1, the real (unpadded) tokens per second, the
# compile count and the last loss. TESSEL_LM_EAGER=1 runs the step eagerly.
import nn

let steps = int(env("STEPS", "220"))
let batch = 64
let dim = 64
let heads = 4
let vocab = 28   # padding, the word boundary, a..z

let words = [w for w in read_lines("/usr/share/dict/words") if len(w) >= 2 and all([c >= "a" and c <= "z" for c in w])]
words = sorted(words, key = fn (w) { return (len(w), w) })
let nb = len(words) // batch
fn batch_tokens(k) {
  let ws = words[k * batch:(k + 1) * batch]
  let T = len(ws[-1]) + 2
  let rows = [[1] + [ord(c) - 95 for c in w] + [1] + [0] * (T - len(w) - 2) for w in ws]
  return (tensor(rows), tensor([len(w) + 2 for w in ws]))
}

seed(0)
let params = {"emb": nn.embedding_init(vocab, dim, padding_idx = 0), "pos": randn([32, dim]) * 0.02,
              "blocks": [nn.transformer_block_init(dim, heads, 4 * dim) for _ in range(2)],
              "ln": nn.layer_norm_init(dim), "out": nn.torch_linear_init(dim, vocab)}
fn loss_fn(p, tok, lengths) {
  let x = tok[:, :-1]
  let T = x.shape[1]
  let pad = arange(T)[none, :] >= (lengths - 1)[:, none]
  let h = nn.embedding_apply(p["emb"], x, padding_idx = 0) + p["pos"][:T]
  for b in p["blocks"] {
    h = nn.transformer_block_apply(b, h, heads, key_padding_mask = pad, is_causal = true, activation = "gelu")
  }
  let logits = nn.linear_apply(p["out"], nn.layer_norm_apply(p["ln"], h))
  let target = masked_fill(tok[:, 1:], pad, -100)
  return cross_entropy(logits.reshape([-1, vocab]), target.reshape([-1]), ignore_index = -100)
}
let grad_fn = value_and_grad(loss_fn)
fn adamw_step(p, s, tok, lengths) {
  let (loss, grads) = grad_fn(p, tok, lengths)
  let (clipped, norm) = nn.clip_grad_norm(grads, 1.0)
  let (p2, s2) = nn.adamw_step(p, clipped, s, lr = 0.002)
  return (loss, p2, s2)
}

let eager = env("TESSEL_LM_EAGER", "0") == "1"
let train_step = adamw_step if eager else compile(adamw_step)
let state = nn.adam_init(params)
let loss = none
let tokens = 0
let t0 = now_ms()
for s in range(steps) {
  if s == 20 {
    t0 = now_ms()
    tokens = 0
  }
  let (tok, lengths) = batch_tokens((s * 7919) % nb)
  if not eager {
    mark_dynamic(tok, 1)
  }
  let (l, p, st) = train_step(params, state, tok, lengths)
  params = p
  state = st
  loss = l.item()
  tokens += lengths.sum().item() - batch   # the predicted tokens: all but each word's first
}
let ms = (now_ms() - t0) / (steps - 20)
let compiles = 0 if eager else stats(train_step)["compiles"]
let compile_ms = 0.0 if eager else stats(train_step)["compile_ms"] / compiles   # per compile
print("eager" if eager else "tessel", "step_ms", round(ms, 3), "tokens_per_s", round(tokens / (ms * (steps - 20)) * 1000.0, 0), "compiles", compiles, "compile_ms", round(compile_ms, 1), "loss", round(loss, 6))
