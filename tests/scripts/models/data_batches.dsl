# stdlib/data.dsl: mini-batches, the train/validation split, padding and jagged sequences.
import data
let x = arange(10).to(f32) * 10.0
let y = arange(10)
let bs = data.batches([x, y], 4)
print(len(bs), bs[2])  # expect: 3 (tensor([80., 90.]), tensor([8, 9]))
print(len(data.batches((x, y), 4, drop_last = true)))  # expect: 2
# Shuffled: every example once, rows kept together; the same seed gives the same batches.
let sh = data.batches([x, y], 3, shuffle = true, seed = 7)
print([b[0].shape[0] for b in sh])  # expect: [3, 3, 3, 1]
print(sorted(cat([b[1] for b in sh], 0).tolist()) == list(range(10)))  # expect: true
print(all([(b[0] == b[1].to(f32) * 10.0).all().item() for b in sh]))  # expect: true
let again = data.batches([x, y], 3, shuffle = true, seed = 7)
print(all([(sh[i][1] == again[i][1]).all().item() for i in range(4)]))  # expect: true
let (train, val) = data.train_val_split([x, y], 0.3, seed = 1)
print(train[0].shape, val[1].shape, sorted(cat([train[1], val[1]], 0).tolist()) == list(range(10)))  # expect: shape([7]) shape([3]) true
print(data.train_val_split([y], 0.2, shuffle = false)[1])  # expect: (tensor([8, 9]),)

let seqs = [tensor([1, 2, 3]), tensor([4]), tensor([5, 6])]
let (padded, lengths) = data.pad_sequence(seqs, -1)
print(padded)  # expect: tensor([[ 1,  2,  3],
               # expect:         [ 4, -1, -1],
               # expect:         [ 5,  6, -1]])
print(lengths)  # expect: tensor([3, 1, 2])
print(data.pad_sequence([s[:, none].to(f32) for s in seqs], batch_first = false)[0].shape)  # expect: shape([3, 3, 1])
let (values, lens) = data.pack_sequences(seqs)
print(values, lens)  # expect: tensor([1, 2, 3, 4, 5, 6]) tensor([3, 1, 2])
print(data.unpack_sequences(values, lens))  # expect: [tensor([1, 2, 3]), tensor([4]), tensor([5, 6])]
print((data.jagged_to_padded(values, lens, -1) == padded).all().item())  # expect: true
print(data.padded_to_jagged(padded, lengths)[0])  # expect: tensor([1, 2, 3, 4, 5, 6])
# jagged_to_padded is differentiable in the values: each value's gradient is its weight.
let w = arange(9).reshape([3, 3]).to(f32)
print(grad(fn (v) { return (data.jagged_to_padded(v, lens) * w).sum() })(values.to(f32)))  # expect: tensor([0., 1., 2., 3., 6., 7.])

try { data.batches([x, y[:5]], 2) } except ShapeError as e { print(e.message) }  # expect: batches: the tensors must share their first dim, got [[10], [5]]
try { data.batches([x], 0) } except ValueError as e { print(e.message) }  # expect: batches: batch_size must be a positive int, got 0
try { data.pad_sequence([ones([2, 3]), ones([2, 4])]) } except ShapeError as e { print(e.message) }  # expect: pad_sequence: sequences must be [length, ...] with the same trailing dims, got [[2, 3], [2, 4]]
try { data.jagged_to_padded(values, tensor([2, 2])) } except ShapeError as e { print(e.message) }  # expect: jagged_to_padded: lengths sum to 4 but values has 6 rows
try { data.train_val_split([x], 1.5) } except ValueError as e { print(e.message) }  # expect: train_val_split: val_fraction must be in [0, 1], got 1.5
