# Recursive calls: fib(27) (about 630k calls). Prints the result and the time in ms.
fn fib(n) {
  if n < 2 { return n }
  return fib(n - 1) + fib(n - 2)
}
let t = now_ms()
let r = fib(27)
print(r, now_ms() - t)
