# Ordering needs comparable types.
print([1] < "a")   # expect error: TypeError: '<' not supported between 'list' and 'str'
