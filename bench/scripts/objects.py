# Method- and dict-heavy work, the same as objects.dsl (CPython baseline).
import time
def point(x, y): return {"x": x, "y": y}
def add(p, q): return point(p["x"] + q["x"], p["y"] + q["y"])
def manhattan(p): return abs(p["x"]) + abs(p["y"])
def account(name): return {"name": name, "balance": 0, "history": []}
def deposit(acct, amount):
    acct["balance"] += amount
    acct["history"].append(amount)
def last_or(xs, default):
    if len(xs) == 0: return default
    return xs[len(xs) - 1]
t = time.perf_counter()
names = ["ann", "bob", "cy", "dee", "eve"]
accounts = []
for i in range(100): accounts.append(account(names[i % 5] + str(i)))
p = point(0, 0)
step = point(1, -2)
tally = {}
for round_ in range(200):
    for a in accounts:
        deposit(a, round_ % 13)
        p = add(p, step)
        key = a["name"]
        tally[key] = tally.get(key, 0) + last_or(a["history"], 0)
richest = ""
best = -1
for name in tally.keys():
    if tally[name] > best:
        best = tally[name]
        richest = name
print(manhattan(p), richest, best, (time.perf_counter() - t) * 1000)
