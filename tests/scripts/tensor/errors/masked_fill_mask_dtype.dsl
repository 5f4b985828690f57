# masked_fill wants a bool mask (as torch).
print(masked_fill(zeros([2]), tensor([1, 0]), 1.0))  # expect error: TypeError: masked_fill(): mask must be a bool tensor, got i32
