# Input channels must be weight.shape[1] * groups (torch: "expected input ... to have 3
# channels, but got 4 channels instead").
conv2d(ones([1, 4, 5, 5]), ones([2, 3, 3, 3]))  # expect error: ShapeError: conv2d: weight [2, 3, 3, 3] with groups=1 expects input [1, 4, 5, 5] to have 3 channels, got 4
