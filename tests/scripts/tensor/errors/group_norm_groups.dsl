# group_norm needs the channels (dim 1) divisible by the groups (PyTorch raises too).
print(group_norm(ones([2, 6, 3]), 4))  # expect error: ShapeError: group_norm(): the 6 channels of x [2, 6, 3] are not divisible by groups = 4
