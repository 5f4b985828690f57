# prepend/append must have x's rank.
diff(ones([2, 3]), prepend = ones([3]))  # expect error: ShapeError: diff(): prepend must have x's rank 2, got rank 1
