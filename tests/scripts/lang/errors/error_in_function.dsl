# An error inside a function points at the failing expression (the traceback is checked in a gtest).
fn inner(x) {
  return x + none   # expect error: TypeError: unsupported operand types for +: 'int' and 'none'
}
fn outer() { return inner(1) }
outer()
