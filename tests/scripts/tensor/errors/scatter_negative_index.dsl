# PyTorch does not wrap negative indices in scatter: an IndexError naming the index (on the
# tpu when the value is needed, here by print).
print(scatter_add(zeros([2, 2]), 1, tensor([[0, -1]]), ones([1, 2])))  # expect error: IndexError: scatter_add: index -1 is out of range for dim 1 of size 2
