# Indexing and slicing: ints, negative indices, steps, ..., none, masks, index tensors.
let x = arange(12).reshape([3, 4])
print(x[0].tolist(), x[-1, -1].item())     # expect: [0, 1, 2, 3] 11
print(x[:, 1].tolist(), x[1:, ::2].tolist())  # expect: [1, 5, 9] [[4, 6], [8, 10]]
print(x[..., -1].tolist(), x[none].shape)  # expect: [3, 7, 11] shape([1, 3, 4])
print(x[x > 8].tolist())                   # expect: [9, 10, 11]
print(x[tensor([2, 0])].tolist())          # expect: [[8, 9, 10, 11], [0, 1, 2, 3]]
print(index_select(x, 1, tensor([0, 3])).tolist())  # expect: [[0, 3], [4, 7], [8, 11]]
print(gather(x, 1, tensor([[0], [1], [2]])).tolist())  # expect: [[0], [5], [10]]
print(masked_select(x, x % 5 == 0).tolist())  # expect: [0, 5, 10]
print(nonzero(tensor([0, 3, 0, 4])).tolist())  # expect: [[1], [3]]
print(unique(tensor([3, 1, 3, 2])).tolist())   # expect: [1, 2, 3]
let rows = []
for row in x { rows.append(row.sum().item()) }
print(rows)                                    # expect: [6, 22, 38]
print(x[3])  # expect error: IndexError
