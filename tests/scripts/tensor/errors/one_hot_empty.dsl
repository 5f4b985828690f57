# The width max(x) + 1 of an empty x is unknown (PyTorch: "Can not infer total number of classes from empty tensor").
print(one_hot(zeros([0], dtype = i32)))  # expect error: ValueError: one_hot(): cannot infer num_classes from x of shape [0] with no elements; pass num_classes
