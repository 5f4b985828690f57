# Loop-heavy work: nested loops with int arithmetic, list appends and indexing, dict updates
# and small function calls. Prints a checksum and the time in ms.
fn mix(a, b) { return (a * 31 + b) % 1000003 }
let t = now_ms()
let acc = 0
let xs = []
for i in range(300) {
  for j in range(300) {
    acc = mix(acc, i * j + j)
  }
  xs.append(acc % 97)
}
let counts = {}
let keys = ["a", "b", "c", "d", "e", "f", "g"]
for round_ in range(200) {
  for k in range(len(xs)) {
    let key = keys[xs[k] % 7]
    counts[key] = counts.get(key, 0) + xs[k]
  }
}
let total = 0
let i = 0
while i < 100000 {
  total += i % 7
  if total > 1000 { total -= 1000 }
  i += 1
}
print(acc, counts["a"], total, now_ms() - t)
