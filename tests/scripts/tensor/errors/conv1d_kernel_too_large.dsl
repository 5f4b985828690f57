# conv1d is conv2d over an unsqueezed height: its kernel check names the 4-D sizes.
conv1d(ones([2, 3, 4]), ones([5, 3, 3]), dilation = 2)  # expect error: ShapeError: conv2d: kernel [5, 3, 1, 3] with dilation (1, 2) spans 5 but the padded input [2, 3, 1, 4] is only 4 along dim 3
