# Eager dispatch cost of a small op from a script: x + y on 4 elements, n times.
let n = 200000
let x = tensor([1.0, 2.0, 3.0, 4.0])
let y = tensor([4.0, 3.0, 2.0, 1.0])
let z = x
let t = now_ms()
for i in range(n) { z = x + y }
let elapsed = now_ms() - t
print("tessel eager x + y (4 elems):", round(elapsed * 1e6 / n, 1), "ns/op")
