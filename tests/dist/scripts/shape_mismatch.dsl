# Shapes that differ across ranks: a ValueError on every rank naming the ranks and the shapes,
# at once (not after the timeout, which is long here).
# ranks: 2 4
# fails
# within: 30
# stderr: shape_mismatch.dsl:10:1: ValueError: dist.all_reduce: the dtypes or shapes differ across ranks: rank
# stderr: rank {last} has f32 [4, 9]
config.dist_timeout_s = 120
let last = dist.rank() == dist.world_size() - 1
dist.all_reduce(ones([4, 8 + (1 if last else 0)]))
print("not reached")
