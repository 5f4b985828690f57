# Memory (language.md, "Memory"): a value is freed when its last reference goes; values that
# refer to each other in a cycle are found by the cycle collector, which runs by itself as
# containers are made. gc() collects now and returns how many containers it freed.
gc()
fn node(t) {
  let d = {"data": t, "children": []}
  d["children"].append(d)           # the list refers back to the dict: a cycle
  return d
}
let n = node(ones([1000, 1000]))    # 4 MB of tensor, held only by the cycle
print(n["children"][0]["data"].shape)  # expect: shape([1000, 1000])
n = none
print(gc())                         # expect: 2
print(gc())                         # expect: 0

# A local function that calls itself: walk's cell holds walk, and walk holds the cells of
# what it captures (here a tensor).
fn outer(x) {
  fn walk(k) { if k == 0 { return x } return walk(k - 1) }
  return walk(3).sum().item()
}
print(outer(ones([64])))            # expect: 64.0
print(gc())                         # expect: 3

# What is still reachable is never freed.
let keep = {"name": "root"}
keep["self"] = keep
print(gc(), keep["self"]["self"]["name"])  # expect: 0 root
let s = stats()["gc"]
print(s["freed"] >= 5, s["collections"] >= 5, s["time_ms"] >= 0.0)  # expect: true true true
