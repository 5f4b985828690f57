# Bounded sizes as values, after pytorch/xla test/ds/test_dynamic_shapes.py (t.size() unpacks
# into SymInts that print '<=N'; size arithmetic, numel, and conversions give real values). A
# size never shows a solver symbol (compiler.md: "Symbolic values never reach user-visible
# state"), and a derived size prints the tight maximum of its expression (backends.md, "tpu").
# a = nonzero of 6 values with 4 nonzeros: [<=6, 1], real [4, 1]; b: [<=4, 2], real [2, 2].
let a = nonzero(tensor([1, 0, 3, 5, 0, 6]).to("tpu"))
let b = nonzero(tensor([[1, 0], [0, 1]]).to("tpu"))
let n = a.shape[0]
let m = b.shape[0]

# The shape as a list, a tuple, unpacked, iterated and sliced: each dim is a size value.
print(list(a.shape), tuple(a.shape))             # expect: [<=6, 1] (<=6, 1)
let (rows, cols) = a.shape
print(rows, cols, int(rows))                     # expect: <=6 1 4
for d in b.shape { print(d) }
# expect: <=4
# expect: 2
print(a.shape[0:1], a.shape[-2])                 # expect: shape([<=6]) <=6

# test_nonzero_shape: the size of a nonzero whose tensor is not kept still has its real value.
let only_size = nonzero(tensor([0, 1, 2, 0, 3, 4]).to("tpu")).shape[0]
print(only_size, int(only_size))                 # expect: <=6 4

# Size arithmetic between two bounded sizes: n % m < m <= 4, so its maximum is 3; likewise
# (<=10) % (<=10) is at most 9 (test_sizeMod's second part).
# (Dividing by m records the fact m >= 1, so n - m, printed after, is at most 6 - 1.)
print(n + m, n * m, n - m, n // m, n % m)        # expect: <=10 <=24 <=5 <=6 <=3
print(int(n % m), int(n // m))                   # expect: 0 2
let s1 = nonzero(tensor([[0, 0], [0, 0], [0, 0], [1, 0], [0, 0]]).to("tpu"))
let s2 = nonzero(tensor([[0, 0], [0, 0], [0, 0], [1, 0], [0, 0]]).to("tpu"))
print(s1.shape[0] % s2.shape[0])                 # expect: <=9

# After the value is known (int() ran the program) the size keeps its expression: n - n is 0,
# n * 2 - n is n.
print(int(n))                                    # expect: 4
print(n - n, n + 1 - n, n * 2 - n)               # expect: 0 1 <=6

# numel() of a bounded tensor is a size: <=6 * 1, real 4 (PyTorch: a SymInt).
let c = nonzero(tensor([0, 2, 0, 2, 2]).to("tpu"))
print(c.numel(), int(c.numel()), c.numel() == 3) # expect: <=5 3 true

# Conversions of a size value: float(), bool(), abs(), unary minus (0 - n already works).
let e = nonzero(tensor([1, 0, 3, 5, 0, 6]).to("tpu"))
let d = e.shape[0]
print(float(d), bool(d), abs(d) == 4)            # expect: 4.0 true true
print(0 - d, int(0 - d))                         # expect: <=0 -4
print(-d, int(-d))                               # expect: <=0 -4
