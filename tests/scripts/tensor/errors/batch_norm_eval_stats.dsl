# In evaluation mode batch_norm normalizes by the running statistics, so they must be given.
print(batch_norm(ones([4, 3]), none, none))  # expect error: ValueError: batch_norm(): running_mean and running_var must be given in evaluation mode (training = false)
