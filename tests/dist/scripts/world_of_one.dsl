# Alone, tessel is a world of one whose collectives are copies, and dist.info() says why.
# ranks: 1
print(dist.rank(), dist.world_size())                 # expect: 0 1
print(dist.info()[:15])                               # expect: a world of one:
print(dist.all_reduce(tensor([1, 2]), op = "max"))    # expect: tensor([1, 2])
print(dist.all_gather(tensor([3.0])))                 # expect: [tensor([3.])]
