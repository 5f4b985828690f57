# A source that does not match the input's shape with the index length is a ShapeError.
index_add(zeros([3, 2]), 0, tensor([0, 1]), ones([2, 3]))  # expect error: ShapeError: index_add: source [2, 3] must have the input's shape [3, 2] with dim 0 the index length
