# The MLP of examples/mlp.dsl trained data-parallel (docs/distributed.md): every rank holds a
# replica of the model and trains on its own shard of the data; the gradients are averaged
# across ranks with dist.all_reduce, so every replica takes the same step and they stay equal.
#
#   tessel examples/data_parallel.dsl              a world of one: mlp.dsl's training
#   mpirun -n 2 tessel examples/data_parallel.dsl  two ranks, a shard of 256 rows each
import nn

let rank = dist.rank()
let world = dist.world_size()

# Every rank makes the same data (the same seed); each trains on its shard of the rows.
seed(42)
let n = 512
let x = randn([n, 2])
# Class 1 where the two coordinates have the same sign.
let labels = ((x[:, 0] * x[:, 1]) > 0).to(i32)
let lo = rank * n // world
let hi = (rank + 1) * n // world
let x_shard = x[lo:hi]
let labels_shard = labels[lo:hi]

# The replicas start from rank 0's weights (here they agree already, from the seed; a model
# initialized differently on each rank would need this).
let params = nn.tree_map(fn (p) { return dist.broadcast(p, src = 0) }, nn.mlp_init([2, 32, 32, 2]))
let opt = nn.adam_init(params)

fn loss_fn(params, x, labels) {
  return cross_entropy(nn.mlp_apply(params, x), labels)
}
let step = value_and_grad(loss_fn)

let first = none
let last = none
for epoch in range(301) {
  let (loss, grads) = step(params, x_shard, labels_shard)
  # The mean over ranks of the shards' mean gradients: the full batch's gradient, as the
  # shards are equal in size.
  grads = nn.tree_map(fn (g) { return dist.all_reduce(g, op = "mean") }, grads)
  let (p, o) = nn.adam_step(params, grads, opt, lr = 0.01)
  params = p
  opt = o
  last = dist.all_reduce(loss, op = "mean").item()
  if first == none { first = last }
  if epoch % 100 == 0 and rank == 0 { print("epoch", epoch, "loss", round(last, 4)) }
}

# Every replica holds the same weights at the end: each compares its own with every rank's.
let same = true
nn.tree_map(fn (p) {
  for q in dist.all_gather(p) { same = same and (q == p).all().item() }
  return p
}, params)
assert same, "rank " + str(rank) + ": the replicas differ"
let accuracy = (nn.mlp_apply(params, x).argmax(dim = 1) == labels).to(f32).mean().item()
if rank == 0 {
  print("ranks", world, "replicas identical", same)
  print("accuracy", round(accuracy, 3))
}
assert last < first / 4, "the loss should fall"
