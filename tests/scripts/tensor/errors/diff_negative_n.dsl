# A negative order is a ValueError naming it.
diff(tensor([1.0, 2.0]), n = -1)  # expect error: ValueError: diff(): n must be non-negative, got -1
