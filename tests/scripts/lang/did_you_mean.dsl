# Misspelt names, attributes and keyword arguments suggest the nearest name.
let count = 1
try { print(coutn) } except NameError as e { print(e.message) }   # expect: name 'coutn' is not defined (did you mean 'count'?)
try { [1].apend(2) } except TypeError as e { print(e.message) }   # expect: 'list' has no attribute 'apend' (did you mean 'append'?)
fn f(alpha, beta) { return alpha }
try { f(1, bta = 2) } except TypeError as e { print(e.message) }   # expect: f() got an unexpected keyword argument 'bta' (did you mean 'beta'?)
try { sorted([1], kye = 1) } except TypeError as e { print(e.message) }   # expect: sorted() got an unexpected keyword argument 'kye' (did you mean 'key'?)
try { math.sqr(2) } except NameError as e { print(e.message) }   # expect: module 'math' has no name 'sqr' (did you mean 'sqrt'?)
fn g(items) { return lenn(items) }
try { g([1]) } except NameError as e { print(e.message) }   # expect: name 'lenn' is not defined (did you mean 'len'?)
print(zzzzzz)   # expect error: NameError: name 'zzzzzz' is not defined
