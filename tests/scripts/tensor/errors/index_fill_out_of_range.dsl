# index_fill's indices must lie in the dim (negative ones count from the end).
index_fill(zeros([3, 4]), 1, tensor([1, -5]), 1.0)  # expect error: IndexError: index_fill(): index out of range for dim 1 of size 4
