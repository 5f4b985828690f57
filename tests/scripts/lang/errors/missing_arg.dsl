# Parameters without defaults are required.
fn f(a, b) { return a + b }
f(1)   # expect error: TypeError: f() missing argument 'b'
