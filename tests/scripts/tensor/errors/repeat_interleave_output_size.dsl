# An output_size that is not sum(repeats) is a ValueError (PyTorch: "allocated size does not match").
print(repeat_interleave(ones([2]), tensor([1, 2]), output_size = 5))  # expect error: ValueError: repeat_interleave: output_size 5 does not match sum(repeats) = 3
