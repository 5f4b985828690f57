# LimitError and interrupts end the script: no except catches them, finally still runs
# (Note [Uncatchable errors] in interp/eval/errors.cpp).
fn down(n) { return down(n + 1) }   # expect error: LimitError: maximum recursion depth exceeded
try {
  try { down(0) } except { print("swallowed") } finally { print("finally ran") }
} except LimitError { print("swallowed too") }
# expect: finally ran
