# Probabilities are non-negative weights: a negative one is a ValueError naming it (on the tpu
# when the value is needed, here by print).
print(multinomial(tensor([0.5, -0.5, 1.0]), 1))  # expect error: ValueError: multinomial: probabilities must be finite and non-negative, got -0.500000 at category 1
