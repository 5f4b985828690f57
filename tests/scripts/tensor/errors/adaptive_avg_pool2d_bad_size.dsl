# output_size is an int or a pair.
adaptive_avg_pool2d(ones([1, 2, 4, 4]), (1, 2, 3))  # expect error: ValueError: adaptive_avg_pool2d(): output_size must be an int or a pair, got 3 values
