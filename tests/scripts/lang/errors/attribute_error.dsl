# Unknown attributes.
let s = "x"
s.shout()   # expect error: TypeError: 'str' has no attribute 'shout'
