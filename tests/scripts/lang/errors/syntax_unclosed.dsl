# Input that ends inside a bracket is reported at the innermost unclosed bracket, as Python
# 3.10+ does, not where the parser gave up.
fn f(x) {
  return (x + 1   # expect error: SyntaxError: '(' was never closed

print(f(1))
