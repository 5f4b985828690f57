# The model library under @compile: a causal transformer LM step (embedding, pre-norm block
# with padding and causal masks, clip_grad_norm, AdamW, a warm-up + cosine schedule) over
# batches of every sequence length and a last partial batch, its data dims marked dynamic,
# compiles twice (the second time for the learning rate, which then is an input), and learns;
# a GCN step over graphs with different edge counts compiles once.
import nn
import data
seed(0)
let vocab = 12
let p = {"emb": nn.embedding_init(vocab, 16, padding_idx = 0), "blk": nn.transformer_block_init(16, 2, 32), "ln": nn.layer_norm_init(16), "out": nn.torch_linear_init(16, vocab)}
fn lm_loss(p, tok, lengths) {
  let pad = arange(tok.shape[1])[none, :] >= lengths[:, none]
  let h = nn.embedding_apply(p["emb"], tok[:, :-1], padding_idx = 0)
  h = nn.transformer_block_apply(p["blk"], h, 2, key_padding_mask = pad[:, :-1], is_causal = true)
  let logits = nn.linear_apply(p["out"], nn.layer_norm_apply(p["ln"], h))
  let target = masked_fill(tok[:, 1:], pad[:, 1:], -100)
  return cross_entropy(logits.reshape([-1, vocab]), target.reshape([-1]), ignore_index = -100)
}
@compile
fn step(p, s, tok, lengths, lr) {
  let (l, g) = value_and_grad(lm_loss)(p, tok, lengths)
  let (clipped, total) = nn.clip_grad_norm(g, 1.0)
  let (np, ns) = nn.adamw_step(p, clipped, s, lr = lr)
  return (np, ns, l)
}
# 18 words of lengths 2 .. 7 over tokens 1 .. 11, in batches of 4 (the last one 2).
let seqs = [randint(1, vocab, [2 + i % 6]) for i in range(18)]
let s = nn.adam_init(p)
let lr = nn.lr_schedule("cosine", 0.01, total_steps = 20, warmup_steps = 2)
let losses = []
for epoch in range(4) {
  for (idx,) in data.batches([arange(18)], 4, shuffle = true, seed = epoch) {
    let (tok, lengths) = data.pad_sequence([seqs[i] for i in idx.tolist()])
    mark_dynamic(tok, 0)
    mark_dynamic(tok, 1)
    mark_dynamic(lengths, 0)
    let r = step(p, s, tok, lengths, lr(len(losses)))
    p = r[0]
    s = r[1]
    losses.append(r[2].item())
  }
}
print(len(losses), s["t"].item(), losses[-1] < losses[0])  # expect: 20 20.0 true
print(stats(step)["compiles"], stats(step)["graph_breaks"], stats(step)["reasons"])  # expect: 2 0 ["lr: expected 0.005, got 0.01"]

# A two-layer GCN over graphs of 6 nodes and 5, 7, 9 edges.
@compile
fn gcn_step(p, x, ei, y) {
  let (l, g) = value_and_grad(fn (p) {
    return cross_entropy(nn.gcn_conv_apply(p[1], relu(nn.gcn_conv_apply(p[0], x, ei)), ei), y)
  })(p)
  return (nn.sgd_step(p, g, lr = 0.1), l)
}
let gp = [nn.gcn_conv_init(4, 8), nn.gcn_conv_init(8, 2)]
for e in [5, 7, 9] {
  let ei = randint(0, 6, [2, e])
  mark_dynamic(ei, 1)
  let r = gcn_step(gp, randn([6, 4]), ei, tensor([0, 1, 0, 1, 0, 1]))
  gp = r[0]
}
print(stats(gcn_step)["compiles"], stats(gcn_step)["graph_breaks"])  # expect: 1 0
