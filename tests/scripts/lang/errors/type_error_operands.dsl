# Operator errors name both operand types.
let n = 1
print(n + "a")   # expect error: TypeError: unsupported operand types for +: 'int' and 'str'
