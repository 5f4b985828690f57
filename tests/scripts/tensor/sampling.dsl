# randperm, multinomial, bernoulli: PyTorch's names and semantics, drawing from seed()'s
# generator (the same numbers on every device, eagerly and compiled).
# Shuffling a dataset: a permutation of the rows, the same one again under the same seed.
seed(1)
let data = arange(10.0).reshape([5, 2])
let perm = randperm(data.shape[0])
print(perm.dtype)                                         # expect: i32
print(sorted(perm.tolist()) == list(range(5)))            # expect: true
let shuffled = data.index_select(0, perm)
print(shuffled.sum().item() == data.sum().item())         # expect: true
print((shuffled[:, 1] - shuffled[:, 0]).tolist())         # expect: [1.0, 1.0, 1.0, 1.0, 1.0]
seed(1)
print(randperm(5).tolist() == perm.tolist())              # expect: true
print(randperm(0).shape)                                  # expect: shape([0])
# Different seeds give different orders (of 1000 elements).
seed(2)
let p2 = randperm(1000).tolist()
seed(3)
print(p2 == randperm(1000).tolist())                      # expect: false
# Sampling from a model: category 1 holds most of the mass, category 2 none.
seed(4)
let probs = tensor([0.1, 0.7, 0.0, 0.2])
let draws = multinomial(probs, 10000, replacement = true)
let counts = bincount(draws, minlength = 4)
print(counts[2].item())                                   # expect: 0
print(((counts.to(f32) / 10000.0 - probs).abs().max() < 0.02).item())  # expect: true
# Without replacement: distinct categories, zeros never drawn; one row per distribution.
let top = multinomial(tensor([[0.0, 1.0, 1.0, 5.0], [2.0, 0.0, 0.0, 1.0]]), 2)
print(top.shape)                                          # expect: shape([2, 2])
print(top[0, 0].item() != top[0, 1].item(), top[0].min().item() > 0)  # expect: true true
print(sorted(top[1].tolist()))                            # expect: [0, 3]
# bernoulli: 0/1 in p's shape, mean close to p.
let b = bernoulli(full([20000], 0.3))
print(b.dtype, b.shape)                                   # expect: f32 shape([20000])
print(((b.mean() - 0.3).abs() < 0.01).item())             # expect: true
print(bernoulli(tensor([[0.0, 1.0], [1.0, 0.0]])).tolist())  # expect: [[0.0, 1.0], [1.0, 0.0]]
# Compiled with a symbolic size: the same numbers as eager code under the same seed (one graph
# for every size on cpu and vulkan: compile_parity_test checks the compile count).
fn shuffle(x) { return x.index_select(0, randperm(x.shape[0])) }
let cshuffle = compile(shuffle)
let same = []
for n in [4, 7, 9] {
  let x = arange(n * 1.0)
  seed(n)
  let e = shuffle(x).tolist()
  seed(n)
  same.append(cshuffle(x).tolist() == e)
}
print(same)                                               # expect: [true, true, true]
# The numbers themselves (docs/tensors.md, "Random numbers", says how each is drawn): the
# same on every device the script sweep runs on.
seed(0)
print(randperm(8).tolist())                               # expect: [7, 5, 0, 3, 6, 2, 1, 4]
print(multinomial(tensor([1.0, 2.0, 3.0, 4.0]), 6, replacement = true).tolist())  # expect: [0, 2, 1, 1, 3, 2]
print(multinomial(tensor([1.0, 2.0, 3.0, 4.0]), 4).tolist())  # expect: [2, 3, 0, 1]
print(bernoulli(full([8], 0.5)).tolist())                 # expect: [1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
# No gradient flows through a draw (as in PyTorch): d/dp of sum(bernoulli(p) * p) is the draw.
seed(5)
let pp = tensor([0.2, 0.9, 0.5])
let drawn = bernoulli(pp)
seed(5)
print(grad(fn (q) { return (bernoulli(q) * q).sum() })(pp).tolist() == drawn.tolist())  # expect: true
