# while and for over every iterable kind.
let i = 0
let total = 0
while i < 5 { total += i; i += 1 }
print(total)                         # expect: 10
for n in range(3) { print(n, end = " ") }
print()                              # expect: 0 1 2 
for n in range(2, 10, 3) { print(n, end = " ") }
print()                              # expect: 2 5 8 
for n in range(5, 0, -2) { print(n, end = " ") }
print()                              # expect: 5 3 1 
for n in range(-3) { print("never") }
for v in [1, "a", none] { print(v, end = ",") }
print()                              # expect: 1,a,none,
for v in (true, 2.5) { print(v, end = ",") }
print()                              # expect: true,2.5,
let d = {"x": 1, "y": 2, "z": 3}
for k in d { print(k, end = "") }    # dict iteration gives keys in insertion order
print()                              # expect: xyz
for k in d.keys() { print(k, end = "") }
print()                              # expect: xyz
for v in d.values() { print(v, end = "") }
print()                              # expect: 123
for (k, v) in d.items() { print(k + "=" + str(v), end = " ") }
print()                              # expect: x=1 y=2 z=3 
for ch in "héy" { print(ch, end = "|") }
print()                              # expect: h|é|y|
for (idx, v) in enumerate(["a", "b"], start = 1) { print(idx, v) }
# expect: 1 a
# expect: 2 b
for (a, b) in zip([1, 2, 3], "xy") { print(a, b) }
# expect: 1 x
# expect: 2 y
# Appending to a list while iterating it visits the new items, like Python.
let grow = [1]
for v in grow { if v < 4 { grow.append(v + 1) } }
print(grow)                          # expect: [1, 2, 3, 4]
let nested = 0
for a in range(3) { for b in range(3) { nested += a * b } }
print(nested)                        # expect: 9
for x in [] { print("never") }
let big = 0
for k in range(1000000) { big += 1 }
print(big)                           # expect: 1000000
