# A row without mass has nothing to draw: a ValueError naming the row (on the tpu
# when the value is needed, here by print).
print(multinomial(tensor([[1.0, 2.0], [0.0, 0.0]]), 1))  # expect error: ValueError: multinomial: probabilities sum to zero in row 1 (no category to draw)
