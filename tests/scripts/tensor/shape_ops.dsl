# Shape ops: reshape (-1), transpose, permute, unsqueeze, squeeze, flatten, expand, cat, stack.
let x = arange(6)
print(x.reshape([2, 3]).shape, x.reshape(3, -1).shape, reshape(x, [-1]).shape)  # expect: shape([2, 3]) shape([3, 2]) shape([6])
let m = x.reshape([2, 3])
print(m.T.tolist(), transpose(m, 0, 1).shape, permute(m, [1, 0]).shape)  # expect: [[0, 3], [1, 4], [2, 5]] shape([3, 2]) shape([3, 2])
print(unsqueeze(m, 0).shape, m.unsqueeze(-1).shape)  # expect: shape([1, 2, 3]) shape([2, 3, 1])
print(squeeze(zeros([1, 2, 1])).shape, flatten(zeros([2, 3, 4]), 1).shape)  # expect: shape([2]) shape([2, 12])
print(expand(tensor([[1], [2]]), [2, 3]).tolist())  # expect: [[1, 1, 1], [2, 2, 2]]
print(cat([m, m], 0).shape, cat([m, m], dim = 1).shape, stack([m, m]).shape)  # expect: shape([4, 3]) shape([2, 6]) shape([2, 2, 3])
print(m.shape[0], len(m.shape), m.shape == m.T.T.shape)  # expect: 2 2 true
print(x.reshape([4, 2]))  # expect error: ShapeError
