# A causal transformer language model over the letters of English words: /usr/share/dict/words
# (Debian's wamerican), each word a sequence "<w o r d>" of letter tokens between boundary
# tokens. Batches of 64 words of every length are padded only to their own longest word, so
# the sequence length changes from batch to batch; the training step is compiled once for all
# of them (its data dims marked dynamic). At the end the model writes new words, letter by
# letter.
#   tessel examples/models/char_lm.dsl [path/to/words]
#   TESSEL_EXAMPLE_STEPS=30 tessel examples/models/char_lm.dsl   (fewer steps: the test suite)
import nn
import data

let path = args[0] if len(args) > 0 else "/usr/share/dict/words"
let steps = int(env("TESSEL_EXAMPLE_STEPS", "600"))
let batch = 64
let dim = 64
let heads = 4
let PAD = 0
let BOUNDARY = 1
let vocab = 28   # pad, boundary, a..z

let words = [w for w in read_lines(path) if len(w) >= 2 and len(w) <= 12 and all([c >= "a" and c <= "z" for c in w])]
fn encode(w) { return tensor([BOUNDARY] + [ord(c) - 95 for c in w] + [BOUNDARY]) }
seed(0)
let order = randperm(len(words)).tolist()
let held_out = [words[i] for i in order[:512]]
let train_words = [words[i] for i in order[512:]]
print(len(words), "words;", len(train_words), "to train on,", len(held_out), "held out")

fn init() {
  return {"emb": nn.embedding_init(vocab, dim, padding_idx = PAD), "pos": randn([16, dim]) * 0.02,
          "blocks": [nn.transformer_block_init(dim, heads, 4 * dim) for _ in range(2)],
          "ln": nn.layer_norm_init(dim), "out": nn.torch_linear_init(dim, vocab)}
}

# The next-letter logits at every position of tok [B, T] (lengths: each row's real length).
fn logits_of(p, tok, lengths) {
  let T = tok.shape[1]
  let pad = arange(T)[none, :] >= lengths[:, none]
  let h = nn.embedding_apply(p["emb"], tok, padding_idx = PAD) + p["pos"][:T]
  for b in p["blocks"] {
    h = nn.transformer_block_apply(b, h, heads, key_padding_mask = pad, is_causal = true, activation = "gelu")
  }
  return nn.linear_apply(p["out"], nn.layer_norm_apply(p["ln"], h))
}

# Cross-entropy of predicting each next token, padding ignored.
fn loss_fn(p, tok, lengths) {
  let logits = logits_of(p, tok[:, :-1], lengths - 1)
  let pad = arange(tok.shape[1] - 1)[none, :] >= (lengths - 1)[:, none]
  let target = masked_fill(tok[:, 1:], pad, -100)
  return cross_entropy(logits.reshape([-1, vocab]), target.reshape([-1]), ignore_index = -100)
}

@compile
fn train_step(p, s, tok, lengths, lr) {
  let (loss, grads) = value_and_grad(loss_fn)(p, tok, lengths)
  let (clipped, norm) = nn.clip_grad_norm(grads, 1.0)
  let (p2, s2) = nn.adamw_step(p, clipped, s, lr = lr, weight_decay = 0.01)
  return (p2, s2, loss)
}

fn padded(ws) {
  let (tok, lengths) = data.pad_sequence([encode(w) for w in ws], value = PAD)
  return (tok.to(i32), lengths)
}

let params = init()
let state = nn.adam_init(params)
let schedule = nn.lr_schedule("cosine", 0.003, total_steps = steps, warmup_steps = 20)
for step in range(steps) {
  let start = (step * batch) % (len(train_words) - batch)
  let (tok, lengths) = padded(train_words[start:start + batch])
  mark_dynamic(tok, 1)
  let (p, s, loss) = train_step(params, state, tok, lengths, schedule(step))
  params = p
  state = s
  if step % 100 == 0 or step == steps - 1 { print(f"step {step:4d}  loss {loss.item():.4f}  length {tok.shape[1]}") }
}

# Held out: the loss and how often the most likely next letter is the right one.
let (tok, lengths) = padded(held_out)
let logits = logits_of(params, tok[:, :-1], lengths - 1)
let real = arange(tok.shape[1] - 1)[none, :] < (lengths - 1)[:, none]
let right = masked_select((logits.argmax(dim = -1) == tok[:, 1:]).to(f32), real).mean().item()
print(f"held-out loss {loss_fn(params, tok, lengths).item():.4f}, next-letter accuracy {right:.3f}")
print("compiles:", stats(train_step)["compiles"])

# New words, one letter at a time (eagerly: every step is one letter longer).
fn sample(p, temperature) {
  let seq = [BOUNDARY]
  while len(seq) < 14 {
    let t = tensor([seq])
    let last = logits_of(p, t, tensor([len(seq)]))[0, -1] / temperature
    let next = multinomial(softmax(last[1:], 0), 1)[0].item() + 1   # never the padding token
    if next == BOUNDARY { break }
    seq.append(next)
  }
  return "".join([chr(c + 95) for c in seq[1:]])
}
seed(7)
print("sampled:", " ".join([sample(params, 0.8) for _ in range(8)]))

# A checkpoint of the parameters, written and read back.
let ckpt = env("TMPDIR", "/tmp") + "/tessel_char_lm.safetensors"
save(ckpt, nn.tree_map(fn (t) { return t.to("cpu") }, params))
let back = load(ckpt, device = "cpu")
let same = bool((back["emb"]["w"] == params["emb"]["w"].to("cpu")).all().item())
print("checkpoint round trip:", same)
# What the test suite checks when it runs this example on each device.
assert same and stats(train_step)["compiles"] <= 2 and (steps < 300 or right > 0.3)
