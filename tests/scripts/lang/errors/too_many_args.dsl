# Arity is checked.
fn f(a, b = 2) { return a + b }
f(1, 2, 3)   # expect error: TypeError: f() takes 2 arguments but 3 were given
