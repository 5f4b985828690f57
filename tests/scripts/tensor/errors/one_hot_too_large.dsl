# A class value must be below num_classes (PyTorch: RuntimeError "Class values must be smaller than num_classes").
print(one_hot(tensor([1, 3]), 3))  # expect error: ValueError: one_hot(): class values must be smaller than num_classes = 3
