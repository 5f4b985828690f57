# `a if c else b` has the lowest precedence and is right-associative.
let x = 5
print("big" if x > 3 else "small")                 # expect: big
print(1 if false else 2 if false else 3)            # expect: 3
print((1 if true else 2) + 10, 1 if true else 2 + 10)   # expect: 11 1
fn sign(n) { return -1 if n < 0 else 0 if n == 0 else 1 }
print(sign(-4), sign(0), sign(9))                   # expect: -1 0 1
fn boom() { assert false }
print("lazy" if true else boom())                   # expect: lazy
print([1, 2] if true else none)                     # expect: [1, 2]
