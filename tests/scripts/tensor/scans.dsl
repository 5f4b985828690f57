# cumsum, cumprod and diff (torch.cumsum, torch.cumprod, torch.diff; integer and bool inputs
# give i32, Tessel's int, where PyTorch gives int64).
let x = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(cumsum(x, 1).tolist())                    # expect: [[1.0, 3.0, 6.0], [4.0, 9.0, 15.0]]
print(x.cumsum(dim = 0).tolist())               # expect: [[1.0, 2.0, 3.0], [5.0, 7.0, 9.0]]
print(cumprod(x, -1).tolist())                  # expect: [[1.0, 2.0, 6.0], [4.0, 20.0, 120.0]]
print(x.T.cumsum(1).tolist())                   # expect: [[1.0, 5.0], [2.0, 7.0], [3.0, 9.0]]
let b = cumsum(tensor([true, false, true]), 0)
print(b.tolist(), b.dtype)                      # expect: [1, 1, 2] i32
print(cumprod(tensor([2, -3, 4]), 0).tolist())  # expect: [2, -6, -24]
print(cumsum(zeros([0, 3]), 1).shape, cumsum(tensor(2.5), 0).item())  # expect: shape([0, 3]) 2.5
print(diff(tensor([1, 4, 9, 16])).tolist())     # expect: [3, 5, 7]
print(diff(tensor([1, 4, 9, 16]), n = 2).tolist())  # expect: [2, 2]
print(diff(x, dim = 0).tolist())                # expect: [[3.0, 3.0, 3.0]]
print(diff(tensor([1.0, 2.0]), prepend = tensor([0.0]), append = tensor([5.0])).tolist())  # expect: [1.0, 1.0, 3.0]
print(diff(tensor([true, false, false])).tolist())  # expect: [true, false]
print(diff(tensor([7.0])).shape)                # expect: shape([0])
# Gradients: cumprod through a zero (only the first zero of a row gets a gradient).
print(grad(fn (v) { return cumsum(v, 0).sum() })(ones([3])).tolist())  # expect: [3.0, 2.0, 1.0]
print(grad(fn (v) { return cumprod(v, 0).sum() })(tensor([2.0, 0.0, 3.0])).tolist())  # expect: [1.0, 8.0, 0.0]
print(grad(fn (v) { return diff(v).sum() })(ones([4])).tolist())  # expect: [-1.0, 0.0, 0.0, 1.0]
# Bad input is an error at the user's line (more in errors/scan_*.dsl).
cumsum(x, 2)            # expect error: IndexError: cumsum: dimension 2 is out of range for a tensor of rank 2
