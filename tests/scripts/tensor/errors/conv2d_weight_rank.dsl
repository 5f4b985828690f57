# conv2d's weight is [out_channels, in_channels / groups, kH, kW].
let w = ones([2, 3, 3])
conv2d(ones([1, 3, 5, 5]), w)  # expect error: ShapeError: conv2d(): expected a 4-D weight [out_channels, in_channels / groups, kH, kW], got [2, 3, 3]
