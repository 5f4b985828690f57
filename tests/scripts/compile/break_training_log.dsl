# A compiled training step that logs its loss with .item() (a graph break): the step before the
# log and the update after it are two graphs, compiled once per batch shape, and training is
# identical to eager: same losses printed, same parameters.
import nn

fn loss_fn(params, x, y) { return cross_entropy(nn.mlp_apply(params, x), y) }

let log_c = []
let log_e = []
fn train(params, x, y, log) {
  let (loss, g) = value_and_grad(loss_fn)(params, x, y)
  log.append(round(loss.item(), 5))
  let p = nn.sgd_step(params, g, lr = 0.1)
  return (loss, p)
}
let step = compile(train)

seed(0)
let init = nn.mlp_init([4, 16, 3])
let pc = init
let pe = init
seed(1)
let batches = []
for b in [8, 8, 16, 8, 16, 16] { batches.append((randn([b, 4]), randint(0, 3, [b]))) }
for (x, y) in batches {
  let (lc, nc) = step(pc, x, y, log_c)
  let (le, ne) = train(pe, x, y, log_e)
  pc = nc
  pe = ne
}
print(log_c == log_e, len(log_c))  # expect: true 6
let same = true
for i in range(len(pc)) {
  for (k, v) in pc[i].items() { same = same and (v == pe[i][k]).all().item() }
}
print(same)  # expect: true
let s = stats(step)
# One break site. The graph before it is compiled for batch 8, then once more with the batch
# dynamic; the update after it does not see the batch (params and grads only): one compile.
print(s["compiles"], s["graphs"], s["graph_breaks"], s["recompiles"])  # expect: 3 3 1 1
