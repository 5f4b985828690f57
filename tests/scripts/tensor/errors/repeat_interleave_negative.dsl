# Negative repeats are a ValueError naming the first one, as PyTorch refuses them.
print(repeat_interleave(ones([2, 2]), tensor([1, -1]), dim = 0))  # expect error: ValueError: repeat_interleave: repeats must be non-negative, got -1 at index 1
