# Reductions (every dim argument may be a list) and shape utilities, PyTorch's
# semantics: var/std's correction, norm's p, split/chunk as lists of slices, F.pad's order
# (last dim first; negative amounts crop), flip, roll, repeat, outer.
let x = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(x.mean(dim = [0, 1]).item(), x.sum(dim = [-1, 0]).item())  # expect: 3.5 21.0
print(logsumexp(tensor([[0.0, 0.0], [float("-inf"), float("-inf")]]), 1).tolist())  # expect: [0.6931471824645996, -inf]
print(var(x, 1).tolist(), x.var(correction = 0).item())         # expect: [1.0, 1.0] 2.9166667461395264
print(std(x, [0, 1], keepdim = true).shape, std(tensor([2.0])).tolist())  # expect: shape([1, 1]) nan
print(norm(x).item(), norm(x, 1, 1).tolist(), norm(x, float("inf"), 0).tolist())  # expect: 9.539392471313477 [6.0, 15.0] [4.0, 5.0, 6.0]
print(prod(x, 1).tolist(), x.prod().item(), prod(zeros([2, 0]), 1).tolist())  # expect: [6.0, 120.0] 720.0 [1.0, 1.0]
print(prod(tensor([[2, 3], [4, 5]]), [0, 1]).item())            # expect: 120
let r = arange(5)
print([s.tolist() for s in split(r, 2)])                        # expect: [[0, 1], [2, 3], [4]]
print([s.tolist() for s in r.split([1, 4])])                    # expect: [[0], [1, 2, 3, 4]]
print([s.tolist() for s in chunk(arange(6), 4)])                # expect: [[0, 1], [2, 3], [4, 5]]
print(pad(tensor([[1, 2]]), [1, 0, 0, 1], value = 9).tolist())  # expect: [[9, 1, 2], [9, 9, 9]]
print(pad(r, [-1, -2]).tolist(), flip(x, [0, 1]).tolist())       # expect: [1, 2] [[6.0, 5.0, 4.0], [3.0, 2.0, 1.0]]
print(roll(r, 2).tolist(), roll(x, [1, -1], [0, 1]).tolist())    # expect: [3, 4, 0, 1, 2] [[5.0, 6.0, 4.0], [2.0, 3.0, 1.0]]
print(tensor([1, 2]).repeat([2, 2]).tolist(), outer(tensor([1, 2]), tensor([3, 4, 5])).tolist())  # expect: [[1, 2, 1, 2], [1, 2, 1, 2]] [[3, 4, 5], [6, 8, 10]]
print(grad(fn (v) { return (pad(v, [1, 1]) * arange(4.0)).sum() })(tensor([5.0, 6.0])).tolist())  # expect: [1.0, 2.0]
print(grad(fn (v) { return logsumexp(v, 0) })(tensor([0.0, 0.0])).tolist())  # expect: [0.5, 0.5]
print(split(r, [2, 2]))  # expect error: ValueError: split(): sections sum to 4 but dim 0 has size 5
