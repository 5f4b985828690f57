# repeat_interleave, bincount, segment_reduce: PyTorch 1.13's semantics (repeats, lengths and
# values are i32; negative ones are a ValueError; empty segments give `initial`, else 0 for
# sum, 1 for prod, -inf/inf for max/min and NaN for mean, as PyTorch gives).
let x = tensor([[1, 2], [3, 4]])
print(repeat_interleave(x, 2).tolist())                          # expect: [1, 1, 2, 2, 3, 3, 4, 4]
print(x.repeat_interleave(tensor([1, 2]), dim = 0).tolist())     # expect: [[1, 2], [3, 4], [3, 4]]
print(repeat_interleave(x, tensor([2]), dim = -1).tolist())      # expect: [[1, 1, 2, 2], [3, 3, 4, 4]]
print(repeat_interleave(tensor([2, 0, 3])).tolist())             # expect: [0, 0, 2, 2, 2]
print(repeat_interleave(x, tensor([0, 2]), dim = 0, output_size = 2).tolist())  # expect: [[3, 4], [3, 4]]
print(repeat_interleave(tensor([true, false]), tensor([1, 2])).tolist())  # expect: [true, false, false]
print(bincount(tensor([1, 1, 3])).tolist())                      # expect: [0, 2, 0, 1]
print(bincount(tensor([1, 1, 3]), minlength = 6).tolist())       # expect: [0, 2, 0, 1, 0, 0]
print(bincount(tensor([0, 2, 2]), weights = tensor([0.5, 1.5, 1.0])).tolist())  # expect: [0.5, 0.0, 2.5]
print(bincount(zeros([0], dtype = i32)).shape)                   # expect: shape([0])
let d = tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
let L = tensor([2, 0, 3, 1])
print(segment_reduce(d, "sum", lengths = L).tolist())            # expect: [3.0, 0.0, 12.0, 6.0]
print(segment_reduce(d, "mean", lengths = L).tolist())           # expect: [1.5, nan, 4.0, 6.0]
print(segment_reduce(d, "max", lengths = L).tolist())            # expect: [2.0, -inf, 5.0, 6.0]
print(segment_reduce(d, "min", offsets = tensor([0, 2, 2, 5, 6])).tolist())  # expect: [1.0, inf, 3.0, 6.0]
print(segment_reduce(d, "prod", lengths = L).tolist())           # expect: [2.0, 1.0, 60.0, 6.0]
# initial starts every segment (PyTorch): mean is (initial + sum) / length.
print(segment_reduce(d, "mean", lengths = L, initial = 10.0).tolist())  # expect: [6.5, 10.0, 7.333333492279053, 16.0]
print(segment_reduce(d, "max", lengths = L, initial = 5.5).tolist())    # expect: [5.5, 5.5, 5.5, 6.0]
print(segment_reduce(arange(12.0).reshape([2, 6]), "sum", lengths = L, axis = 1).tolist())  # expect: [[1.0, 0.0, 9.0, 5.0], [13.0, 0.0, 27.0, 11.0]]
# Gradients: repeat_interleave's is a segment sum; max shares a segment's gradient among ties.
print(grad(fn (v) { return (repeat_interleave(v, tensor([1, 3]), dim = 0) * arange(8.0).reshape([4, 2])).sum() })(tensor([[1.0, 2.0], [3.0, 4.0]])).tolist())  # expect: [[0.0, 1.0], [12.0, 15.0]]
print(grad(fn (v) { return segment_reduce(v, "max", lengths = tensor([3, 1])).sum() })(tensor([1.0, 2.0, 2.0, 3.0])).tolist())  # expect: [0.0, 0.5, 0.5, 1.0]
print(grad(fn (v) { return segment_reduce(v, "prod", lengths = tensor([3, 2, 1])).sum() })(tensor([1.0, 0.0, 2.0, 0.0, 0.0, 3.0])).tolist())  # expect: [0.0, 2.0, 0.0, 0.0, 0.0, 1.0]
