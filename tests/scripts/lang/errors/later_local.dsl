# Names resolve to the declarations visible where they are used: a nested fn cannot see a
# local declared after it, so `later` is looked up as a global (see docs/language.md).
fn f() {
  fn early() {
    return later   # expect error: NameError: name 'later' is not defined
  }
  let later = 1
  return early()
}
f()
