# Tuples: literals, indexing, immutability, operators.
let t = (1, "two", 3.0)
print(t, len(t), t[1], t[-1], t[0:2])     # expect: (1, "two", 3.0) 3 two 3.0 (1, "two")
print((), (1,), (1, 2) + (3,), (0,) * 3)   # expect: () (1,) (1, 2, 3) (0, 0, 0)
print((1), type((1)), type((1,)))          # expect: 1 int tuple
print(tuple([1, 2]), tuple("ab"), (1, 2) == (1, 2), (1, 2) < (1, 3))   # expect: (1, 2) ("a", "b") true true
let nested = ((1, 2), [3])
nested[1].append(4)                        # a list inside a tuple is still mutable
print(nested)                              # expect: ((1, 2), [3, 4])
