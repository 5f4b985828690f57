# break needs a loop.
fn f() {
  break   # expect error: SyntaxError: 'break' outside a loop
}
