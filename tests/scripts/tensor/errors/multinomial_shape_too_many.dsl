# More samples than categories without replacement: refused from the shapes alone.
multinomial(ones([2, 3]), 4)  # expect error: ValueError: multinomial: cannot draw 4 samples from 3 categories without replacement
