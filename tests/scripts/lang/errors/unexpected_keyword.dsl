# Keywords must name a parameter.
fn f(a) { return a }
f(1, c = 2)   # expect error: TypeError: f() got an unexpected keyword argument 'c'
