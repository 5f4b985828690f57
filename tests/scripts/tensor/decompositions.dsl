# PyTorch functions composed of existing ops (tensor_decompositions_*.cpp): unbind, narrow,
# broadcast_to, movedim, swapaxes, unflatten, tile, diag, diagonal, meshgrid, take_along_dim,
# index_fill, glu, normalize, cosine_similarity, isclose, allclose. Values as PyTorch 1.13's.
let x = arange(6.0).reshape([2, 3])
print([t.tolist() for t in unbind(x, 1)], len(x.unbind()))  # expect: [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]] 2
print(x.narrow(1, -2, 2).tolist(), narrow(arange(5), 0, 1, 3).tolist())  # expect: [[1.0, 2.0], [4.0, 5.0]] [1, 2, 3]
print(broadcast_to(tensor([1, 2, 3]), [2, 3]).tolist())  # expect: [[1, 2, 3], [1, 2, 3]]
let a = zeros([2, 3, 4])
print(movedim(a, 0, -1).shape, a.movedim([0, 1], [2, 0]).shape, a.swapaxes(0, 2).shape)  # expect: shape([3, 4, 2]) shape([3, 4, 2]) shape([4, 3, 2])
print(arange(12).unflatten(0, [3, -1]).shape, a.unflatten(-1, [2, 2]).shape)  # expect: shape([3, 4]) shape([2, 3, 2, 2])
print(tile(tensor([1, 2]), [2]).tolist(), tensor([[1, 2]]).tile([2, 1, 2]).tolist())  # expect: [1, 2, 1, 2] [[[1, 2, 1, 2]], [[1, 2, 1, 2]]]
print(diag(tensor([1, 2]), 1).tolist(), diag(arange(9).reshape([3, 3]), -1).tolist())  # expect: [[0, 1, 0], [0, 0, 2], [0, 0, 0]] [3, 7]
print(arange(24).reshape([2, 3, 4]).diagonal(1, 1, 2).tolist())  # expect: [[1, 6, 11], [13, 18, 23]]
print([t.tolist() for t in meshgrid(tensor([1, 2]), tensor([3, 4, 5]), indexing = "xy")])  # expect: [[[1, 2], [1, 2], [1, 2]], [[3, 3], [4, 4], [5, 5]]]
print([t.shape for t in meshgrid([arange(2), arange(3)])])  # expect: [shape([2, 3]), shape([2, 3])]
let t = tensor([[10.0, 30.0, 20.0], [60.0, 40.0, 50.0]])
print(take_along_dim(t, argmax(t, 1, keepdim = true), 1).tolist(), t.take_along_dim(tensor([5, 0])).tolist())  # expect: [[30.0], [60.0]] [50.0, 10.0]
print(index_fill(zeros([2, 3]), 1, tensor([0, -1]), 7.0).tolist())  # expect: [[7.0, 0.0, 7.0], [7.0, 0.0, 7.0]]
print(glu(tensor([[1.0, 2.0, 0.0, 0.0]])).tolist())  # expect: [[0.5, 1.0]]
print(normalize(tensor([[3.0, 4.0], [0.0, 0.0]])).tolist(), normalize(tensor([3.0, 4.0]), p = 1, dim = 0).tolist())  # expect: [[0.6000000238418579, 0.800000011920929], [0.0, 0.0]] [0.4285714328289032, 0.5714285969734192]
print(cosine_similarity(tensor([[1.0, 0.0], [1.0, 1.0]]), tensor([[1.0, 1.0]])).tolist())  # expect: [0.7071067690849304, 0.9999999403953552]
let q = float("nan")
print(isclose(tensor([1.0, q, 1e10]), tensor([1.000001, q, 1.0001e10])).tolist(), isclose(tensor([q]), tensor([q]), equal_nan = true).tolist())  # expect: [true, false, false] [true]
print(allclose(tensor([1.0, 2.0]), tensor([1.0, 2.000001])), tensor([1, 2]).allclose(tensor([1, 3])))  # expect: true false

# Gradients come from the ops the functions are made of.
print(grad(fn (w) { return (diagonal(w, 1) * tensor([1.0, 2.0])).sum() })(arange(9.0).reshape([3, 3])).tolist())  # expect: [[0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]]
print(grad(fn (v) { return glu(v, 0).sum() })(tensor([1.0, -2.0, 3.0, 0.5])).tolist())  # expect: [0.9525741338729858, 0.622459352016449, 0.04517665505409241, -0.47000741958618164]

# Compiled: sizes stay symbolic, one graph for both lengths.
@compile
fn shapes_of(v) {
  let n = v.shape[0]
  let m = diag(v)
  return diagonal(m).sum() + narrow(v, 0, 1, n - 1).sum() + tile(v, [2]).sum() + glu(cat([v, v]), 0).sum()
}
for n in [3, 5] {
  let v = arange(n) * 1.0
  let want = v.sum() + v[1:].sum() + 2 * v.sum() + (v * sigmoid(v)).sum()
  assert (shapes_of(v) - want).abs().item() < 1e-4
}
print(stats(shapes_of)["compiles"] <= 2)  # expect: true
print(narrow(x, 1, 2, 2))  # expect error: ValueError: narrow(): start (2) + length (2) exceeds dim 1 of size 3
