# unbind's dim must be one of the tensor's dims (IndexError, as PyTorch).
unbind(zeros([2, 3]), 2)  # expect error: IndexError: unbind(): dim 2 is out of range for a tensor of rank 2
