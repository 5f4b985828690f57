# unflatten's sizes multiply up to the size of the dim.
unflatten(zeros([2, 12]), 1, [5, -1])  # expect error: ShapeError: unflatten(): sizes [5, -1] don't multiply up to the size 12 of dim 1
