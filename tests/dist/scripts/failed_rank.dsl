# A rank that fails ends the job: the rank waiting for it in a collective raises an error naming
# it, long before the timeout.
# ranks: 2
# fails
# within: 30
# stderr rank 1: failed_rank.dsl:11:31: ShapeError: add: shapes [2] and [3] are not broadcastable
# stderr rank 0: failed_rank.dsl:12:1: DeviceError: dist.barrier: rank 1 failed: 
# stderr rank 0: failed_rank.dsl:11:31: ShapeError: add
config.dist_timeout_s = 120
print("start")                                                   # expect: start
if dist.rank() == 1 { let x = ones([2]) + ones([3]) }
dist.barrier()
print("not reached")
