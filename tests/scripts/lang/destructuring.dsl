# let and for destructure tuples and lists, nested, as in language.md.
let (a, b) = (1, 2)
print(a, b)                          # expect: 1 2
let [c, d] = [3, 4]
print(c, d)                          # expect: 3 4
let (e, [f, (g, h)]) = [5, (6, [7, 8])]
print(e, f, g, h)                    # expect: 5 6 7 8
let (one,) = [1]
print(one)                           # expect: 1
let (p, q) = "xy" if false else (true, none)
print(p, q)                          # expect: true none
for (i, (k, v)) in enumerate({"a": 1, "b": 2}.items()) { print(i, k, v) }
# expect: 0 a 1
# expect: 1 b 2
for [x, y] in [[1, 2], [3, 4]] { print(x + y) }
# expect: 3
# expect: 7
let (a3, b3) = (b, a)                # swap
print(a3, b3)                        # expect: 2 1
