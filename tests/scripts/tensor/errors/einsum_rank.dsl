# A term without an ellipsis names every dim of its operand.
print(einsum("ij", ones([2])))  # expect error: ShapeError: einsum(): operand 0 has 1 dims (shape [2]) but its term in "ij" names 2
