# in / not in: lists, tuples, dict keys, substrings, ranges.
print(2 in [1, 2, 3], 4 in [1, 2, 3], 2 not in [1, 2])    # expect: true false false
print("a" in ("a", "b"), (1, 2) in [(1, 2)], [1] in [[1]])  # expect: true true true
print("k" in {"k": 1}, "v" in {"k": "v"}, 1 in {"1": 1})    # expect: true false false
print("ell" in "hello", "" in "x", "z" not in "abc")        # expect: true true true
print(3 in range(0, 10, 3), 4 in range(0, 10, 3), 1.0 in [1])  # expect: true false true
print(not 1 in [1])                                         # expect: false
print(1 in [1] == true)   # chains like Python: (1 in [1]) and ([1] == true)
# expect: false
