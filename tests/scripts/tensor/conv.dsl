# conv2d and conv1d with PyTorch's semantics; expected values from PyTorch 1.13.
let x = arange(16).reshape([1, 1, 4, 4]).to(f32)
print(conv2d(x, ones([1, 1, 2, 2])).tolist())
# expect: [[[[10.0, 14.0, 18.0], [26.0, 30.0, 34.0], [42.0, 46.0, 50.0]]]]
print(conv2d(x, ones([1, 1, 2, 2]), tensor([1.0]), stride = 2).tolist())
# expect: [[[[11.0, 19.0], [43.0, 51.0]]]]
print(conv2d(x, ones([1, 1, 3, 3]), padding = 1).tolist()[0][0][0])  # expect: [10.0, 18.0, 24.0, 18.0]
print(conv2d(x, ones([1, 1, 2, 2]), dilation = 2).tolist())        # expect: [[[[20.0, 24.0], [36.0, 40.0]]]]
# padding = "same" with an even kernel pads one more after (as PyTorch).
print(conv2d(x, ones([1, 1, 2, 2]), padding = "same").tolist()[0][0][3])  # expect: [25.0, 27.0, 29.0, 15.0]
print(conv2d(x, ones([1, 1, 2, 2]), padding = "valid").shape)     # expect: shape([1, 1, 3, 3])
# groups: each output channel sees its group's input channels.
let x2 = cat([x, x * 2.0], 1)
print(conv2d(x2, ones([2, 1, 1, 1]), groups = 2)[0, :, 0, 1].tolist())  # expect: [1.0, 2.0]
# An unbatched input, an empty batch.
print(conv2d(x[0], ones([3, 1, 2, 2])).shape)                     # expect: shape([3, 3, 3])
print(conv2d(zeros([0, 1, 4, 4]), ones([3, 1, 2, 2])).shape)      # expect: shape([0, 3, 3, 3])
# conv1d is conv2d over one spatial dim.
let s = arange(6).reshape([1, 1, 6]).to(f32)
print(conv1d(s, ones([1, 1, 3]), stride = 2, padding = 1).tolist())  # expect: [[[1.0, 6.0, 12.0]]]
print(conv1d(s[0], ones([2, 1, 2]), dilation = 3).tolist())           # expect: [[3.0, 5.0, 7.0], [3.0, 5.0, 7.0]]
# Gradients: d/dx of sum(conv2d(x, w)) counts how many windows see each pixel.
let gx = grad(fn (x) { return conv2d(x, ones([1, 1, 2, 2])).sum() })(x)
print(gx[0, 0].tolist())  # expect: [[1.0, 2.0, 2.0, 1.0], [2.0, 4.0, 4.0, 2.0], [2.0, 4.0, 4.0, 2.0], [1.0, 2.0, 2.0, 1.0]]
let gw = grad(fn (w) { return conv2d(x, w).sum() })(ones([1, 1, 2, 2]))
print(gw.tolist())  # expect: [[[[45.0, 54.0], [81.0, 90.0]]]]
