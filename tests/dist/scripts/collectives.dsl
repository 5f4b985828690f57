# Every collective from a script, alone and on 2 and 4 ranks; values computed per rank.
# ranks: 1 2 4
let r = dist.rank()
let n = dist.world_size()
print(r, n)                                                    # expect: {rank} {world}
print(dist.all_reduce(tensor([1.0, 2.0]) * (r + 1)).tolist() == [n * (n + 1) / 2, n * (n + 1)])  # expect: true
print(dist.all_reduce(tensor([r, -r]), op = "max").tolist())   # expect: [{last}, 0]
print(dist.all_reduce(tensor([r == 0, false]), op = "max"))    # expect: tensor([ true, false])
print(dist.broadcast(tensor([r * 10]), src = n - 1).item() == 10 * (n - 1))  # expect: true
# Uneven all_gather: rank k holds k + 1 ones.
let parts = dist.all_gather(ones([r + 1, 2]))
print(len(parts), parts[n - 1].shape)                          # expect: {world} shape([{world}, 2])
dist.barrier()
print("done")                                                  # expect: done
