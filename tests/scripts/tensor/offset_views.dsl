# Ops read and write through views that do not start at the beginning of their storage: a
# slice a[1:], a row select, split/chunk pieces and prod's result (a view into cumprod). Every
# value is PyTorch 1.13's on the same inputs. Kernels that copied raw bytes once stepped the
# view's offset in bytes instead of elements and read storage before the view.
let a = tensor([1.0, 2.0, 3.0, 4.0])
let b = a[1:]
print(index_select(b, 0, tensor([0, 1])).tolist())                  # expect: [2.0, 3.0]
print(b[tensor([2])].tolist(), b[tensor([true, false, true])].tolist())  # expect: [4.0] [2.0, 4.0]
print(embedding(tensor([0]), a.reshape([2, 2])[1:]).tolist())       # expect: [[3.0, 4.0]]
print(scatter_add(b, 0, tensor([0]), tensor([10.0])).tolist())      # expect: [12.0, 3.0, 4.0]
print(index_add(b, 0, tensor([0]), tensor([10.0])).tolist())        # expect: [12.0, 3.0, 4.0]
print(scatter(b, 0, tensor([2]), tensor([10.0])).tolist())          # expect: [2.0, 3.0, 10.0]
print(index_copy(b, 0, tensor([1]), tensor([10.0])).tolist())       # expect: [2.0, 10.0, 4.0]
print(scatter_reduce(b, 0, tensor([0, 0]), tensor([5.0, 1.0]), "amax").tolist())  # expect: [5.0, 3.0, 4.0]
let p = prod(tensor([0.5, 0.5, 0.5, 0.5]), dim = -1)
print(p.item(), roll(p, 1).item(), flip(p.unsqueeze(0), [0]).tolist())  # expect: 0.0625 0.0625 [0.0625]
print(flip(tensor([1.0, 2.0, 3.0])[1:], [0]).tolist(), roll(b, 1).tolist())  # expect: [3.0, 2.0] [4.0, 2.0, 3.0]
# Integer tensors, rows of a matrix, and a row select followed by a tensor index.
let m = arange(12).reshape([3, 4])
print(m[1:][tensor([1, 0])].tolist())                               # expect: [[8, 9, 10, 11], [4, 5, 6, 7]]
print(arange(6).reshape([2, 3])[1, tensor([0, 2])].tolist())        # expect: [3, 5]
print(index_select(m[2], 0, tensor([3, 0])).tolist())               # expect: [11, 8]
let (c0, c1) = chunk(arange(6), 2)
print(c1[tensor([2, 0])].tolist(), split(arange(5), 2)[1][tensor([1])].tolist())  # expect: [5, 3] [3]
print(index_select(tensor([true, false, true, true])[2:], 0, tensor([1, 0])).tolist())  # expect: [true, true]
# Compiled code runs the same kernels.
let cf = compile(fn(t) { return index_select(t[1:], 0, tensor([0, 1])) })
print(cf(a).tolist())                                               # expect: [2.0, 3.0]
