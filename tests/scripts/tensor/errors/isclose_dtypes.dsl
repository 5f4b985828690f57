# isclose compares tensors of one dtype.
isclose(zeros([3]), tensor([0, 1, 2]))  # expect error: TypeError: isclose(): input and other must have one dtype, got f32 and i32
