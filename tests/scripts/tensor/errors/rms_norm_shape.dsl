# rms_norm normalizes over trailing dims that must have the sizes normalized_shape names.
print(rms_norm(ones([2, 4]), [3]))  # expect error: ShapeError: rms_norm(): normalized_shape [3] must be the trailing sizes of x, got x of shape [2, 4]
