# Local fns may call each other whatever their order, like Python's nested defs.
fn parity(n) {
  fn is_even(k) { if k == 0 { return true } return is_odd(k - 1) }
  fn is_odd(k) { if k == 0 { return false } return is_even(k - 1) }
  return is_even(n)
}
print(parity(10), parity(7))  # expect: true false
fn early() {
  let r = helper()             # expect error: NameError: local variable 'helper' used before assignment
  fn helper() { return 1 }
  return r
}
early()
