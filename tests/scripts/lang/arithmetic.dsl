# Integer and float arithmetic with Python semantics.
print(7 // 2, -7 // 2, 7 // -2, 7 % 3, -7 % 3, 7 % -3)  # expect: 3 -4 -4 1 2 -2
print(1 / 4, 4 / 2, 2 ** 10, 2 ** -1, 2.0 ** 0.5)     # expect: 0.25 2.0 1024 0.5 1.4142135623730951
print(0.1 + 0.2, 1.5 * 2, 7.5 // 2, -7.5 % 2)        # expect: 0.30000000000000004 3.0 3.0 0.5
print(-2 ** 2, (-2) ** 2, 2 ** 3 ** 2)               # expect: -4 4 512
print(1 + 2 * 3 - 4 / 2, (1 + 2) * 3)                # expect: 5.0 9
print(9223372036854775807, -9223372036854775808)     # expect: 9223372036854775807 -9223372036854775808
print(true + 1, 3 * "ab", [0] * 3, "a" + "b")       # expect: 2 ababab [0, 0, 0] ab
let big = 9223372036854775807
print(big + 1)  # expect error: OverflowError: integer overflow in 9223372036854775807 + 1
