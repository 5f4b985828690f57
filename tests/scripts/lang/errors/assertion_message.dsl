# assert with a message.
let n = -1
assert n > 0, "n must be positive"   # expect error: AssertionError: n must be positive
