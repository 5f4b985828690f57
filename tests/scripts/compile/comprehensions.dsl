# Comprehensions under @compile: traced like the loops they stand for, one graph per length
# of the list (its length is a Python-level value, as in PyTorch).
@compile
fn scaled(x, n) { return [x * i for i in range(3)] }
let out = scaled(ones([2]), 3)
print(out[2])                               # expect: tensor([2., 2.])
@compile
fn total(xs) { return sum([x.sum() for x in xs if x.shape[0] > 1]) }
print(total([ones([2]), ones([1]), ones([3])]))   # expect: tensor(5.)
print(stats(total)["compiles"])             # expect: 1
