# Calling something that is not a function.
let x = 5
x(1)   # expect error: TypeError: 'int' is not callable
