# bilinear needs a 4-D input (a 3-D one is [N, C, L]: mode "linear").
interpolate(ones([2, 3, 5]), size = 4, mode = "bilinear")  # expect error: ValueError: interpolate(): got 3-D input, but bilinear mode needs 4-D input
