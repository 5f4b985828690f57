# Training statistics of one value per channel have no variance (PyTorch raises too).
print(batch_norm(ones([1, 3]), none, none, training = true))  # expect error: ValueError: batch_norm(): training needs more than 1 value per channel, got x of shape [1, 3]
