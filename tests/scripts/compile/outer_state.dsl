# A compiled function may build and change its own lists and dicts inside its graph; changing
# the caller's (a list made outside, a global) is a graph break: the statement runs eagerly at
# every call, with real values, so nothing symbolic reaches the caller's list.
@compile(dynamic = true)
fn own(x) {
  let sizes = []
  sizes.append(x.shape[0])
  let d = {"n": x.shape[0]}
  d["twice"] = x.shape[0] * 2
  return x * float(len(sizes) + len(d))
}
print(own(ones([3])).tolist())   # expect: [3.0, 3.0, 3.0]
print(own(ones([5])).shape)      # expect: shape([5])
let seen = []
@compile(dynamic = true)
fn leaks(x) {
  seen.append(x.shape[0])
  return x * 2
}
leaks(ones([3]))
leaks(ones([4]))
leaks(ones([7]))
print(seen)                     # expect: [3, 4, 7]
print(stats(leaks)["compiles"])  # expect: 1
