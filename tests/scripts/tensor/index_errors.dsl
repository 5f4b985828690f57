# Out-of-range indices of the index and scatter ops: an IndexError naming the index, the dim and
# its size, on every device (the sweep runs this on vulkan, where the kernels flag a bad index
# and the error is raised after the run, and on the tpu, where it is raised when the value is
# needed: here by print). index_select and gather take negative indices from the end;
# index_copy, scatter and scatter_reduce do not, as PyTorch. The session goes on after each.
let x = zeros([3, 2])
try { print(index_add(x, 0, tensor([3]), ones([1, 2]))) } except IndexError as e { print(e.message) }  # expect: index_add: index 3 is out of range for dim 0 of size 3
try { print(index_copy(x, 0, tensor([0, 5]), ones([2, 2]))) } except IndexError as e { print(e.message) }  # expect: index_copy: index 5 is out of range for dim 0 of size 3
try { print(index_copy(x, 1, tensor([-1]), ones([3, 1]))) } except IndexError as e { print(e.message) }  # expect: index_copy: index -1 is out of range for dim 1 of size 2
try { print(scatter(x, 1, tensor([[0, 2]]), ones([1, 2]))) } except IndexError as e { print(e.message) }  # expect: scatter: index 2 is out of range for dim 1 of size 2
try { print(scatter(x, 0, tensor([[4]]), 7.0)) } except IndexError as e { print(e.message) }  # expect: scatter: index 4 is out of range for dim 0 of size 3
try { print(scatter_add(x, 0, tensor([[0], [3]]), ones([2, 1]))) } except IndexError as e { print(e.message) }  # expect: scatter_add: index 3 is out of range for dim 0 of size 3
try { print(scatter_reduce(x, 1, tensor([[2]]), ones([1, 1]), "amax")) } except IndexError as e { print(e.message) }  # expect: scatter_reduce: index 2 is out of range for dim 1 of size 2
try { print(scatter_reduce(x, 0, tensor([[-1, 0]]), ones([1, 2]), "mean", include_self = false)) } except IndexError as e { print(e.message) }  # expect: scatter_reduce: index -1 is out of range for dim 0 of size 3
try { print(gather(x, 1, tensor([[0], [2]]))) } except IndexError as e { print(e.message) }  # expect: gather: index 2 is out of range for dim 1 of size 2
try { print(index_select(x, 0, tensor([0, 3]))) } except IndexError as e { print(e.message) }  # expect: index_select: index 3 is out of range for dim 0 of size 3
try { print(index_select(x, 1, tensor([-3]))) } except IndexError as e { print(e.message) }  # expect: index_select: index -3 is out of range for dim 1 of size 2
try { print(gather(x, 0, tensor([[-4, 0]]))) } except IndexError as e { print(e.message) }  # expect: gather: index -4 is out of range for dim 0 of size 3
print(index_add(x, 0, tensor([2, 2]), ones([2, 2])).tolist())  # expect: [[0.0, 0.0], [0.0, 0.0], [2.0, 2.0]]
