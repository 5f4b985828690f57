# Assignment, augmented assignment, element and field assignment.
let a = 1
a = a + 1
print(a)                   # expect: 2
a += 3; print(a)           # expect: 5
a -= 1; print(a)           # expect: 4
a *= 2.5; print(a)         # expect: 10.0
a /= 4; print(a)           # expect: 2.5
let i = 7
i /= 2; print(i, type(i))  # expect: 3.5 float
let s = "ab"
s += "cd"; print(s)        # expect: abcd
let xs = [1, 2, 3]
xs[0] = 10
xs[-1] += 5
print(xs)                  # expect: [10, 2, 8]
let d = {"a": 1}
d["b"] = 2
d["a"] *= 7
print(d)                   # expect: {"a": 7, "b": 2}
let nested = {"l": [1, [2, 3]]}
nested["l"][1][0] = "x"
print(nested)              # expect: {"l": [1, ["x", 3]]}
let alias = xs             # lists are shared, not copied
alias.append(0)
print(xs)                  # expect: [10, 2, 8, 0]
let t = (1, 2)
let u = t
u += (3,)                  # tuples are immutable: += builds a new one
print(t, u)                # expect: (1, 2) (1, 2, 3)
let m = [1]
let m2 = m
m2 += [2]                  # list += extends in place, like Python
print(m, m2)               # expect: [1, 2] [1, 2]
import "modules/util.dsl" as util
util.counter = 41          # field assignment on a module
util.counter += 1
print(util.counter)        # expect: 42
