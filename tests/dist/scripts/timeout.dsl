# A rank that waits in a collective no other rank calls gives up after config.dist_timeout_s,
# naming the ranks that did not come, instead of hanging.
# ranks: 2
# fails
# within: 30
# stderr rank 1: timeout.dsl:8:23: DeviceError: dist.barrier: timed out after 2 s (config.dist_timeout_s) waiting for rank 0 of 2
config.dist_timeout_s = 2
if dist.rank() == 1 { dist.barrier() }
print("done")                                                    # expect rank 0: done
