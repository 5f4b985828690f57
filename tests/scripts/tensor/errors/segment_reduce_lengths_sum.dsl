# lengths must cover the data along the axis exactly.
print(segment_reduce(ones([6, 2]), "mean", lengths = tensor([2, 3])))  # expect error: ShapeError: segment_reduce: lengths sum to 5 but data has 6 rows along axis 0
