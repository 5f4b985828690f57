# The loop alone, subtracted from dispatch.dsl's figure to get the op's own cost.
let n = 200000
let x = 1
let t = now_ms()
for i in range(n) { x = i }
print("tessel empty loop:", round((now_ms() - t) * 1e6 / n, 1), "ns/iter")
