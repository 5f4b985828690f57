# Without replacement, at most as many draws as categories with nonzero probability (on the tpu
# when the value is needed, here by print).
print(multinomial(tensor([1.0, 0.0, 2.0]), 3))  # expect error: ValueError: multinomial: cannot draw 3 samples without replacement from 2 categories of nonzero probability
