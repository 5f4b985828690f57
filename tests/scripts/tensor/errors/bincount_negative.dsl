# bincount counts non-negative values only.
print(bincount(tensor([3, -2, 1])))  # expect error: ValueError: bincount: x must be non-negative, got -2 at index 1
