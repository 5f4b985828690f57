# meshgrid's indexing is "ij" or "xy".
meshgrid(arange(3), indexing = "ji")  # expect error: ValueError: meshgrid(): indexing must be "ij" or "xy", got "ji"
