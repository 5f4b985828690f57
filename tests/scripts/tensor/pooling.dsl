# Pooling and resizing with PyTorch's names, argument order and values (torch.nn.functional):
# max_pool2d, avg_pool2d, adaptive_avg_pool2d, interpolate on [N, C, H, W] and [C, H, W].
let x = arange(16).reshape([1, 1, 4, 4]) * 1.0
print(max_pool2d(x, 2).tolist())  # expect: [[[[5.0, 7.0], [13.0, 15.0]]]]
print(max_pool2d(x, 3, stride = 1, padding = 1).shape, max_pool2d(x[0], 2).shape)  # expect: shape([1, 1, 4, 4]) shape([1, 2, 2])
print(max_pool2d(x, (2, 1), dilation = (1, 3)).shape)  # expect: shape([1, 1, 2, 4])
print(avg_pool2d(x, 2).tolist())  # expect: [[[[2.5, 4.5], [10.5, 12.5]]]]
print(avg_pool2d(x, 3, 2, 1, count_include_pad = false).tolist())  # expect: [[[[2.5, 4.0], [8.5, 10.0]]]]
print(avg_pool2d(x, 2, divisor_override = 1).tolist())  # expect: [[[[10.0, 18.0], [42.0, 50.0]]]]
print(adaptive_avg_pool2d(x, (1, 2)).tolist(), adaptive_avg_pool2d(x, (none, 1)).shape)  # expect: [[[[6.5, 8.5]]]] shape([1, 1, 4, 1])
print(adaptive_avg_pool2d(x, 3).tolist())  # expect: [[[[2.5, 3.5, 4.5], [6.5, 7.5, 8.5], [10.5, 11.5, 12.5]]]]
let s = x[:, :, :2, :2]
print(interpolate(s, scale_factor = 2.0).tolist())  # expect: [[[[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0], [4.0, 4.0, 5.0, 5.0], [4.0, 4.0, 5.0, 5.0]]]]
print(interpolate(s, size = (3, 3), mode = "bilinear", align_corners = true).tolist())  # expect: [[[[0.0, 0.5, 1.0], [2.0, 2.5, 3.0], [4.0, 4.5, 5.0]]]]
print(interpolate(x[0], size = 6, mode = "linear").shape)  # expect: shape([1, 4, 6])

# Gradients: max_pool2d routes each grad to its window's maximum; the others spread it.
print(grad(fn (x) { return max_pool2d(x, 3, stride = 1, padding = 1).sum() })(x)[0, 0].tolist())  # expect: [[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 1.0, 2.0], [0.0, 1.0, 1.0, 2.0], [0.0, 2.0, 2.0, 4.0]]
print(grad(fn (s) { return interpolate(s, size = (3, 3), mode = "bilinear", align_corners = true).sum() })(s).tolist())  # expect: [[[[2.25, 2.25], [2.25, 2.25]]]]
print(grad(fn (x) { return adaptive_avg_pool2d(x, 2).sum() })(x).sum().item())  # expect: 4.0

# Errors name the sizes, at the user's line.
max_pool2d(x, 5)  # expect error: ShapeError: max_pool2d: given input size (1x4x4), the calculated output size (1x0x0) is too small: the kernel spans 5 but the padded input height is 4
