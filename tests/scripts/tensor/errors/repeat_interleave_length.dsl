# repeats must have x's size along dim (or one element).
repeat_interleave(ones([2, 2]), tensor([1, 2, 3]), dim = 0)  # expect error: ShapeError: repeat_interleave: repeats [3] must have the size of x [2, 2] along dim 0
