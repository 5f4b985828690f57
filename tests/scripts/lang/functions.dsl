# fn declarations: defaults, keyword arguments, recursion, first-class values.
fn add(a, b = 1) { return a + b }
print(add(1), add(1, 2), add(b = 5, a = 1), add(3, b = 4))   # expect: 2 3 6 7
fn noReturn() { let x = 1 }
print(noReturn())                    # expect: none
fn bare() { return }
print(bare())                        # expect: none
fn defaults(x, y = [], z = "z") { y.append(x); return y }
print(defaults(1), defaults(2))      # expect: [1, 2] [1, 2]
# Defaults are evaluated once, when the fn statement runs (like Python).
let base = 10
fn withBase(x = base) { return x }
base = 20
print(withBase())                    # expect: 10
fn fact(n) { if n <= 1 { return 1 } return n * fact(n - 1) }
print(fact(20))                      # expect: 2432902008176640000
fn isEven(n) { if n == 0 { return true } return isOdd(n - 1) }
fn isOdd(n) { if n == 0 { return false } return isEven(n - 1) }
print(isEven(10), isOdd(7))          # expect: true true
let g = add
print(g(40, 2), type(g), g)          # expect: 42 function <fn add>
fn apply(f, x) { return f(x) }
print(apply(fact, 5))                # expect: 120
fn early(xs) {
  for x in xs { if x > 2 { return x } }
  return -1
}
print(early([1, 5, 3]), early([]))   # expect: 5 -1
fn multi(
    a,
    b = 2,
) {
  return (a, b)
}
print(multi(1,), multi(a = 3))       # expect: (1, 2) (3, 2)
fn nested() {
  fn helper(x) { return x + 1 }
  return helper(helper(0))
}
print(nested())                      # expect: 2
print(print)                         # expect: <built-in fn print>
fn trailing(a, b) { return a - b } print(trailing(b = 1, a = 3))  # expect: 2
