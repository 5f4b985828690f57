# Errors inside comprehensions point at their own expression.
print({k: 1 for k in [1, 2]})    # expect error: TypeError: dict keys must be str, not 'int'
