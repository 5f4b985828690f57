# Class values must be non-negative, whether num_classes is given or inferred.
print(one_hot(tensor([1, -2])))  # expect error: ValueError: one_hot(): class values must be non-negative
