# PyTorch: "only one of size or scale_factor should be defined".
interpolate(ones([1, 1, 3, 3]), size = 4, scale_factor = 2.0)  # expect error: ValueError: interpolate(): only one of size or scale_factor should be defined
