# lengths must be 1-D.
segment_reduce(ones([4]), "sum", lengths = tensor([[2, 2]]))  # expect error: ShapeError: segment_reduce: lengths must be 1-D, got shape [1, 2]
