# Method- and dict-heavy work: records as dicts of named fields, functions over them as their
# methods, string keys, method calls on lists and dicts, list building. Prints a checksum and
# the time in ms.
fn point(x, y) { return {"x": x, "y": y} }
fn add(p, q) { return point(p["x"] + q["x"], p["y"] + q["y"]) }
fn manhattan(p) { return abs(p["x"]) + abs(p["y"]) }
fn account(name) { return {"name": name, "balance": 0, "history": []} }
fn deposit(acct, amount) {
  acct["balance"] += amount
  acct["history"].append(amount)
}
fn last_or(xs, default) {
  if len(xs) == 0 { return default }
  return xs[len(xs) - 1]
}
let t = now_ms()
let names = ["ann", "bob", "cy", "dee", "eve"]
let accounts = []
for i in range(100) { accounts.append(account(names[i % 5] + str(i))) }
let p = point(0, 0)
let step = point(1, -2)
let tally = {}
for round_ in range(200) {
  for a in accounts {
    deposit(a, round_ % 13)
    p = add(p, step)
    let key = a["name"]
    tally[key] = tally.get(key, 0) + last_or(a["history"], 0)
  }
}
let richest = ""
let best = -1
for name in tally.keys() {
  if tally[name] > best {
    best = tally[name]
    richest = name
  }
}
print(manhattan(p), richest, best, now_ms() - t)
