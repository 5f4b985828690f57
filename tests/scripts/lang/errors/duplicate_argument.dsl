# A parameter given twice.
fn f(a) { return a }
f(1, a = 2)   # expect error: TypeError: f() got multiple values for argument 'a'
