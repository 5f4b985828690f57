# diff of a 0-d tensor is a ShapeError at the call (torch: "diff expects input to be at least one-dimensional").
print(diff(tensor([1, 3])).tolist())  # expect: [2]
diff(tensor(3.0))  # expect error: ShapeError: diff(): x must have at least one dimension
