# A negative number of elements is a ValueError naming it.
randperm(-3)  # expect error: ValueError: randperm(): n must be non-negative, got -3
