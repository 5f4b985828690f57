# A dim outside the tensor's rank is an IndexError naming the op.
sort(zeros([2, 3]), dim = 2)  # expect error: IndexError: sort: dimension 2 is out of range for a tensor of rank 2 (expected [-2, 1])
