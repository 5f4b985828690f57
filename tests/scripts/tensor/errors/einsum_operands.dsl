# The equation names one term per operand.
print(einsum("ij,jk", ones([2, 3])))  # expect error: ValueError: einsum(): "ij,jk" has 2 operand terms but 1 operand was given
