# Compile-time scaling: the compiled Adam step of a pre-norm transformer LM with
# DEPTH blocks (env, default 2), so that bench/compile_scaling/run.sh can set its op count by
# its depth. The second call changes the sequence length, so the step compiles twice: static, then dynamic. Prints
# the compile count and compile_ms per compile; run.sh reads the graph's ops from the trace.
import nn

seed(0)
let depth = int(env("DEPTH", "2"))
let V = 64
let D = 32
let H = 4
let T = 24

fn init() {
  let blocks = [nn.transformer_block_init(D, H, 4 * D) for _ in range(depth)]
  return {"emb": nn.embedding_init(V, D), "blocks": blocks, "norm": nn.layer_norm_init(D),
          "out": nn.linear_init(D, V)}
}
fn loss_fn(p, tokens, targets) {
  let x = nn.embedding_apply(p["emb"], tokens)
  for b in p["blocks"] { x = nn.transformer_block_apply(b, x, H, is_causal = true) }
  let logits = nn.linear_apply(p["out"], nn.layer_norm_apply(p["norm"], x))
  return cross_entropy(logits.reshape([-1, V]), targets.reshape([-1]))
}
let grad_fn = value_and_grad(loss_fn)
fn step(p, opt, tokens, targets) {
  let (loss, grads) = grad_fn(p, tokens, targets)
  let (p2, o2) = nn.adam_step(p, grads, opt, lr = 0.001)
  return (loss, p2, o2)
}
let cstep = compile(step)
let p = init()
let opt = nn.adam_init(p)
let loss = 0.0
for t in [T, T + 5] {
  let tokens = randint(0, V, [8, t])
  let (l, p2, o2) = cstep(p, opt, tokens, (tokens + 1) % V)
  p = p2
  opt = o2
  loss = l.item()
}
let s = stats(cstep)
print("depth", depth, "compiles", s["compiles"], "compile_ms", round(s["compile_ms"] / s["compiles"], 2), "loss", round(loss, 4))
