# 64-bit overflow is detected.
let big = 4611686018427387904
print(big * 2)   # expect error: OverflowError: integer overflow in 4611686018427387904 * 2
