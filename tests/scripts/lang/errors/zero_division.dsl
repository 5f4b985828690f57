# Division by zero is an error, for / // and %.
print(1 / 0)   # expect error: ZeroDivisionError: division by zero
