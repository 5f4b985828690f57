# let declares in the current block scope; top-level lets are module globals.
let x = 1
if true {
  let x = 2        # shadows the global inside this block only
  print(x)         # expect: 2
  x = 3            # assigns the inner x
  print(x)         # expect: 3
}
print(x)           # expect: 1
let x = x + 10     # redeclaring at top level rebinds the global; the right side sees the old x
print(x)           # expect: 11
fn f() {
  let y = x * 2    # globals are visible in functions
  x = y            # and assignable
  return y
}
print(f(), x)      # expect: 22 22
fn g() { return late }   # globals are looked up when used, so later definitions are seen
let late = "later"
print(g())         # expect: later
let i = 100
for i in range(2) { }    # the loop variable has its own scope
print(i)           # expect: 100
while true {
  let inner = 5
  break
}
fn shadow(x) { let x = x + 1; return x }  # a let may shadow a parameter
print(shadow(1))   # expect: 2
