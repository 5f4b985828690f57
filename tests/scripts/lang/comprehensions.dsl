# List and dict comprehensions (language.md, "Comprehensions"): clauses nest left to right,
# conditions filter, the targets are local to the comprehension.
let xs = [1, 2, 3, 4]
print([x * x for x in xs])                              # expect: [1, 4, 9, 16]
print([x for x in xs if x % 2 == 0])                    # expect: [2, 4]
print([x for x in xs if x > 1 if x < 4])                # expect: [2, 3]
print([(i, j) for i in range(3) for j in range(i)])     # expect: [(1, 0), (2, 0), (2, 1)]
print([[y * 2 for y in row] for row in [[1, 2], [3]]])  # expect: [[2, 4], [6]]
print([a + b for (a, b) in [[1, 2], [3, 4]]])           # expect: [3, 7]
print([c for c in "héllo" if c != "l"])                 # expect: ["h", "é", "o"]
print([x for x in []])                                  # expect: []
let d = {"a": 1, "b": 2}
print({k: d[k] * 10 for k in d})                        # expect: {"a": 10, "b": 20}
print({k + "!": v for (k, v) in d.items() if v > 1})    # expect: {"b!": 2}
# A bare comprehension as the only argument is a list (a generator in Python).
print(sum(x * x for x in xs))                           # expect: 30
print(max(len(w) for w in ["a", "abc", "ab"]))          # expect: 3
# Later clauses see earlier targets; the targets do not leak out.
let x = 5
print([x for x in range(2)], x)                         # expect: [0, 1] 5
print([y for ys in [[1], [2, 3]] for y in ys])          # expect: [1, 2, 3]
# A closure made in a comprehension keeps its own item, as in a for loop.
print([g() for g in [fn() { return i * 10 } for i in range(3)]])  # expect: [0, 10, 20]
# Sizes of tensors, and tensors themselves.
print([t.shape[0] for t in [ones([2]), ones([3, 1])]])  # expect: [2, 3]
print([r.sum() for r in ones([2, 3])])                  # expect: [tensor(3.), tensor(3.)]
print([i for i in 3])                                   # expect error: TypeError: 'int' is not iterable
