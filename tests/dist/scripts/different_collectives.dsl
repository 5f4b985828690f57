# Ranks in different collectives at the same point: a ValueError on every rank.
# ranks: 2
# fails
# within: 30
# stderr: ValueError: dist.
# stderr: the ranks are in different collectives: rank 0 is in dist.barrier, rank 1 is in dist.all_gather
config.dist_timeout_s = 120
if dist.rank() == 0 { dist.barrier() } else { dist.all_gather(ones([2])) }
print("not reached")
