# A kernel larger than the padded input is an error naming the sizes, at the user's line.
let x = ones([2, 3, 3, 5])
avg_pool2d(x, (4, 2), padding = (0, 1))  # expect error: ShapeError: avg_pool2d: given input size (3x3x5), the calculated output size (3x0x3) is too small: the kernel spans 4 but the padded input height is 3
