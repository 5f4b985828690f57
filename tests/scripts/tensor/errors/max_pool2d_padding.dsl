# PyTorch: "pad should be at most half of kernel size".
max_pool2d(ones([1, 1, 6, 6]), 2, padding = 2)  # expect error: ValueError: max_pool2d: pad should be at most half of kernel size, but got padding=2 and kernel_size=2
