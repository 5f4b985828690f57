# Reductions with dim and keepdim; max/min with a dim return (values, indices), argmax/argmin indices.
let x = tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
print(x.sum().item(), x.mean().item())          # expect: 21.0 3.5
print(x.sum(dim = 0).tolist(), sum(x, dim = 1).tolist())  # expect: [5.0, 7.0, 9.0] [9.0, 12.0]
print(x.sum(dim = 1, keepdim = true).shape)     # expect: shape([2, 1])
print(x.max().item(), x.max(dim = 1)[0].tolist(), min(x, dim = 0)[0].tolist())  # expect: 6.0 [5.0, 6.0] [1.0, 2.0, 3.0]
# With a dim, max and min give (values, indices), as torch.max; amax/amin give the values alone.
let (values, indices) = x.max(dim = 1, keepdim = true)
print(values.tolist(), indices.tolist(), indices.dtype, x.amax(dim = 1).tolist())  # expect: [[5.0], [6.0]] [[1], [2]] i32 [5.0, 6.0]
print(max(x, tensor(4.0)).tolist(), min(tensor(4.0), x).tolist())  # expect: [[4.0, 5.0, 4.0], [4.0, 4.0, 6.0]] [[1.0, 4.0, 3.0], [4.0, 2.0, 4.0]]
print(x.argmax(dim = 1).tolist(), x.argmin(dim = 0).tolist())  # expect: [1, 2] [0, 1, 0]
print((x > 0).all().item(), (x > 5).any().item(), (x > 5).all().item())  # expect: true true false
print(x.sum(dim = [0, 1]).item())               # expect: 21.0
print(x.sum(dim = 2))  # expect error: IndexError
