# Lists: literals, indexing, slicing, methods, operators.
let xs = [3, 1, 2]
print(xs, len(xs), xs[0], xs[-1])          # expect: [3, 1, 2] 3 3 2
xs.append(4)
print(xs)                                  # expect: [3, 1, 2, 4]
print(xs.pop(), xs.pop(0), xs)             # expect: 4 3 [1, 2]
xs.extend([7, 8])
xs.extend((9,))
print(xs)                                  # expect: [1, 2, 7, 8, 9]
print(xs[1:3], xs[:2], xs[3:], xs[::-2], xs[-2:], xs[10:])   # expect: [2, 7] [1, 2] [8, 9] [9, 7, 1] [8, 9] []
print([1, 2] + [3], [0] * 3, [] * 2, [[1]] * 2)   # expect: [1, 2, 3] [0, 0, 0] [] [[1], [1]]
let m = [[1, 2], [3, 4]]
m[1][0] = 30
print(m, m[1][1])                          # expect: [[1, 2], [30, 4]] 4
let e = []
print(e, len(e), type(e))                  # expect: [] 0 list
let multi = [
  1,
  2,   # comments inside brackets are fine
]
print(multi)                               # expect: [1, 2]
let l = [5, 3, 9]
l.insert(1, 7)
print(l, l.index(9), l.count(3))           # expect: [5, 7, 3, 9] 3 1
l.sort()
print(l)                                   # expect: [3, 5, 7, 9]
l.reverse()
print(l, l.copy() == l)                    # expect: [9, 7, 5, 3] true
let self_ref = [1]
self_ref.append(self_ref)
print(len(self_ref))                       # expect: 2
print(list(range(3)), list("ab"), list((1, 2)))   # expect: [0, 1, 2] ["a", "b"] [1, 2]
print(self_ref)                            # expect: [1, [...]]
let d = {"k": 1}
d["self"] = d
print(d, [d])                              # expect: {"k": 1, "self": {...}} [{"k": 1, "self": {...}}]
