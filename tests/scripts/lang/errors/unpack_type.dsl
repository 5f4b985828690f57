# Only sequences destructure.
let (a, b) = 5   # expect error: TypeError: cannot unpack a value of type 'int'
