# Dicts: string keys, insertion order, methods.
let d = {"b": 1, "a": 2}
d["c"] = 3
d["b"] = 10                   # updating keeps the original position
print(d, len(d))              # expect: {"b": 10, "a": 2, "c": 3} 3
print(d.keys(), d.values())   # expect: ["b", "a", "c"] [10, 2, 3]
print(d.items())              # expect: [("b", 10), ("a", 2), ("c", 3)]
print(d.get("a"), d.get("zz"), d.get("zz", "default"), d["c"])   # expect: 2 none default 3
print({}, type({}), {"nested": {"k": [1]}})   # expect: {} dict {"nested": {"k": [1]}}
let multi = {
  "x": 1,
  "y": 2,
}
print(multi)                  # expect: {"x": 1, "y": 2}
let counts = {}
for w in "a b a c a".split() { counts[w] = counts.get(w, 0) + 1 }
print(counts)                 # expect: {"a": 3, "b": 1, "c": 1}
print(dict(x = 1), dict([("k", "v")]), dict({"a": 1}))   # expect: {"x": 1} {"k": "v"} {"a": 1}
let key = "dyn"
print({key: 1, "a" + "b": 2})   # expect: {"dyn": 1, "ab": 2}
# Growing past the entries kept inside the dict (4) and past the index's size (8): order,
# updates in place, lookups, equality and aliases hold at every size.
let g = {"k0": 0}
let alias = g
let sizes = []
for i in range(1, 12) {
  g["k" + str(i)] = i
  g["k0"] += 1
  sizes.append(len(g))
}
print(sizes)                  # expect: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
print(alias["k0"], alias["k11"], alias.get("k5"), alias.get("k12", -1))   # expect: 11 11 5 -1
print(g.keys())   # expect: ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11"]
print(g)   # expect: {"k0": 11, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k9": 9, "k10": 10, "k11": 11}
let copied = dict(g)
copied["k3"] = 30
print(copied == g, g["k3"], copied["k3"], dict(g) == g)   # expect: false 3 30 true
let five = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}
print(five.items()[4], five == {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}, "e" in five)   # expect: ("e", 5) true true
for k in g { g[k] = 0 }       # assigning existing keys while iterating: no growth, order kept
print(g.values())             # expect: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
