# Out channels must be divisible by groups (torch: "out_channels must be divisible by groups").
conv2d(ones([1, 4, 5, 5]), ones([3, 2, 3, 3]), groups = 2)  # expect error: ShapeError: conv2d: out_channels 3 (weight [3, 2, 3, 3]) is not divisible by groups=2
