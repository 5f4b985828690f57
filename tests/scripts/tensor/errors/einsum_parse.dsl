# An einsum equation that does not parse is a ValueError naming it.
print(einsum("i1->i", ones([2, 3])))  # expect error: ValueError: einsum(): invalid subscript '1' at index 1 of "i1->i": subscripts must be letters [a-zA-Z]
