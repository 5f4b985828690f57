# Modulo by zero.
print(7.5 % 0)   # expect error: ZeroDivisionError: float modulo by zero
