# Powers overflow too.
print(2 ** 64)   # expect error: OverflowError: integer overflow
