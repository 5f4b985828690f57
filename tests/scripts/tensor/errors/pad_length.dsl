# pad's list holds (left, right) pairs from the last dim backwards: an odd length is a ValueError at the call.
print(pad(tensor([[1, 2]]), [1, 1]).tolist())  # expect: [[0, 1, 2, 0]]
pad(tensor([[1, 2]]), [1, 1, 1])  # expect error: ValueError: pad(): pad must have an even length of at most 2 * rank (4), got 3
