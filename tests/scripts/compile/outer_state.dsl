# A compiled function may build and change its own lists and dicts, but changing the caller's
# (a list made outside, a global) would happen only once, at trace time, with symbolic sizes:
# until graph breaks run such statements eagerly at every call (issue 11), it is refused, and
# nothing symbolic reaches the caller's list.
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
  seen.append(x.shape[0])  # expect error: ValueError: changing a list made outside a compiled function is not supported yet
  return x * 2
}
leaks(ones([3]))
