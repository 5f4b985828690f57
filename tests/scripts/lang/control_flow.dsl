# if / elif / else, truthiness, and/or/not.
fn classify(n) {
  if n < 0 { return "negative" } elif n == 0 { return "zero" } elif n < 10 { return "small" } else { return "large" }
}
print(classify(-1), classify(0), classify(5), classify(50))   # expect: negative zero small large
let x = 3
if x > 1 {
  print("big")                 # expect: big
}
else {
  print("small")
}
if x > 5 {
  print("no")
}
elif x > 2 {
  print("elif on its own line")  # expect: elif on its own line
}
if 0 { print("no") } else { print("0 is falsy") }          # expect: 0 is falsy
if "" or [] or {} or () or 0.0 or none { print("no") } else { print("all falsy") }   # expect: all falsy
if "a" and [0] and {"k": 0} and (0,) and 0.1 { print("all truthy") }   # expect: all truthy
print(1 and "x", 0 and "x", none or 5, "" or "y", not 0, not [1])    # expect: x 0 5 y true false
fn boom() { assert false, "should not run" }
print(false and boom(), true or boom())   # expect: false true
let r = range(0)
if r { print("no") } else { print("empty range is falsy") }   # expect: empty range is falsy
