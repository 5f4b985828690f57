# Element assignment is bounds-checked.
let xs = []
xs[0] = 1   # expect error: IndexError: list index 0 out of range for length 0
