# index_add, index_copy, scatter, scatter_add, scatter_reduce: PyTorch's semantics (indices
# are i32; negative or too-large ones are an IndexError naming the index, the dim and its size).
let x = zeros([3, 2])
let src = tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
print(index_add(x, 0, tensor([2, 0, 2]), src).tolist())   # expect: [[3.0, 4.0], [0.0, 0.0], [6.0, 8.0]]
print(x.index_add(0, tensor([1]), tensor([[1.0, 1.0]]), alpha = -2.0).tolist())  # expect: [[0.0, 0.0], [-2.0, -2.0], [0.0, 0.0]]
print(index_copy(x, 1, tensor([1]), tensor([[7.0], [8.0], [9.0]])).tolist())  # expect: [[0.0, 7.0], [0.0, 8.0], [0.0, 9.0]]
let idx = tensor([[1, 0], [0, 0]])
print(scatter(zeros([2, 2]), 1, tensor([[1, 0], [0, 1]]), tensor([[1.0, 2.0], [3.0, 4.0]])).tolist())  # expect: [[2.0, 1.0], [3.0, 4.0]]
print(scatter(zeros([2, 3], dtype = i32), 1, tensor([[2], [0]]), 7).tolist())  # expect: [[0, 0, 7], [7, 0, 0]]
print(scatter_add(zeros([2, 2]), 1, idx, tensor([[1.0, 2.0], [3.0, 4.0]])).tolist())  # expect: [[2.0, 1.0], [7.0, 0.0]]
let base = ones([2, 2])
let s = tensor([[2.0, 4.0], [3.0, 5.0]])
print(scatter_reduce(base, 1, idx, s, "sum").tolist())    # expect: [[5.0, 3.0], [9.0, 1.0]]
print(scatter_reduce(base, 1, idx, s, "prod").tolist())   # expect: [[4.0, 2.0], [15.0, 1.0]]
print(scatter_reduce(base, 1, idx, s, "mean").tolist())   # expect: [[2.5, 1.5], [3.0, 1.0]]
print(scatter_reduce(base, 1, idx, s, "mean", include_self = false).tolist())  # expect: [[4.0, 2.0], [4.0, 1.0]]
print(scatter_reduce(base, 1, idx, s, "amax").tolist())   # expect: [[4.0, 2.0], [5.0, 1.0]]
print(scatter_reduce(base, 1, idx, s, "amin", include_self = false).tolist())  # expect: [[4.0, 2.0], [3.0, 1.0]]
# Gradients: index_add's source gets the gradient at its target; amax shares it between ties.
print(grad(fn (v) { return index_add(zeros([3]), 0, tensor([2, 2, 0]), v * v).sum() })(tensor([1.0, 2.0, 3.0])).tolist())  # expect: [2.0, 4.0, 6.0]
print(grad(fn (v) { return scatter_reduce(zeros([1]), 0, tensor([0, 0]), v, "amax", include_self = false).sum() })(tensor([2.0, 2.0])).tolist())  # expect: [0.5, 0.5]
print(index_add(x, 0, tensor([3]), tensor([[1.0, 1.0]])))  # expect error: IndexError: index_add: index 3 is out of range for dim 0 of size 3
