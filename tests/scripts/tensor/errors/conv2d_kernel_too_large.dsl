# A kernel larger than the padded input is a ShapeError naming the sizes (torch: "Kernel size
# can't be greater than actual input size").
let x = ones([1, 2, 2, 2])
print(conv2d(x, ones([2, 2, 3, 3])))  # expect error: ShapeError: conv2d: kernel [2, 2, 3, 3] with dilation (1, 1) spans 3 but the padded input [1, 2, 2, 2] is only 2 along dim 2
