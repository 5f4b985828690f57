# An unknown reduction is a ValueError listing the ones there are.
scatter_reduce(zeros([2]), 0, tensor([0]), ones([1]), "max")  # expect error: ValueError: scatter_reduce(): reduce must be "sum", "prod", "mean", "amax" or "amin", not "max"
