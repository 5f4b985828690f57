# An output subscript must come from an operand, once.
print(einsum("ij->jj", ones([2, 2])))  # expect error: ValueError: einsum(): output subscript j appears more than once in "ij->jj"
