# break and continue affect the innermost loop.
for i in range(10) {
  if i % 2 == 0 { continue }
  if i > 6 { break }
  print(i, end = " ")
}
print()                              # expect: 1 3 5 
let n = 0
while true {
  n += 1
  if n < 3 { continue }
  break
}
print(n)                             # expect: 3
for a in range(3) {
  for b in range(3) {
    if b == 1 { break }
    print(a, b)
  }
}
# expect: 0 0
# expect: 1 0
# expect: 2 0
fn find(xs, target) {
  for (i, x) in enumerate(xs) {
    while true { break }
    if x == target { return i }
  }
  return none
}
print(find([5, 6, 7], 7), find([], 1))   # expect: 2 none
let out = []
for i in range(5) {
  if i == 1 { continue }
  out.append(i)
  if i == 3 { break }
}
print(out)                           # expect: [0, 2, 3]
