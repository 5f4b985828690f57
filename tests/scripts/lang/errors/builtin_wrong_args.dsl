# Built-ins check their arguments too.
len([1], [2])   # expect error: TypeError: len() takes at most 1 arguments (2 given)
