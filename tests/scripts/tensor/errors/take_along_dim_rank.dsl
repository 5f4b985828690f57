# take_along_dim's indices have the rank of the input.
take_along_dim(zeros([3, 4]), tensor([0, 1]), 0)  # expect error: ShapeError: take_along_dim(): input and indices must have the same number of dims, got 2 and 1
