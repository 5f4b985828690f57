# Assignment needs an existing binding.
total = 1   # expect error: NameError: cannot assign to undeclared variable 'total' (declare it with let)
