# A negative length is a ValueError.
print(segment_reduce(ones([6]), "sum", lengths = tensor([7, -1])))  # expect error: ValueError: segment_reduce: lengths must be non-negative, got -1 at index 1
