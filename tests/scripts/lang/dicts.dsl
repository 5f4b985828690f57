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
