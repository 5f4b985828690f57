# List indices are bounds-checked.
let xs = [1, 2, 3]
print(xs[3])   # expect error: IndexError: list index 3 out of range for length 3
