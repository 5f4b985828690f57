# Data-parallel training step time (docs/perf.md, "dist"): the MLP training of
# examples/data_parallel.dsl, wider and on a larger global batch, split across the ranks. Each
# step: forward and backward on this rank's shard, dist.all_reduce(mean) of every gradient,
# an Adam step. Rank 0 prints the medians over the timed steps.
#
#   OMP_NUM_THREADS=1 tessel bench/data_parallel_step.dsl
#   OMP_NUM_THREADS=1 mpirun --allow-run-as-root -n 2 -x OMP_NUM_THREADS tessel bench/data_parallel_step.dsl
import nn

let rank = dist.rank()
let world = dist.world_size()
let n = int(env("TESSEL_DP_BATCH", "8192"))
let width = 256
let steps = 20
let warmup = 3

seed(0)
let x = randn([n, 64])
let labels = (x.sum(dim = 1) > 0).to(i32)
let lo = rank * n // world
let hi = (rank + 1) * n // world
let x_shard = x[lo:hi]
let labels_shard = labels[lo:hi]
let params = nn.mlp_init([64, width, width, 2])
let opt = nn.adam_init(params)

fn loss_fn(params, x, labels) {
  return cross_entropy(nn.mlp_apply(params, x), labels)
}
let step = value_and_grad(loss_fn)

let step_ms = []
let reduce_ms = []
for i in range(warmup + steps) {
  dist.barrier()
  let t0 = now_ms()
  let (loss, grads) = step(params, x_shard, labels_shard)
  let t1 = now_ms()
  grads = nn.tree_map(fn (g) { return dist.all_reduce(g, op = "mean") }, grads)
  let t2 = now_ms()
  let (p, o) = nn.adam_step(params, grads, opt, lr = 0.001)
  params = p
  opt = o
  let t3 = now_ms()
  if i >= warmup {
    step_ms.append(t3 - t0)
    reduce_ms.append(t2 - t1)
  }
}
fn median(xs) { return sorted(xs)[len(xs) // 2] }
if rank == 0 {
  print("ranks", world, "global batch", n, "shard", hi - lo, "width", width)
  print("step ms", round(median(step_ms), 2), "all_reduce ms", round(median(reduce_ms), 2))
}
