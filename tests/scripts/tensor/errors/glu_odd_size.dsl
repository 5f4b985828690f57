# glu halves its dim, which must have an even size.
glu(zeros([2, 3]), 1)  # expect error: ShapeError: glu(): dim 1 must have an even size to halve, got 3
