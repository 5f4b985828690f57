# Loop-heavy work, the same as loops.dsl (CPython baseline; module-level code, as in Tessel).
import time

def mix(a, b):
    return (a * 31 + b) % 1000003

t = time.perf_counter()
acc = 0
xs = []
for i in range(300):
    for j in range(300):
        acc = mix(acc, i * j + j)
    xs.append(acc % 97)
counts = {}
keys = ["a", "b", "c", "d", "e", "f", "g"]
for round_ in range(200):
    for k in range(len(xs)):
        key = keys[xs[k] % 7]
        counts[key] = counts.get(key, 0) + xs[k]
total = 0
i = 0
while i < 100000:
    total += i % 7
    if total > 1000:
        total -= 1000
    i += 1
print(acc, counts["a"], total, (time.perf_counter() - t) * 1000)
