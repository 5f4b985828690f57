# padding = "same" needs stride 1, as in PyTorch.
conv2d(ones([1, 3, 5, 5]), ones([2, 3, 3, 3]), stride = 2, padding = "same")  # expect error: ValueError: conv2d(): padding='same' is not supported for strided convolutions
