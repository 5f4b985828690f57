# Destructuring needs the right number of values.
let (a, b) = [1, 2, 3]   # expect error: ValueError: cannot unpack 3 values into 2 names
