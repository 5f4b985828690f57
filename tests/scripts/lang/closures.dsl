# Closures capture variables (not values) and can assign them.
fn counter() {
  let n = 0
  return fn () { n += 1; return n }
}
let c1 = counter()
let c2 = counter()
c1(); c1()
print(c1(), c2())                    # expect: 3 1
fn pair() {
  let v = 0
  fn get() { return v }
  fn set(x) { v = x }
  return (get, set)
}
let (get, set) = pair()
set(42)
print(get())                         # expect: 42
# Each loop iteration binds a fresh variable: closures made in the loop keep their own.
let fs = []
for i in range(3) { fs.append(fn () { return i * 10 }) }
print(fs[0](), fs[1](), fs[2]())     # expect: 0 10 20
let gs = []
let j = 0
while j < 3 {
  let k = j
  gs.append(fn () { return k })
  j += 1
}
print(gs[0](), gs[2]())              # expect: 0 2
# Capturing through two levels.
fn outer() {
  let total = 0
  fn middle() {
    fn inner(x) { total += x }
    inner(1); inner(2)
  }
  middle()
  return total
}
print(outer())                       # expect: 3
# A closure sees later assignments of the captured variable.
fn late() {
  let x = 1
  let f = fn () { return x }
  x = 2
  return f()
}
print(late())                        # expect: 2
# A captured parameter.
fn adder(n) { return fn (x) { return x + n } }
print(adder(5)(10))                  # expect: 15
# Closures capture module globals by name too.
let g = 1
let readG = fn () { return g }
g = 7
print(readG())                       # expect: 7
# A nested recursive fn captures itself.
fn run() {
  fn fib(n) { if n < 2 { return n } return fib(n - 1) + fib(n - 2) }
  return fib(15)
}
print(run())                         # expect: 610
