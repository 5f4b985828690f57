# for needs an iterable.
for x in 5 { }   # expect error: TypeError: 'int' is not iterable
