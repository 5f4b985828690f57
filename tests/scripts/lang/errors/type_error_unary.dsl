# Unary minus on a string.
print(-"x")   # expect error: TypeError: bad operand type for unary -: 'str'
