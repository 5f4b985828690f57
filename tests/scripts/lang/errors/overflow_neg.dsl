# Negating the most negative int.
let m = -9223372036854775808
print(-m)   # expect error: OverflowError: integer overflow in -(-9223372036854775808)
