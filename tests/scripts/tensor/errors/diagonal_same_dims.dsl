# diagonal needs two different dims.
diagonal(zeros([2, 3, 4]), 0, 1, -2)  # expect error: ValueError: diagonal(): dim1 and dim2 cannot be the same (1)
