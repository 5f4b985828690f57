# assert passes silently when the condition holds.
assert true
assert 1 + 1 == 2, "math"
assert [1], "non-empty list is truthy"
let n = 5
assert n > 0, "n must be positive"
print("ok")                          # expect: ok
assert n < 0, "n must be negative, got " + str(n)   # expect error: AssertionError: n must be negative, got 5
