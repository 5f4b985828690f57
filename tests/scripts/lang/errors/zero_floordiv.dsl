# Integer floor division by zero.
let z = 0
print(7 // z)   # expect error: ZeroDivisionError: integer division by zero
