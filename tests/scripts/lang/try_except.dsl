# Errors you can catch (language.md): try/except/finally, raise, error values.
try { let x = 1 + "a" } except TypeError as e { print(e.kind, e.line, e.col) }   # expect: TypeError 2 15
try { [1][5] } except IndexError { print("index") } finally { print("finally") }
# expect: index
# expect: finally
fn f(n) {
  if n == 0 { raise ValueError("zero") }
  return 10 / n
}
try { f(0) } except ValueError as e { print(e, [e], e.line, e.file[-14:]) }   # expect: zero [ValueError("zero")] 7 try_except.dsl
# Handlers are tried in order; a bare except catches the rest.
try { {}["k"] } except IndexError { print("no") } except { print("any") }   # expect: any
# finally runs on return, break and continue, and after a handled error.
fn g() {
  try { return 1 } finally { print("cleanup") }
}
print(g())
# expect: cleanup
# expect: 1
for i in range(3) {
  try {
    if i == 1 { continue }
    print(i)
  } finally { print("f", i) }
}
# expect: 0
# expect: f 0
# expect: f 1
# expect: 2
# expect: f 2
# A bare raise re-raises the error being handled, where it was first raised.
try {
  try { f(0) } except { print("inner"); raise }
} except ValueError as e { print("outer", e.line) }
# expect: inner
# expect: outer 7
# Raising a caught error again keeps its place; an error made and raised gets the raise's.
let saved = none
try { f(0) } except ValueError as e { saved = e }
try { raise saved } except ValueError as e { print(e.line) }   # expect: 7
try { raise KeyError("fresh") } except KeyError as e { print(e.line) }   # expect: 41
# Errors of natives, of tensors and of the shape engine are caught by their kind.
try { ones([2, 3]) @ ones([2, 3]) } except ShapeError as e { print(e.kind) }   # expect: ShapeError
try { raise 3 } except TypeError as e { print(e.message) }   # expect: raise needs an error value (ValueError("...")), not 'int'
try { raise } except ValueError as e { print(e.message) }   # expect: no error is being handled: a bare 'raise' re-raises inside 'except'
print(type(ValueError("x")), str(ValueError("x")))   # expect: error x
# An error no handler matches goes on; finally still runs.
# expect: last
try { raise ValueError("end") } except KeyError { print("no") } finally { print("last") }   # expect error: ValueError: end
print("not reached")
