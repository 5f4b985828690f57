# Bounded dynamic shapes on the tpu (backends.md, "tpu"; seed 000): a data-dependent op gives
# a dimension bounded by its input, sizes keep their bounds through arithmetic, and the host
# gets real values only when it asks for them.
let x = tensor([[1, 0, 2, 0, 1], [0, 0, 3, 0, 0], [1, 1, 0, 0, 1], [0, 0, 0, 0, 0], [2, 0, 0, 1, 0]]).to("tpu")
let idx = nonzero(x)
print(idx.shape)                 # expect: shape([<=25, 2])
let n = idx.shape[0]
print(n)                         # expect: <=25
print(n + 2, n * 2, n // 2, n % 4, n - 1)  # expect: <=27 <=50 <=12 <=3 <=24
print(int(n), n > 5, n == 9)     # expect: 9 true true
print(idx.device)                # expect: tpu
print(idx[0].tolist())           # expect: [0, 0]
# Shape ops carry bounds.
print(idx.T.shape, unsqueeze(idx, 0).shape)  # expect: shape([2, <=25]) shape([1, <=25, 2])
let vals = masked_select(x, x > 0)
print(vals.shape, vals.sum().item())  # expect: shape([<=25]) 13
print(cat([vals, vals]).shape)   # expect: shape([<=50])
# reshape asserts 6 elements, so the solver bounds the new size by 6, not by 25 - 3.
print(reshape(ones([2, 3]).to("tpu"), [vals.shape[0] - 3]).shape)  # expect: shape([<=6])
# The same computation on the cpu gives the same values.
let xc = x.to("cpu")
print((nonzero(xc) == idx.to("cpu")).all().item())  # expect: true
# A branch on a bounded size runs what is pending and takes the real value.
if n > 3 { print("many") } else { print("few") }  # expect: many
sync()
let s = stats()["tpu"]
print(s["run_allocations"], s["compilations"] > 0, s["executions"] >= s["compilations"])  # expect: 0 true true
