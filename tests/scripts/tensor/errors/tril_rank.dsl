# tril and triu work on the last two dims (as torch, fewer is an IndexError).
print(tril(ones([3])))  # expect error: IndexError: tril(): x must have at least 2 dims, got 1
