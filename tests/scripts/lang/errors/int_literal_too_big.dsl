# Integer literals must fit in 64 bits.
let big = 9223372036854775808   # expect error: SyntaxError: integer literal 9223372036854775808 does not fit in 64 bits
